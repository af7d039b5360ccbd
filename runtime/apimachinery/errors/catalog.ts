import type { StatusCause, StatusDetails } from '../../../apis/meta/v1/status.js';
import { formatFieldError, formatFieldErrorBody, type FieldError } from '../validation/field.js';
import { InterpretableError } from './interpretable.js';
import { StatusError, type FailureStatus, type StatusReason } from './status-error.js';
import { quote } from '../util/strconv.js';

/**
 * The one catalog of API errors (k8s.io/apimachinery/pkg/api/errors). Messages and details
 * are kube-apiserver's word for word, because kubectl prints them as they come
 * (`Error from server (NotFound): apiservices.apiregistration.k8s.io "x" not found`).
 */

/** A resource qualified by its group; `resource.group`, or `resource` for the core group. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** A kind qualified by its group; `Kind.group`, or `Kind` for the core group. */
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

export function groupResourceString(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

export function groupKindString(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails): StatusError {
  // Keys in metav1.Status's field order (details before code), so the JSON reads as kube's.
  const status: FailureStatus = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(reason !== '' ? { reason } : {}),
    ...(details !== undefined ? { details } : {}),
    code,
  };
  return new StatusError(status);
}

function resourceDetails(gr: GroupResource, name: string, extra?: Partial<StatusDetails>): StatusDetails {
  const details: StatusDetails = {};
  if (name !== '') details.name = name;
  if (gr.group !== '') details.group = gr.group;
  if (gr.resource !== '') details.kind = gr.resource;
  return { ...details, ...extra };
}

export function newNotFound(gr: GroupResource, name: string): StatusError {
  return failure(404, 'NotFound', `${groupResourceString(gr)} ${quote(name)} not found`, resourceDetails(gr, name));
}

/** A path no server of the chain serves (the delegation chain's end, and unknown discovery paths). */
export function newPathNotFound(): StatusError {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return failure(409, 'AlreadyExists', `${groupResourceString(gr)} ${quote(name)} already exists`, resourceDetails(gr, name));
}

/** generateName ran out of retries: the client may try again later. */
export function newGenerateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
  return failure(
    409,
    'AlreadyExists',
    `${groupResourceString(gr)} ${quote(name)} already exists, the server was not able to generate a unique name for the object`,
    resourceDetails(gr, name, { retryAfterSeconds }),
  );
}

/** The object has been modified since the client read it (stale resourceVersion or failed precondition). */
export function newConflict(gr: GroupResource, name: string, reason: string): StatusError {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${groupResourceString(gr)} ${quote(name)}: ${reason}`, resourceDetails(gr, name));
}

export const OPTIMISTIC_LOCK_ERROR_MSG = 'the object has been modified; please apply your changes to the latest version and try again';

/** 422 with one cause per field error; details.kind is the Kind, not the resource. */
export function newInvalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
  const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: formatFieldErrorBody(e), field: e.field }));
  const messages = [...new Set(errs.map(formatFieldError))];
  const aggregate = messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
  const details: StatusDetails = {
    ...(name !== '' ? { name } : {}),
    ...(gk.group !== '' ? { group: gk.group } : {}),
    ...(gk.kind !== '' ? { kind: gk.kind } : {}),
    ...(causes.length > 0 ? { causes } : {}),
  };
  // No errors at all (a strategy refusing without a field): no aggregate to print.
  const message = messages.length === 0 ? `${groupKindString(gk)} ${quote(name)} is invalid` : `${groupKindString(gk)} ${quote(name)} is invalid: ${aggregate}`;
  return failure(422, 'Invalid', message, details);
}

/** A server-side apply that would take fields other managers own (NewApplyConflict): 409 with one cause per field. */
export function newApplyConflict(causes: StatusCause[], message: string): StatusError {
  return failure(409, 'Conflict', message, { causes });
}

export function newBadRequest(message: string): StatusError {
  return failure(400, 'BadRequest', message);
}

export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${quote(groupResourceString(gr))}`, resourceDetails(gr, ''));
}

export function newNotAcceptable(accepted: readonly string[]): StatusError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 406 with a message of its own: the transformation asked for (Table, PartialObjectMetadata) is not possible. */
export function newNotAcceptableMessage(message: string): StatusError {
  return failure(406, 'NotAcceptable', message);
}

/**
 * NewGenericServerResponse for 422: kube's fixed message, the underlying error as the single
 * UnexpectedServerResponse cause (a JSON patch that cannot be applied).
 */
export function newUnprocessableEntity(serverMessage: string): StatusError {
  return failure(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: 'UnexpectedServerResponse', message: serverMessage }],
  });
}

export function newUnsupportedMediaType(accepted: readonly string[]): StatusError {
  return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

export function newForbidden(gr: GroupResource, name: string, reason: string, causes?: StatusCause[]): StatusError {
  const what = gr.group === '' && gr.resource === '' ? 'forbidden' : name === '' ? `${groupResourceString(gr)} is forbidden` : `${groupResourceString(gr)} ${quote(name)} is forbidden`;
  return failure(403, 'Forbidden', `${what}: ${reason}`, resourceDetails(gr, name, causes ? { causes } : undefined));
}

export function newUnauthorized(reason = ''): StatusError {
  return failure(401, 'Unauthorized', reason === '' ? 'Unauthorized' : reason);
}

export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return failure(429, 'TooManyRequests', message, { retryAfterSeconds });
}

/**
 * NewGenericServerResponse as the patch handler uses it (no verb, resource or name): the
 * code's generic message, e.g. 422 `the server rejected our request due to an error in our
 * request` (reason Invalid, details `{}`); the server message itself is dropped, as kube does,
 * except for 403/406/415 where it is the message.
 */
export function newGenericServerResponse(code: number, serverMessage = ''): StatusError {
  const generic: Record<number, [StatusReason, string]> = {
    400: ['BadRequest', 'the server rejected our request for an unknown reason'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', serverMessage],
    404: ['NotFound', 'the server could not find the requested resource'],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    406: ['NotAcceptable', serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage],
    409: ['Conflict', 'the server reported a conflict'],
    415: ['UnsupportedMediaType', serverMessage],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  const fallback: [StatusReason, string] =
    code >= 500
      ? ['InternalError', `an error on the server (${quote(serverMessage)}) has prevented the request from succeeding`]
      : ['', `the server responded with the status code ${code} but did not return more information`];
  const [reason, message] = generic[code] ?? fallback;
  return failure(code, reason, message, {});
}

export function newRequestEntityTooLarge(message: string): StatusError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

export function newResourceExpired(message: string): StatusError {
  return failure(410, 'Expired', message);
}

export function newServiceUnavailable(message: string): StatusError {
  return failure(503, 'ServiceUnavailable', message);
}

/** The request did not finish within its deadline (504). */
export function newTimeoutError(message: string, retryAfterSeconds = 0): StatusError {
  return failure(504, 'Timeout', `Timeout: ${message}`, retryAfterSeconds > 0 ? { retryAfterSeconds } : undefined);
}

/** The storage could not complete the operation in time; the client may retry (500 ServerTimeout). */
export function newServerTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  return failure(
    500,
    'ServerTimeout',
    `The ${operation} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`,
    resourceDetails(gr, '', { retryAfterSeconds }),
  );
}

export function newInternalError(err: unknown): StatusError {
  const message = err instanceof Error ? err.message : String(err);
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/**
 * Any error as the StatusError the client receives (ErrorToAPIStatus): StatusErrors unchanged,
 * errors of lower layers (storage) as they interpret themselves against the target, and anything
 * else as a 500 with an empty reason.
 */
export function toStatusError(err: unknown, target?: { gr: GroupResource; name: string; operation?: string }): StatusError {
  if (err instanceof StatusError) return err;
  if (err instanceof InterpretableError) return err.interpret({ gr: target?.gr ?? { group: '', resource: '' }, name: target?.name ?? '', operation: target?.operation ?? 'request' });
  return failure(500, '', err instanceof Error ? err.message : String(err));
}
