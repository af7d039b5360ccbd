import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../runtime/apimachinery/validation/names.js';
import type { Event } from './types.js';

/** kube's limits on the fields of Events with an eventTime (pkg/apis/core/validation/events.go). */
const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;

const NAMESPACE_DEFAULT = 'default';
const NAMESPACE_SYSTEM = 'kube-system';

/** A metav1.Time or MicroTime as sent: absent, null and empty are Go's zero time. */
export function isZeroTime(t: string | null | undefined): boolean {
  return t === undefined || t === null || t === '';
}

/**
 * kube's ValidateEventCreate and ValidateEventUpdate for requests in core/v1: only
 * legacyValidateEvent applies there, for compatibility with old clients (the strict checks of
 * events.k8s.io/v1, and the immutability of an updated Event's fields, are for that API alone).
 * An Event without an eventTime (an old client's) must name its own namespace, or none when the
 * Event is in `default`; one with an eventTime must carry the reporting fields.
 */
export function legacyValidateEvent(event: Event): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = event.metadata?.namespace ?? '';
  const involvedNamespace = event.involvedObject?.namespace ?? '';
  const mismatch = (): FieldError => ({ type: 'FieldValueInvalid', field: 'involvedObject.namespace', badValue: involvedNamespace, detail: 'does not match event.namespace' });
  if (isZeroTime(event.eventTime)) {
    if (involvedNamespace === '') {
      if (namespace !== '' && namespace !== NAMESPACE_DEFAULT) errs.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (involvedNamespace === '' && namespace !== NAMESPACE_DEFAULT && namespace !== NAMESPACE_SYSTEM) errs.push(mismatch());
    const controller = event.reportingComponent ?? '';
    if (controller === '') errs.push(required('reportingController'));
    for (const msg of isQualifiedName(controller)) errs.push({ type: 'FieldValueInvalid', field: 'reportingController', badValue: controller, detail: msg });
    errs.push(...requiredWithin('reportingInstance', event.reportingInstance, REPORTING_INSTANCE_LENGTH_LIMIT));
    errs.push(...requiredWithin('action', event.action, ACTION_LENGTH_LIMIT));
    errs.push(...requiredWithin('reason', event.reason, REASON_LENGTH_LIMIT));
    if (Buffer.byteLength(event.message ?? '') > NOTE_LENGTH_LIMIT) errs.push(tooLong('message', NOTE_LENGTH_LIMIT));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push({ type: 'FieldValueInvalid', field: 'namespace', badValue: namespace, detail: msg });
  return errs;
}

const required = (field: string): FieldError => ({ type: 'FieldValueRequired', field, detail: '' });
// kube reports these with an empty value, not the long one.
const tooLong = (field: string, limit: number): FieldError => ({ type: 'FieldValueInvalid', field, badValue: '', detail: `can have at most ${limit} characters` });

function requiredWithin(field: string, value: string | undefined, limit: number): FieldError[] {
  const v = value ?? '';
  if (v === '') return [required(field)];
  return Buffer.byteLength(v) > limit ? [tooLong(field, limit)] : [];
}
