import { InterpretableError, type ErrorTarget, type StatusError } from '../apimachinery/errors/index.js';
import type { Status } from '../apimachinery/object.js';
import { interpretStorageError } from './interpret.js';

/**
 * Typed storage errors, as k8s.io/apiserver/pkg/storage/errors.go plus the apierrors the
 * storage layer returns (Expired, TooLargeResourceVersion, BadRequest, TooManyRequests).
 * Every error carries a `code` discriminant so the REST layer can switch on it and build
 * the matching Status; `httpCode` is the status code kube-apiserver answers with.
 */
export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'ResourceVersionConflicts'
  | 'InvalidObj'
  | 'Unreachable'
  | 'Timeout'
  | 'CorruptObj'
  | 'InternalError'
  | 'Expired'
  | 'TooLargeResourceVersion'
  | 'BadRequest'
  | 'TooManyRequests'
  | 'ResourceVersionSetOnCreate'
  | 'InvalidKey';

/**
 * The text of every storage error, in k8s.io/apiserver's StorageError format (Error()), so logs
 * and the messages that carry it (a Conflict on update or delete) read as kube-apiserver's; an
 * error without an additional message prints Go's `%v` of a nil error, `<nil>`.
 */
function storageErrorMessage(e: { what: string; code: number; key: string; resourceVersion?: number; detail?: string }): string {
  return `StorageError: ${e.what}, Code: ${e.code}, Key: ${e.key}, ResourceVersion: ${e.resourceVersion ?? 0}, AdditionalErrorMsg: ${e.detail ?? '<nil>'}`;
}

export abstract class StorageError extends InterpretableError {
  abstract readonly code: StorageErrorCode;
  abstract readonly httpCode: number;
  /** The Status reason kube-apiserver reports for this error. */
  abstract readonly reason: string;

  /** The Status a request against `target` answers with (storage.Interpret*Error). */
  interpret(target: ErrorTarget): StatusError {
    return interpretStorageError(this, target);
  }

  /** A Status object for ERROR watch events and error bodies. */
  toStatus(): Status {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, code: this.httpCode };
  }
}

/** The key does not exist (404 NotFound). */
export class KeyNotFoundError extends StorageError {
  readonly code = 'KeyNotFound';
  readonly httpCode = 404;
  readonly reason = 'NotFound';
  override readonly name = 'KeyNotFoundError';
  constructor(
    readonly key: string,
    readonly resourceVersion = 0,
  ) {
    super(storageErrorMessage({ what: 'key not found', code: 1, key, resourceVersion }));
  }
}

/** Create found the key already present (409 AlreadyExists). */
export class KeyExistsError extends StorageError {
  readonly code = 'KeyExists';
  readonly httpCode = 409;
  readonly reason = 'AlreadyExists';
  override readonly name = 'KeyExistsError';
  constructor(
    readonly key: string,
    readonly resourceVersion = 0,
  ) {
    super(storageErrorMessage({ what: 'key exists', code: 2, key, resourceVersion }));
  }
}

/** An optimistic-concurrency write lost the race (409 Conflict). */
export class ResourceVersionConflictsError extends StorageError {
  readonly code = 'ResourceVersionConflicts';
  readonly httpCode = 409;
  readonly reason = 'Conflict';
  override readonly name = 'ResourceVersionConflictsError';
  constructor(
    readonly key: string,
    readonly resourceVersion = 0,
  ) {
    super(storageErrorMessage({ what: 'resource version conflicts', code: 3, key, resourceVersion }));
  }
}

/**
 * A precondition failed, or an unsafe delete found a decodable object (409). The Conflict an
 * update or delete answers with carries the whole StorageError text (InterpretUpdateError and
 * InterpretDeleteError wrap the error itself), `additionalErrorMsg` being only its last part.
 */
export class InvalidObjError extends StorageError {
  readonly code = 'InvalidObj';
  readonly httpCode = 409;
  readonly reason = 'Conflict';
  override readonly name = 'InvalidObjError';
  constructor(
    readonly key: string,
    readonly additionalErrorMsg: string,
  ) {
    super(storageErrorMessage({ what: 'invalid object', code: 4, key, detail: additionalErrorMsg }));
  }
}

/** The backend cannot be reached; the outcome of a write that got this error is unknown (503). */
export class UnreachableError extends StorageError {
  readonly code = 'Unreachable';
  readonly httpCode = 503;
  readonly reason = 'ServiceUnavailable';
  override readonly name = 'UnreachableError';
  constructor(
    readonly key: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(storageErrorMessage({ what: 'server unreachable', code: 5, key, detail }), options);
  }
}

/** The request did not complete in time; a write's outcome is unknown (504). */
export class TimeoutError extends StorageError {
  readonly code = 'Timeout';
  readonly httpCode = 504;
  readonly reason = 'Timeout';
  override readonly name = 'TimeoutError';
  constructor(
    readonly key: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(storageErrorMessage({ what: 'request timeout', code: 6, key, detail }), options);
  }
}

/** Stored data that cannot be transformed or decoded; candidates for unsafe deletion (500). */
export class CorruptObjError extends StorageError {
  readonly code = 'CorruptObj';
  readonly httpCode = 500;
  readonly reason = 'InternalError';
  override readonly name = 'CorruptObjError';
  constructor(
    readonly key: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(storageErrorMessage({ what: 'corrupt object', code: 7, key, detail }), options);
  }
}

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** An error inside the storage layer itself, e.g. a value transformer failing (500). */
export class InternalError extends StorageError {
  readonly code = 'InternalError';
  readonly httpCode = 500;
  readonly reason = 'InternalError';
  override readonly name = 'InternalError';
  constructor(message: string, options?: { cause?: unknown; causes?: readonly StatusCause[] }) {
    super(message, options);
    this.causes = options?.causes ?? [];
  }
  readonly causes: readonly StatusCause[];
  override toStatus(): Status {
    const s = super.toStatus();
    s.message = `Internal error occurred: ${this.message}`;
    if (this.causes.length > 0) s.details = { causes: [...this.causes] };
    return s;
  }
}

/** 410 Gone: the requested revision was compacted. May carry a continue token to resume inconsistently. */
export class ExpiredError extends StorageError {
  readonly code = 'Expired';
  readonly httpCode = 410;
  readonly reason = 'Expired';
  override readonly name = 'ExpiredError';
  constructor(
    message: string,
    readonly continueToken?: string,
  ) {
    super(message);
  }
  override toStatus(): Status {
    const s = super.toStatus();
    if (this.continueToken) s.metadata = { continue: this.continueToken };
    return s;
  }
}

/**
 * 504 with a ResourceVersionTooLarge cause: the storage has not reached the requested revision.
 * kube makes it with apierrors.NewTimeoutError, whose message starts `Timeout: `.
 */
export class TooLargeResourceVersionError extends StorageError {
  readonly code = 'TooLargeResourceVersion';
  readonly httpCode = 504;
  readonly reason = 'Timeout';
  override readonly name = 'TooLargeResourceVersionError';
  constructor(
    readonly minimumResourceVersion: number,
    readonly currentRevision: number,
    readonly retryAfterSeconds = 1,
  ) {
    super(`Timeout: Too large resource version: ${minimumResourceVersion}, current: ${currentRevision}`);
  }
  override toStatus(): Status {
    const s = super.toStatus();
    s.details = {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: this.retryAfterSeconds,
    };
    return s;
  }
}

/** 400: invalid resource version, continue token or option combination. */
export class BadRequestError extends StorageError {
  readonly code = 'BadRequest';
  readonly httpCode = 400;
  readonly reason = 'BadRequest';
  override readonly name = 'BadRequestError';
}

/** 429: the watch cache is not ready (e.g. the backend is down); retry after the given seconds. */
export class TooManyRequestsError extends StorageError {
  readonly code = 'TooManyRequests';
  readonly httpCode = 429;
  readonly reason = 'TooManyRequests';
  override readonly name = 'TooManyRequestsError';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
  override toStatus(): Status {
    const s = super.toStatus();
    s.details = { retryAfterSeconds: this.retryAfterSeconds };
    return s;
  }
}

/** Create was given an object that already has metadata.resourceVersion (500 as in kube). */
export class ResourceVersionSetOnCreateError extends StorageError {
  readonly code = 'ResourceVersionSetOnCreate';
  readonly httpCode = 500;
  readonly reason = 'InternalError';
  override readonly name = 'ResourceVersionSetOnCreateError';
  constructor() {
    super('resourceVersion should not be set on objects to be created');
  }
}

/** A key that is empty, escapes its directory or lies outside the resource prefix (500 as in kube). */
export class InvalidKeyError extends StorageError {
  readonly code = 'InvalidKey';
  readonly httpCode = 500;
  readonly reason = 'InternalError';
  override readonly name = 'InvalidKeyError';
}

export function isStorageError<C extends StorageErrorCode>(err: unknown, code: C): err is Extract<AnyStorageError, { code: C }> {
  return err instanceof StorageError && err.code === code;
}

export type AnyStorageError =
  | KeyNotFoundError
  | KeyExistsError
  | ResourceVersionConflictsError
  | InvalidObjError
  | UnreachableError
  | TimeoutError
  | CorruptObjError
  | InternalError
  | ExpiredError
  | TooLargeResourceVersionError
  | BadRequestError
  | TooManyRequestsError
  | ResourceVersionSetOnCreateError
  | InvalidKeyError;

export const isNotFound = (e: unknown): e is KeyNotFoundError => isStorageError(e, 'KeyNotFound');
export const isExist = (e: unknown): e is KeyExistsError => isStorageError(e, 'KeyExists');
export const isConflict = (e: unknown): e is ResourceVersionConflictsError => isStorageError(e, 'ResourceVersionConflicts');
export const isInvalidObj = (e: unknown): e is InvalidObjError => isStorageError(e, 'InvalidObj');
export const isInternalError = (e: unknown): e is InternalError => isStorageError(e, 'InternalError');
export const isTooLargeResourceVersion = (e: unknown): e is TooLargeResourceVersionError => isStorageError(e, 'TooLargeResourceVersion');
export const isExpired = (e: unknown): e is ExpiredError => isStorageError(e, 'Expired');

/** Status for an arbitrary error surfaced on a watch: typed errors keep their Status, others are 500. */
export function statusForError(err: unknown): Status {
  if (err instanceof StorageError) return err.toStatus();
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', code: 500 };
}

/** The 410 messages kube-apiserver uses, kept verbatim because clients match on them. */
export const expiredMessages = {
  list: 'The resourceVersion for the provided list is too old.',
  watch: 'The resourceVersion for the provided watch is too old.',
  continue:
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
} as const;
