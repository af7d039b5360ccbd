/**
 * Options of the standard REST verbs, sent as query parameters (and, for
 * delete, optionally as the request body). The typed clients take them as
 * their options argument.
 */
import type { int64, UID } from './scalars.js';
import type { TypeMeta } from './types.js';

/** How resourceVersion is applied to a list: `NotOlderThan` (at least as new) or `Exact`. */
export type ResourceVersionMatch = 'NotOlderThan' | 'Exact';

/** Query options of list and watch calls. */
export interface ListOptions extends TypeMeta {
  /** Restricts the result to objects whose labels match; defaults to everything. */
  labelSelector?: string;
  /** Restricts the result to objects whose fields match; defaults to everything. */
  fieldSelector?: string;
  /** Stream add, update and delete notifications instead of returning a list. */
  watch?: boolean;
  /** Ask for BOOKMARK events on a watch; servers may ignore it and send them whenever they like. */
  allowWatchBookmarks?: boolean;
  /** Constrains which resource versions the request may be served from; unset means the latest. */
  resourceVersion?: string;
  /** How resourceVersion is applied to a list call; recommended whenever resourceVersion is set. */
  resourceVersionMatch?: ResourceVersionMatch;
  /** An upper bound on the duration of the call, regardless of activity. */
  timeoutSeconds?: int64;
  /** The maximum number of items to return; when more exist, the list's metadata carries a continue token. Not supported with watch. */
  limit?: int64;
  /** The token from a previous chunk, to retrieve the next one with otherwise identical parameters. Expired tokens yield 410. */
  continue?: string;
  /**
   * With watch=true, begin the stream with synthetic events for the current state, then a bookmark annotated `k8s.io/initial-events-end`.
   * Requires resourceVersionMatch=NotOlderThan.
   */
  sendInitialEvents?: boolean;
}

/** Query options of get calls. */
export interface GetOptions extends TypeMeta {
  /** Constrains which resource versions the request may be served from; unset means the latest. */
  resourceVersion?: string;
}

/** Whether and how the garbage collector deletes the dependents of a deleted object. */
export type DeletionPropagation = 'Orphan' | 'Background' | 'Foreground';

/** Conditions the stored object must meet before an operation is carried out. */
export interface Preconditions {
  /**
   * The UID the object must have.
   *
   * @protobuf 1 pointer
   */
  uid?: UID;
  /**
   * The resourceVersion the object must have.
   *
   * @protobuf 2 pointer
   */
  resourceVersion?: string;
}

/**
 * Options of delete and deletecollection calls.
 *
 * @validation rule="!has(self.orphanDependents) || !has(self.propagationPolicy)" message="orphanDependents and propagationPolicy cannot both be set" fieldPath=".propagationPolicy" reason=FieldValueInvalid
 */
export interface DeleteOptions extends TypeMeta {
  /**
   * Seconds before the object is deleted; 0 deletes immediately, unset uses the kind's default.
   *
   * @protobuf 1 pointer
   */
  gracePeriodSeconds?: int64;
  /**
   * Must hold for the deletion to proceed; otherwise the server answers 409 Conflict.
   *
   * @protobuf 2 pointer
   */
  preconditions?: Preconditions;
  /**
   * Whether to orphan the dependents (adds or removes the `orphan` finalizer). Mutually exclusive with propagationPolicy.
   *
   * @deprecated Use propagationPolicy.
   * @protobuf 3 pointer
   */
  orphanDependents?: boolean;
  /**
   * How dependents are handled; the default comes from the object's finalizers and the kind. Mutually exclusive with orphanDependents.
   *
   * @protobuf 4 pointer
   */
  propagationPolicy?: DeletionPropagation;
  /**
   * When present, the request is fully processed but not persisted. The only valid value is `All`.
   *
   * @listType atomic
   * @validation rule="size(self) == 0 || (size(self) == 1 && self[0] == 'All')" message="the only supported dry-run value is All" reason=FieldValueInvalid
   * @protobuf 5
   */
  dryRun?: string[];
  /**
   * Delete the object even if it cannot be read from storage (undecryptable or undecodable), skipping finalizers and preconditions.
   * This can break the cluster; use only when you know what you are doing.
   *
   * @protobuf 6 pointer
   */
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

/** Options of create calls. */
export interface CreateOptions extends TypeMeta {
  /**
   * When present, the request is fully processed but not persisted. The only valid value is `All`.
   *
   * @listType atomic
   */
  dryRun?: string[];
  /**
   * The name of the actor making the change, recorded in managedFields; at most 128 printable characters.
   *
   * @maxLength 128
   */
  fieldManager?: string;
  /** How unknown or duplicate fields in the body are handled: `Ignore`, `Warn` (the default) or `Strict`. */
  fieldValidation?: string;
}

/** Options of update calls; every field here also exists in PatchOptions. */
export interface UpdateOptions extends TypeMeta {
  /**
   * When present, the request is fully processed but not persisted. The only valid value is `All`.
   *
   * @listType atomic
   */
  dryRun?: string[];
  /**
   * The name of the actor making the change, recorded in managedFields; at most 128 printable characters.
   *
   * @maxLength 128
   */
  fieldManager?: string;
  /** How unknown or duplicate fields in the body are handled: `Ignore`, `Warn` (the default) or `Strict`. */
  fieldValidation?: string;
}

/** Options of patch calls, a superset of UpdateOptions. */
export interface PatchOptions extends TypeMeta {
  /**
   * When present, the request is fully processed but not persisted. The only valid value is `All`.
   *
   * @listType atomic
   */
  dryRun?: string[];
  /** For apply patches only: take ownership of fields that conflict with other managers. */
  force?: boolean;
  /**
   * The name of the actor making the change, recorded in managedFields; required for apply patches, at most 128 printable characters.
   *
   * @maxLength 128
   */
  fieldManager?: string;
  /** How unknown or duplicate fields in the body are handled: `Ignore`, `Warn` (the default) or `Strict`. */
  fieldValidation?: string;
}

/** Options of server-side apply; sent as PatchOptions with an apply patch. */
export interface ApplyOptions extends TypeMeta {
  /**
   * When present, the request is fully processed but not persisted. The only valid value is `All`.
   *
   * @listType atomic
   */
  dryRun?: string[];
  /** Take ownership of fields that conflict with other managers. */
  force: boolean;
  /**
   * The name of the applier, recorded in managedFields; at most 128 printable characters.
   *
   * @maxLength 128
   */
  fieldManager: string;
}
