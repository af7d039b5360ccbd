import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from '../../../runtime/apimachinery/validation/names.js';
import { validatePathSegmentName } from '../../../runtime/registry/generic/keys.js';
import type { APIService } from './types.js';

/**
 * Validation of APIServices as kube-aggregator's pkg/apis/apiregistration/validation
 * (ValidateAPIService, ValidateAPIServiceUpdate, ValidateAPIServiceStatus), with its paths and
 * messages. ObjectMeta is the generic store's; the name rule (a path segment, then
 * `<version>.<group>`) is split between the strategy's validateName and the spec's check here,
 * which runs on updates too, since a spec change can break it. A missing spec is Go's zero spec.
 */

const CONDITION_STATUSES = ['True', 'False', 'Unknown'];

/** ValidateAPIService beyond metadata. */
export function validateAPIService(apiService: APIService): FieldError[] {
  const spec = apiService.spec ?? { groupPriorityMinimum: 0, versionPriority: 0 };
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const errs: FieldError[] = [];
  const name = apiService.metadata?.name ?? '';
  const requiredName = `${version}.${group}`;
  // kube's name function reports this only for a name that is a valid path segment.
  if (name !== '' && validatePathSegmentName(name).length === 0 && name !== requiredName) {
    errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', badValue: name, detail: `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}` });
  }
  if (group === '' && version !== 'v1') errs.push({ type: 'FieldValueRequired', field: 'spec.group', detail: 'only v1 may have an empty group and it better be legacy kube' });
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errs.push({ type: 'FieldValueInvalid', field: 'spec.group', badValue: group, detail: msg });
  for (const msg of isDNS1035Label(version)) errs.push({ type: 'FieldValueInvalid', field: 'spec.version', badValue: version, detail: msg });
  const groupPriority = spec.groupPriorityMinimum ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.groupPriorityMinimum', badValue: groupPriority, detail: 'must be positive and less than 20000' });
  }
  const versionPriority = spec.versionPriority ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.versionPriority', badValue: versionPriority, detail: 'must be positive and less than 1000' });
  }
  const caBundleBytes = Buffer.from(spec.caBundle ?? '', 'base64').length;
  const insecure = spec.insecureSkipTLSVerify === true;
  const service = spec.service;
  if (service === undefined || service === null) {
    if (caBundleBytes !== 0) errs.push({ type: 'FieldValueInvalid', field: 'spec.caBundle', badValue: `${caBundleBytes} bytes`, detail: 'local APIServices may not have a caBundle' });
    if (insecure) errs.push({ type: 'FieldValueInvalid', field: 'spec.insecureSkipTLSVerify', badValue: true, detail: 'local APIServices may not have insecureSkipTLSVerify' });
    return errs;
  }
  if ((service.namespace ?? '') === '') errs.push({ type: 'FieldValueRequired', field: 'spec.service.namespace', detail: '' });
  if ((service.name ?? '') === '') errs.push({ type: 'FieldValueRequired', field: 'spec.service.name', detail: '' });
  // The port is defaulted to 443 before validation; an explicit one is checked as Go's int32.
  const port = service.port ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push({ type: 'FieldValueInvalid', field: 'spec.service.port', badValue: port, detail: `port is not valid: ${portErrs.join(', ')}` });
  if (insecure && caBundleBytes > 0) errs.push({ type: 'FieldValueInvalid', field: 'spec.insecureSkipTLSVerify', badValue: true, detail: 'may not be true if caBundle is present' });
  return errs;
}

/** ValidateAPIServiceStatus: every condition's status is True, False or Unknown. */
export function validateAPIServiceStatus(apiService: APIService): FieldError[] {
  const errs: FieldError[] = [];
  (apiService.status?.conditions ?? []).forEach((c, i) => {
    const status = String(c.status ?? '');
    if (!CONDITION_STATUSES.includes(status)) {
      errs.push({
        type: 'FieldValueNotSupported',
        field: `status.conditions[${i}].status`,
        badValue: status,
        detail: `supported values: ${CONDITION_STATUSES.map((v) => JSON.stringify(v)).join(', ')}`,
      });
    }
  });
  return errs;
}
