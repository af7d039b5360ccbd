import { isDeepStrictEqual } from 'node:util';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceSubresources,
  JSONSchemaProps,
  SelectableField,
} from '../../../apis/apiextensions/v1/types.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { markGoValidation } from '../../apimachinery/validation/typed.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../apimachinery/validation/names.js';
import { isCRDConditionTrue } from '../apihelpers.js';
import { allowInvalidCABundle, REVIEW_VERSIONS, validateConversion, type ConversionOptions } from './conversion.js';
import { child, duplicate, goStrings, index, invalid, invalidGo, key, notSupported, required, tooMany } from './errors.js';
import { validFieldPath } from './fieldpath.js';
import { toInternalSpec, type InternalSpec, type InternalVersion } from './internal.js';
import { validateValidation } from './schemas.js';

/**
 * CRD validation as apiextensions' validation.go (the parts users hit): names, scope, versions
 * (exactly one storage version), schemas (OpenAPI restrictions, structural, defaults, CEL rules
 * compiled), subresources, printer columns, selectable fields, conversion, stored versions, API
 * approval of protected groups. Paths are kube's, which validates the internal version (see
 * InternalSpec). Pure functions; they never mutate the CRDs.
 */

interface Options extends ConversionOptions {
  readonly requireImmutableNames: boolean;
}

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const MAX_SELECTABLE_FIELDS = 8;
/**
 * ValidateCustomResourceDefinition: a CRD being created (after defaulting and PrepareForCreate).
 * The CRD kind's whole validation, as in kube (markGoValidation): its generated schema's required
 * fields and declared rules are not run before it.
 */
export const validateCustomResourceDefinition = markGoValidation(function validateCustomResourceDefinition(crd: CustomResourceDefinition): FieldError[] {
  const errs: FieldError[] = [];
  const name = crd.metadata?.name ?? '';
  if (name !== '' && name !== `${crd.spec?.names?.plural ?? ''}.${crd.spec?.group ?? ''}`) {
    errs.push(invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }
  const spec = toInternalSpec(crd.spec ?? ({} as CustomResourceDefinition['spec']));
  errs.push(...validateSpec(spec, { requireRecognizedConversionReviewVersion: true, requireImmutableNames: false, allowInvalidCABundle: true }, 'spec'));
  errs.push(...validateStatus(crd));
  errs.push(...validateStoredVersions(crd.status?.storedVersions ?? [], spec.versions));
  errs.push(...validateAPIApproval(crd, undefined));
  errs.push(...validatePreserveUnknownFields(crd, undefined));
  return errs;
});

/** ValidateCustomResourceDefinitionUpdate. */
export function validateCustomResourceDefinitionUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const spec = toInternalSpec(crd.spec ?? ({} as CustomResourceDefinition['spec']));
  const oldSpec = toInternalSpec(old.spec ?? ({} as CustomResourceDefinition['spec']));
  const oldReviewVersions = oldSpec.conversion?.conversionReviewVersions ?? [];
  const opts: Options = {
    requireRecognizedConversionReviewVersion: oldReviewVersions.length === 0 || oldReviewVersions.some((v) => REVIEW_VERSIONS.includes(v)),
    requireImmutableNames: isCRDConditionTrue(old, 'Established'),
    allowInvalidCABundle: allowInvalidCABundle(old),
  };
  const errs = validateSpec(spec, opts, 'spec');
  if (opts.requireImmutableNames) {
    errs.push(...immutable(spec.scope, oldSpec.scope, 'spec.scope'));
    errs.push(...immutable(spec.names.kind, oldSpec.names.kind, 'spec.names.kind'));
  }
  errs.push(...immutable(spec.group, oldSpec.group, 'spec.group'));
  errs.push(...immutable(spec.names.plural, oldSpec.names.plural, 'spec.names.plural'));
  errs.push(...validateStatus(crd));
  errs.push(...validateStoredVersions(crd.status?.storedVersions ?? [], spec.versions));
  errs.push(...validateAPIApproval(crd, old));
  errs.push(...validatePreserveUnknownFields(crd, old));
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus (metadata is checked by the generic store). */
export function validateCustomResourceDefinitionStatus(crd: CustomResourceDefinition): FieldError[] {
  return validateStatus(crd);
}

function validateStatus(crd: CustomResourceDefinition): FieldError[] {
  const accepted = crd.status?.acceptedNames;
  return accepted === undefined ? [] : validateNames(accepted, 'status.acceptedNames');
}

function validateSpec(spec: InternalSpec, opts: Options, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.group === '') errs.push(required(child(path, 'group')));
  else {
    const problems = isDNS1123Subdomain(spec.group);
    if (problems.length > 0) errs.push(invalid(child(path, 'group'), spec.group, problems.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(invalid(child(path, 'group'), spec.group, 'should be a domain with at least one dot'));
  }
  errs.push(...enumString(child(path, 'scope'), spec.scope, ['Cluster', 'Namespaced']));

  if (spec.validation?.openAPIV3Schema === undefined) {
    spec.versions.forEach((v, i) => {
      if (v.schema?.openAPIV3Schema === undefined) errs.push(required(child(index(child(path, 'versions'), i), 'schema', 'openAPIV3Schema'), 'schemas are required'));
    });
  }

  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  spec.versions.forEach((v, i) => {
    if (v.storage) storageCount++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const vPath = index(child(path, 'versions'), i);
    const nameProblems = isDNS1035Label(v.name);
    if (nameProblems.length > 0) errs.push(invalid(child(vPath, 'name'), v.name, nameProblems.join(',')));
    const subresources = v.subresources ?? spec.subresources;
    errs.push(...validateVersion(v, vPath, subresources?.status !== undefined, spec));
  });
  const versionsValue = JSON.stringify(spec.versions.map((v) => v.name));
  if (!unique) errs.push(invalidGo(child(path, 'versions'), versionsValue, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalidGo(child(path, 'versions'), versionsValue, 'must have exactly one version marked as storage version'));

  if (spec.names.plural === '') errs.push(required(child(path, 'names', 'plural')));
  if ((spec.names.singular ?? '') === '') errs.push(required(child(path, 'names', 'singular')));
  if (spec.names.kind === '') errs.push(required(child(path, 'names', 'kind')));
  if ((spec.names.listKind ?? '') === '') errs.push(required(child(path, 'names', 'listKind')));
  errs.push(...validateNames(spec.names, child(path, 'names')));

  const anyStatus = spec.subresources?.status !== undefined || spec.versions.some((v) => v.subresources?.status !== undefined);
  errs.push(...validateValidation(spec.validation, anyStatus, child(path, 'validation')));
  errs.push(...validateSubresources(spec.subresources, child(path, 'subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c, index(child(path, 'additionalPrinterColumns'), i))));
  if ((spec.selectableFields ?? []).length > 0) {
    // Shared selectable fields with per-version schemas hold for every version's schema (kube
    // checks only a shared schema, and would reject this CRD outright).
    const schemas =
      spec.validation?.openAPIV3Schema !== undefined ? [spec.validation.openAPIV3Schema] : spec.versions.flatMap((v) => (v.schema?.openAPIV3Schema !== undefined ? [v.schema.openAPIV3Schema] : []));
    if (schemas.length === 0) errs.push(invalid(child(path, 'selectableFields'), '', 'may only be set when validations.schema is included'));
    const seen = new Set<string>();
    for (const schema of schemas) {
      for (const e of validateSelectableFields(spec.selectableFields ?? [], schema, child(path, 'selectableFields'))) {
        const text = `${e.field} ${e.detail}`;
        if (!seen.has(text)) errs.push(e);
        seen.add(text);
      }
    }
  }
  if (spec.conversion !== undefined && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields === true) {
    errs.push(invalid(child(path, 'conversion', 'strategy'), spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, opts, child(path, 'conversion')));
  return errs;
}

function validateVersion(v: InternalVersion, path: string, statusEnabled: boolean, spec: InternalSpec): FieldError[] {
  const errs: FieldError[] = [];
  for (const problem of deprecationWarningProblems(v)) errs.push(invalid(child(path, 'deprecationWarning'), v.deprecationWarning ?? null, problem));
  errs.push(...validateValidation(v.schema, statusEnabled, child(path, 'schema')));
  errs.push(...validateSubresources(v.subresources, child(path, 'subresources')));
  (v.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c, index(child(path, 'additionalPrinterColumns'), i))));
  if ((v.selectableFields ?? []).length > 0) {
    const schema = v.schema?.openAPIV3Schema ?? spec.validation?.openAPIV3Schema;
    if (schema === undefined) errs.push(invalid(child(path, 'selectableFields'), '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    else errs.push(...validateSelectableFields(v.selectableFields ?? [], schema, child(path, 'selectableFields')));
  }
  return errs;
}

function deprecationWarningProblems(v: InternalVersion): string[] {
  const w = v.deprecationWarning;
  if (!v.deprecated && w !== undefined) return ['can only be set for deprecated versions'];
  if (w === undefined) return [];
  const problems: string[] = [];
  if (Buffer.byteLength(w) > 256) problems.push('must be <= 256 characters long');
  if (w.length === 0) problems.push('must not be an empty string');
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f]/.exec(w);
  if (control !== null) problems.push(`must only contain printable UTF-8 characters; non-printable character found at index ${Buffer.byteLength(w.slice(0, control.index))}`);
  return problems;
}

/** ValidateCustomResourceDefinitionNames. */
function validateNames(names: CustomResourceDefinitionNames, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const label = (value: string | undefined, field: string, lower: boolean): void => {
    if (value === undefined || value === '') return;
    const problems = isDNS1035Label(lower ? value.toLowerCase() : value);
    if (problems.length > 0) errs.push(invalid(child(path, field), value, `${lower ? 'may have mixed case, but should otherwise match: ' : ''}${problems.join(',')}`));
  };
  label(names.plural, 'plural', false);
  label(names.singular, 'singular', false);
  label(names.kind, 'kind', true);
  label(names.listKind, 'listKind', true);
  (names.shortNames ?? []).forEach((s, i) => {
    const problems = isDNS1035Label(s);
    if (problems.length > 0) errs.push(invalid(index(child(path, 'shortNames'), i), s, problems.join(',')));
  });
  if ((names.kind ?? '') !== '' && names.kind === names.listKind) errs.push(invalid(child(path, 'listKind'), names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => {
    const problems = isDNS1035Label(c);
    if (problems.length > 0) errs.push(invalid(index(child(path, 'categories'), i), c, problems.join(',')));
  });
  return errs;
}

/** ValidateCustomResourceColumnDefinition. */
function validateColumn(c: CustomResourceColumnDefinition, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if ((c.name ?? '') === '') errs.push(required(child(path, 'name')));
  const types = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if ((c.type ?? '') === '') errs.push(required(child(path, 'type'), types));
  else if (!PRINTER_COLUMN_TYPES.includes(c.type)) errs.push(invalid(child(path, 'type'), c.type, types));
  if ((c.format ?? '') !== '' && !PRINTER_COLUMN_FORMATS.includes(c.format ?? '')) {
    errs.push(invalid(child(path, 'format'), c.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  }
  if ((c.jsonPath ?? '') === '') errs.push(required(child(path, 'JSONPath')));
  else errs.push(...simpleJSONPath(c.jsonPath, child(path, 'JSONPath')));
  return errs;
}

/** ValidateCustomResourceDefinitionSubresources. */
function validateSubresources(sub: CustomResourceSubresources | undefined, path: string): FieldError[] {
  const scale = sub?.scale;
  if (scale === undefined) return [];
  const errs: FieldError[] = [];
  const under = (value: string, field: string, prefixes: readonly string[], detail: string): void => {
    const at = child(path, field);
    const simple = simpleJSONPath(value, at);
    if (simple.length > 0) errs.push(...simple);
    else if (!prefixes.some((p) => value.startsWith(p))) errs.push(invalid(at, value, detail));
  };
  if ((scale.specReplicasPath ?? '') === '') errs.push(required(child(path, 'scale.specReplicasPath')));
  else under(scale.specReplicasPath, 'scale.specReplicasPath', ['.spec.'], 'should be a json path under .spec');
  if ((scale.statusReplicasPath ?? '') === '') errs.push(required(child(path, 'scale.statusReplicasPath')));
  else under(scale.statusReplicasPath, 'scale.statusReplicasPath', ['.status.'], 'should be a json path under .status');
  if ((scale.labelSelectorPath ?? '') !== '') {
    under(scale.labelSelectorPath ?? '', 'scale.labelSelectorPath', ['.spec.', '.status.'], 'should be a json path under either .spec or .status');
  }
  return errs;
}

function simpleJSONPath(s: string, path: string): FieldError[] {
  if (s === '') return [invalid(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceSelectableFields. */
function validateSelectableFields(fields: readonly SelectableField[], schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = child(index(path, i), 'jsonPath');
    if ((f.jsonPath ?? '') === '') {
      errs.push(required(at));
      return;
    }
    const resolved = validFieldPath(f.jsonPath, schema, false);
    if (resolved.error !== undefined) {
      errs.push(invalid(at, f.jsonPath, `is an invalid path: ${resolved.error}`));
      return;
    }
    const p = resolved.path ?? '';
    if (p.split(/[.[]/)[0] === 'metadata') errs.push(invalid(at, f.jsonPath, 'must not point to fields in metadata'));
    const type = resolved.schema?.type;
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      errs.push(invalid(at, f.jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(p)) errs.push(duplicate(at, f.jsonPath));
    else unique.add(p);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(stored: readonly string[], versions: readonly InternalVersion[]): FieldError[] {
  const path = 'status.storedVersions';
  if (stored.length === 0) return [invalidGo(path, goStrings(stored), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    if (v.storage && !remaining.has(v.name)) errs.push(invalidGo(path, goStrings(stored), `must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining) {
    errs.push(
      invalid(
        index(path, i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

const APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';
const APPROVAL_URL = 'https://github.com/kubernetes/enhancements/pull/1111';

/** validateAPIApproval: groups under k8s.io and kubernetes.io need the approval annotation. */
function validateAPIApproval(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  const group = crd.spec?.group ?? '';
  const isProtected = ['k8s.io', 'kubernetes.io'].some((d) => group === d || group.endsWith(`.${d}`));
  if (!isProtected) return [];
  const state = approvalState(crd.metadata?.annotations?.[APPROVAL_ANNOTATION]);
  if (old !== undefined && approvalState(old.metadata?.annotations?.[APPROVAL_ANNOTATION]).state === state.state) return [];
  const at = key('metadata.annotations', APPROVAL_ANNOTATION);
  if (state.state === 'missing') return [required(at, state.reason)];
  if (state.state === 'invalid') return [invalid(at, crd.metadata?.annotations?.[APPROVAL_ANNOTATION] ?? '', state.reason)];
  return [];
}

function approvalState(value: string | undefined): { state: 'missing' | 'invalid' | 'approved' | 'bypassed'; reason: string } {
  if (value === undefined) return { state: 'missing', reason: `protected groups must have approval annotation ${JSON.stringify(APPROVAL_ANNOTATION)}, see ${APPROVAL_URL}` };
  if (value.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: ${JSON.stringify(value)}` };
  try {
    const u = new URL(value);
    if (u.protocol === 'http:' || u.protocol === 'https:') return { state: 'approved', reason: `approved in ${value}` };
  } catch {
    // not a URL: invalid below
  }
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation ${JSON.stringify(APPROVAL_ANNOTATION)} with either a URL or a reason starting with "unapproved", see ${APPROVAL_URL}`,
  };
}

/** v1 CRDs may not turn preserveUnknownFields on. */
function validatePreserveUnknownFields(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  if (crd.spec?.preserveUnknownFields === true && old?.spec.preserveUnknownFields !== true) {
    return [invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

function enumString(path: string, value: string, accepted: readonly string[]): FieldError[] {
  if (value === '') return [required(path)];
  return accepted.includes(value) ? [] : [notSupported(path, value, accepted)];
}

function immutable(value: unknown, old: unknown, path: string): FieldError[] {
  return isDeepStrictEqual(value, old) ? [] : [invalid(path, value, 'field is immutable')];
}
