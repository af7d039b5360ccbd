import type { int32, UID } from './scalars.js';
import type { ListMeta, TypeMeta } from './types.js';

/**
 * A machine-readable reason for a failure, such as NotFound, AlreadyExists,
 * Conflict, Invalid, Expired or TooManyRequests. Each reason maps to one HTTP
 * status code; clients must tolerate reasons they do not know.
 */
export type StatusReason = string;

/**
 * A machine-readable cause of one error in a Status, such as
 * FieldValueInvalid, FieldValueRequired, FieldValueDuplicate or
 * FieldManagerConflict; the set is open-ended.
 */
export type CauseType = string;

/** The result of a call that returns no other object, most often an error (kind Status, apiVersion v1). */
export interface Status extends TypeMeta {
  /**
   * Standard list metadata.
   *
   * @protobuf 1
   */
  metadata?: ListMeta;
  /**
   * `Success` or `Failure`.
   *
   * @protobuf 2
   */
  status?: string;
  /**
   * A human-readable description of the outcome.
   *
   * @protobuf 3
   */
  message?: string;
  /**
   * Why the operation failed; empty means no reason is known. It refines the HTTP code but never overrides it.
   *
   * @protobuf 4
   */
  reason?: StatusReason;
  /**
   * Extra data for the reason; its attributes depend on the reason and may be missing.
   *
   * @protobuf 5 pointer
   */
  details?: StatusDetails;
  /**
   * The suggested HTTP status code; 0 if unset.
   *
   * @protobuf 6
   */
  code?: int32;
}

/** Additional facts about a failure; which attributes are set depends on Status.reason. */
export interface StatusDetails {
  /**
   * The name of the resource involved, when there is a single one.
   *
   * @protobuf 1
   */
  name?: string;
  /**
   * The API group of the resource involved.
   *
   * @protobuf 2
   */
  group?: string;
  /**
   * The kind (or, for some errors, the resource) involved; may differ from the kind requested.
   *
   * @protobuf 3
   */
  kind?: string;
  /**
   * The UID of the resource involved, when there is a single one.
   *
   * @protobuf 6
   */
  uid?: UID;
  /**
   * Individual causes of the failure, for example one per invalid field.
   *
   * @listType atomic
   *
   * @protobuf 4
   */
  causes?: StatusCause[];
  /**
   * Seconds to wait before retrying, or before taking the alternative action the error calls for.
   *
   * @protobuf 5
   */
  retryAfterSeconds?: int32;
}

/** One cause of a failure; a field may appear in several causes. */
export interface StatusCause {
  /**
   * What went wrong, machine-readable; empty means unknown. Serialized as `reason`.
   *
   * @protobuf 1
   */
  reason?: CauseType;
  /**
   * A human-readable description of the cause.
   *
   * @protobuf 2
   */
  message?: string;
  /**
   * The JSON path of the offending field, such as `spec.ports[0].port`.
   *
   * @protobuf 3
   */
  field?: string;
}
