import type { ObjectMeta, Time, TypeMeta } from '../../meta/v1/types.js';
import type { ConditionStatus } from './types.js';

/** The lifecycle phase of a namespace. */
export type NamespacePhase = 'Active' | 'Terminating';

/** The type of a namespace condition, such as NamespaceDeletionContentFailure or NamespaceContentRemaining; set by the namespace controller. */
export type NamespaceConditionType = string;

// A value of a namespace's spec.finalizers, such as `kubernetes` (a line comment: the items of
// spec.finalizers have no description in kube's OpenAPI).
export type FinalizerName = string;

/** The desired state of a Namespace. */
export interface NamespaceSpec {
  /**
   * Opaque values that must all be removed before the namespace is removed from storage.
   *
   * @listType atomic
   * @protobuf 1
   */
  finalizers?: FinalizerName[];
}

/** One aspect of a namespace's state, reported by the namespace controller. */
export interface NamespaceCondition {
  /**
   * The condition's type.
   *
   * @protobuf 1
   */
  type: NamespaceConditionType;
  /**
   * Whether the condition holds.
   *
   * @protobuf 2
   */
  status: ConditionStatus;
  /**
   * When the status last changed.
   *
   * @protobuf 4
   */
  lastTransitionTime?: Time | null;
  /**
   * A one-word CamelCase reason for the last transition.
   *
   * @protobuf 5
   */
  reason?: string;
  /**
   * A human-readable message about the last transition.
   *
   * @protobuf 6
   */
  message?: string;
}

/** The observed state of a Namespace. */
export interface NamespaceStatus {
  /**
   * The lifecycle phase: Active, or Terminating once deletion has started.
   *
   * @protobuf 1
   */
  phase?: NamespacePhase;
  /**
   * The latest observations of the namespace's state, one per type.
   *
   * @listType map
   * @listMapKey type
   * @patchStrategy merge
   * @patchMergeKey type
   * @protobuf 2
   */
  conditions?: NamespaceCondition[];
}

/**
 * A Namespace is a scope for names; namespaced objects live in exactly one.
 *
 * @genclient
 * @nonNamespaced
 * @skipVerbs deletecollection
 * @resource path=namespaces singular=namespace shortName=ns
 * @subresource status
 * @printcolumn name=Status type=string jsonPath=.status.phase description="The lifecycle phase of the namespace."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 * @selectableField jsonPath=.status.phase
 */
export interface Namespace extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The desired state of the namespace.
   *
   * @protobuf 2
   */
  spec?: NamespaceSpec;
  /**
   * The observed state of the namespace.
   *
   * @protobuf 3
   */
  status?: NamespaceStatus;
}
