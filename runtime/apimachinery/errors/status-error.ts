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

/** A failure Status as it travels on the wire: every field the apiserver always emits is present. */
export interface FailureStatus extends Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string };
  status: 'Failure';
  message: string;
  reason: StatusReason;
  code: number;
}

/**
 * An error that carries the Status the client receives (apierrors.StatusError). Every
 * constructor in ./catalog.ts returns one; the single error writer in the server serializes
 * `status` unchanged, so handlers never build error bodies.
 */
export class StatusError extends Error {
  override readonly name = 'StatusError';

  constructor(readonly status: FailureStatus, options?: { cause?: unknown }) {
    super(status.message, options);
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason {
    return this.status.reason;
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

export const isNotFound = (err: unknown): boolean => reasonForError(err) === 'NotFound';
export const isAlreadyExists = (err: unknown): boolean => reasonForError(err) === 'AlreadyExists';
export const isConflict = (err: unknown): boolean => reasonForError(err) === 'Conflict';
export const isInvalid = (err: unknown): boolean => reasonForError(err) === 'Invalid';
export const isBadRequest = (err: unknown): boolean => reasonForError(err) === 'BadRequest';
export const isForbidden = (err: unknown): boolean => reasonForError(err) === 'Forbidden';
export const isMethodNotSupported = (err: unknown): boolean => reasonForError(err) === 'MethodNotAllowed';
export const isTooManyRequests = (err: unknown): boolean => reasonForError(err) === 'TooManyRequests';
export const isServiceUnavailable = (err: unknown): boolean => reasonForError(err) === 'ServiceUnavailable';
/** Expired (too old resourceVersion or continue token) or the deprecated generic Gone. */
export const isResourceExpired = (err: unknown): boolean => reasonForError(err) === 'Expired' || reasonForError(err) === 'Gone';
