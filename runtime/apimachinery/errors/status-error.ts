import type { Status, StatusCause } from '../../../apis/meta/v1/status.js';

/** The Status reasons kube-apiserver uses (k8s.io/apimachinery/pkg/apis/meta/v1 StatusReason*). */
export type StatusReason =
  | ''
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StoreReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable';

/**
 * A failure Status as it travels on the wire: every field the apiserver always emits is present;
 * `reason` is absent when unknown, as Go's omitempty leaves it out.
 */
export interface FailureStatus extends Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string };
  status: 'Failure';
  message: string;
  reason?: StatusReason;
  code: number;
}

/**
 * An error that carries the Status the client receives (apierrors.StatusError). Every
 * constructor in ./catalog.ts returns one; the single error writer in the server serializes
 * `status` unchanged, so handlers never build error bodies.
 */
export class StatusError extends Error {
  override readonly name = 'StatusError';

  constructor(
    readonly status: FailureStatus,
    options?: { cause?: unknown },
  ) {
    super(status.message, options);
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason {
    return this.status.reason ?? '';
  }

  get causes(): readonly StatusCause[] {
    return this.status.details?.causes ?? [];
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

/** The reason of a StatusError, '' for anything else (apierrors.ReasonForError). */
export function reasonForError(err: unknown): StatusReason {
  return isStatusError(err) ? err.reason : '';
}

/** Reasons of this catalog; a reason outside it is treated as unknown and the HTTP code decides (apierrors.knownReasons). */
const KNOWN_REASONS: ReadonlySet<string> = new Set<StatusReason>([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'StoreReadError',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
]);

/**
 * True when the error has `reason`, or has an unknown reason and the HTTP `code` (a Status from
 * an older or foreign server, or a bare HTTP answer turned into a Status by a client).
 */
function reasonOrCode(err: unknown, reason: StatusReason, code: number): boolean {
  if (!isStatusError(err)) return false;
  return err.reason === reason || (!KNOWN_REASONS.has(err.reason) && err.code === code);
}

export const isNotFound = (err: unknown): boolean => reasonOrCode(err, 'NotFound', 404);
export const isAlreadyExists = (err: unknown): boolean => reasonForError(err) === 'AlreadyExists';
export const isConflict = (err: unknown): boolean => reasonOrCode(err, 'Conflict', 409);
export const isInvalid = (err: unknown): boolean => reasonOrCode(err, 'Invalid', 422);
export const isBadRequest = (err: unknown): boolean => reasonOrCode(err, 'BadRequest', 400);
export const isUnauthorized = (err: unknown): boolean => reasonOrCode(err, 'Unauthorized', 401);
export const isForbidden = (err: unknown): boolean => reasonOrCode(err, 'Forbidden', 403);
export const isMethodNotSupported = (err: unknown): boolean => reasonOrCode(err, 'MethodNotAllowed', 405);
/** Throttled: the reason, or any Status with code 429 whatever its reason. */
export const isTooManyRequests = (err: unknown): boolean => reasonForError(err) === 'TooManyRequests' || (isStatusError(err) && err.code === 429);
export const isServiceUnavailable = (err: unknown): boolean => reasonOrCode(err, 'ServiceUnavailable', 503);
/** The server gave up waiting (504 Timeout); the request may still complete. */
export const isTimeout = (err: unknown): boolean => reasonOrCode(err, 'Timeout', 504);
/** The storage could not answer in time (500 ServerTimeout); retrying is safe. */
export const isServerTimeout = (err: unknown): boolean => reasonForError(err) === 'ServerTimeout';
/** The deprecated generic 410 Gone. */
export const isGone = (err: unknown): boolean => reasonOrCode(err, 'Gone', 410);
/** Expired (too old resourceVersion or continue token) or the deprecated generic Gone. */
export const isResourceExpired = (err: unknown): boolean => reasonForError(err) === 'Expired' || reasonForError(err) === 'Gone';
export const isNotAcceptable = (err: unknown): boolean => reasonOrCode(err, 'NotAcceptable', 406);
export const isUnsupportedMediaType = (err: unknown): boolean => reasonOrCode(err, 'UnsupportedMediaType', 415);
export const isRequestEntityTooLargeError = (err: unknown): boolean => reasonOrCode(err, 'RequestEntityTooLarge', 413);
export const isInternalError = (err: unknown): boolean => reasonOrCode(err, 'InternalError', 500);
export const isStoreReadError = (err: unknown): boolean => reasonForError(err) === 'StoreReadError';
/** The answer was not a Status (a proxy's page, an empty body): the client built this error from the HTTP code. */
export const isUnexpectedServerError = (err: unknown): boolean => isStatusError(err) && err.causes.some((c) => c.reason === 'UnexpectedServerResponse');

/** Seconds the server asked the client to wait before retrying (ServerTimeout, or any Retry-After in the details); undefined when it did not. */
export function suggestsClientDelay(err: unknown): number | undefined {
  if (!isStatusError(err) || err.status.details === undefined) return undefined;
  const seconds = err.status.details.retryAfterSeconds ?? 0;
  return err.reason === 'ServerTimeout' || seconds > 0 ? seconds : undefined;
}
