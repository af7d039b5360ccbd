/**
 * The metadata every API object carries (TypeMeta, ObjectMeta, ListMeta and
 * their parts), label selectors and conditions, transliterated from
 * k8s.io/apimachinery/pkg/apis/meta/v1. This module also re-exports the rest
 * of the package, so API types import everything from here.
 */
import type { int64, Time, UID } from './scalars.js';

export type * from './scalars.js';
export type * from './status.js';
export type * from './options.js';
export type * from './table.js';
export type * from './watch.js';
export type * from './discovery.js';

/** The kind and API version of a serialized object; every versioned or persisted type inlines it. */
export interface TypeMeta {
  /** The REST kind this object represents, in CamelCase; servers may infer it from the endpoint. */
  kind?: string;
  /** The versioned schema of this representation, as `group/version` (`v1` for the core group). */
  apiVersion?: string;
}

/** Metadata of synthetic resources such as lists and Status; an object has either ObjectMeta or ListMeta. */
export interface ListMeta {
  /**
   * A legacy link to this object; the system no longer populates it.
   *
   * @deprecated selfLink is a legacy read-only field that is no longer populated by the system.
   * @protobuf 1
   */
  selfLink?: string;
  /**
   * An opaque version of the collection, for change detection and for starting a watch; clients pass it back unmodified.
   *
   * @protobuf 2
   */
  resourceVersion?: string;
  /**
   * An opaque token set when a limit cut the list short; send it back to fetch the next chunk.
   *
   * @protobuf 3
   */
  continue?: string;
  /**
   * An estimate of how many items follow this chunk; unset when unknown (for example with selectors) or when the list is complete.
   *
   * @minimum 0
   * @protobuf 4 pointer
   */
  remainingItemCount?: int64;
}

/** The metadata every persisted resource has, including all objects users create. */
export interface ObjectMeta {
  /**
   * Unique within a namespace (or the cluster for cluster-scoped kinds); required on create unless generateName is set, and immutable.
   *
   * @protobuf 1
   */
  name?: string;
  /**
   * A prefix from which the server generates a unique name when name is empty; a clash on the generated name returns 409.
   *
   * @protobuf 2
   */
  generateName?: string;
  /**
   * The namespace the name is unique in; empty for cluster-scoped objects. Must be a DNS label and cannot be updated.
   *
   * @protobuf 3
   */
  namespace?: string;
  /**
   * A legacy link to this object; the system no longer populates it.
   *
   * @deprecated selfLink is a legacy read-only field that is no longer populated by the system.
   * @protobuf 4
   */
  selfLink?: string;
  /**
   * A server-generated identifier unique in time and space; read-only.
   *
   * @protobuf 5
   */
  uid?: UID;
  /**
   * An opaque version of this object, used for optimistic concurrency and watches; read-only, passed back unmodified.
   *
   * @protobuf 6
   */
  resourceVersion?: string;
  /**
   * A sequence number of the desired state, incremented by the system when the spec changes; read-only.
   *
   * @protobuf 7
   */
  generation?: int64;
  /**
   * When the server created the object, in RFC 3339 UTC; read-only, and null in objects built by older clients.
   *
   * @protobuf 8 omitzero
   */
  creationTimestamp?: Time | null;
  /**
   * When this object will be deleted, set by the server when graceful deletion is requested; deletion completes once finalizers are empty.
   *
   * @protobuf 9 pointer
   */
  deletionTimestamp?: Time;
  /**
   * The grace period, in seconds, given when deletion was requested; only set with deletionTimestamp and may only shrink.
   *
   * @protobuf 10 pointer
   */
  deletionGracePeriodSeconds?: int64;
  /**
   * String keys and values used to organize and select objects.
   *
   * @protobuf 11
   */
  labels?: Record<string, string>;
  /**
   * Unstructured string metadata for tools; not queryable, and should be preserved on updates.
   *
   * @protobuf 12
   */
  annotations?: Record<string, string>;
  /**
   * Objects this one depends on; when all of them are gone the garbage collector deletes this object. At most one entry may be the managing controller.
   *
   * @listType map
   * @listMapKey uid
   * @patchStrategy merge
   * @patchMergeKey uid
   * @protobuf 13
   */
  ownerReferences?: OwnerReference[];
  /**
   * Identifiers of components that must act before the object is removed from storage; once deletion has started, entries can only be removed, in any order.
   *
   * @listType set
   * @patchStrategy merge
   * @protobuf 14
   */
  finalizers?: string[];
  /**
   * Which manager owns which fields, per API version and operation; maintained by server-side apply and rarely set by users.
   *
   * @listType atomic
   * @protobuf 17
   */
  managedFields?: ManagedFieldsEntry[];
}

/**
 * Identifies an owning object. The owner is in the same namespace as the dependent or cluster-scoped, so there is no namespace field.
 *
 * @structType atomic
 */
export interface OwnerReference {
  /**
   * API version of the owner.
   *
   * @protobuf 5
   */
  apiVersion: string;
  /**
   * Kind of the owner.
   *
   * @protobuf 1
   */
  kind: string;
  /**
   * Name of the owner.
   *
   * @protobuf 3
   */
  name: string;
  /**
   * UID of the owner.
   *
   * @protobuf 4
   */
  uid: UID;
  /**
   * Whether this reference points to the managing controller.
   *
   * @protobuf 6 pointer
   */
  controller?: boolean;
  /**
   * When true and the owner has the foregroundDeletion finalizer, the owner is not removed from storage until this reference is gone. Setting it requires delete permission on the owner.
   *
   * @protobuf 7 pointer
   */
  blockOwnerDeletion?: boolean;
}

/** The operation that created a managed-fields entry. */
export type ManagedFieldsOperationType = 'Apply' | 'Update';

/**
 * A set of fields in the structured-merge-diff JSON format (a trie of `f:`, `k:`, `v:` and `i:` keys).
 *
 * @preserveUnknownFields
 */
export type FieldsV1 = object;

/** The fields one manager owns, in the API version it used. */
export interface ManagedFieldsEntry {
  /**
   * Identifies the workflow that manages these fields.
   *
   * @protobuf 1
   */
  manager?: string;
  /**
   * Whether the fields were set by an apply or an update.
   *
   * @protobuf 2
   */
  operation?: ManagedFieldsOperationType;
  /**
   * The `group/version` the field set refers to; field sets cannot be converted between versions.
   *
   * @protobuf 3
   */
  apiVersion?: string;
  /**
   * When the entry was last changed by its manager.
   *
   * @protobuf 4 pointer
   */
  time?: Time;
  /**
   * The format of the field set; the only value is `FieldsV1`.
   *
   * @protobuf 6
   */
  fieldsType?: string;
  /**
   * The field set, when fieldsType is FieldsV1.
   *
   * @protobuf 7 pointer
   */
  fieldsV1?: FieldsV1;
  /**
   * The subresource the update went through, or empty for the main resource; managers are distinct per subresource.
   *
   * @protobuf 8
   */
  subresource?: string;
}

/** A list of objects of one kind, as list and deletecollection calls return it; the typed clients' result type. */
export interface List<T> extends TypeMeta {
  /** Standard list metadata; servers always send it. */
  metadata: ListMeta;
  /** The objects, in an order the server chooses. */
  items: T[];
}

/** Any object reduced to its metadata, for clients that need ObjectMeta without knowing the kind's schema. */
export interface PartialObjectMetadata extends TypeMeta {
  /** The object's metadata. */
  metadata?: ObjectMeta;
}

/** A list of objects reduced to their metadata. */
export interface PartialObjectMetadataList extends TypeMeta {
  /** Standard list metadata. */
  metadata?: ListMeta;
  /** The objects' metadata. */
  items: PartialObjectMetadata[];
}

/** Identifies a kind unambiguously. */
export interface GroupVersionKind {
  /** The API group; empty for the core group. */
  group: string;
  /** The version within the group. */
  version: string;
  /** The kind, in CamelCase. */
  kind: string;
}

// A string, not a union of the four, as kube declares it (no enum in its OpenAPI): the validation
// of each kind that holds selectors refuses an unknown operator in its own words ("not a valid
// selector operator"), and which operators need values is checked there too (no schema rule).
/** How a label selector requirement relates a key to its values: In, NotIn, Exists or DoesNotExist. */
export type LabelSelectorOperator = string;

/**
 * A query over labels: matchLabels and matchExpressions are ANDed. An empty selector matches every object; a missing one matches none.
 *
 * @structType atomic
 */
export interface LabelSelector {
  /**
   * Each key/value pair is the requirement `key In (value)`.
   *
   * @protobuf 1
   */
  matchLabels?: Record<string, string>;
  /**
   * Requirements that all must hold.
   *
   * @listType atomic
   * @protobuf 2
   */
  matchExpressions?: LabelSelectorRequirement[];
}

/** A requirement that relates a label key to a set of values. */
export interface LabelSelectorRequirement {
  /**
   * The label key the requirement applies to.
   *
   * @protobuf 1
   */
  key: string;
  /**
   * How the key relates to the values: In, NotIn, Exists or DoesNotExist.
   *
   * @protobuf 2
   */
  operator: LabelSelectorOperator;
  /**
   * Values for In and NotIn (non-empty); must be empty for Exists and DoesNotExist. Replaced whole by a strategic merge patch.
   *
   * @listType atomic
   * @protobuf 3
   */
  values?: string[];
}

/** Whether a condition holds: True, False or Unknown. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** One aspect of an object's current state; meant to be used as a list at `.status.conditions`, keyed by type. */
export interface Condition {
  /**
   * The condition's type in CamelCase, optionally prefixed with a DNS subdomain (`foo.example.com/CamelCase`).
   *
   * @maxLength 316
   * @pattern ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
   * @protobuf 1
   */
  type: string;
  /**
   * Whether the condition holds.
   *
   * @protobuf 2
   */
  status: ConditionStatus;
  /**
   * The metadata.generation the condition was computed from; older than the current generation means the condition is stale.
   *
   * @minimum 0
   * @protobuf 3
   */
  observedGeneration?: int64;
  /**
   * When the status last changed, or when the API field changed if that is not known.
   *
   * @protobuf 4
   */
  lastTransitionTime: Time;
  /**
   * A CamelCase, machine-readable reason for the last transition; may not be empty.
   *
   * @minLength 1
   * @maxLength 1024
   * @pattern ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$
   * @protobuf 5
   */
  reason: string;
  /**
   * A human-readable message about the transition; may be empty.
   *
   * @maxLength 32768
   * @protobuf 6
   */
  message: string;
}
