import type { Condition, ObjectMeta, TypeMeta } from 'kube-ts-apiserver/apis/meta/v1';

/** What a Flunder refers to. */
export type ReferenceType = 'Flunder' | 'Fischer';

/**
 * FlunderSpec is the specification of a Flunder: at most one of
 * flunderReference and fischerReference, matching referenceType.
 *
 * @validation rule="!(has(self.flunderReference) && has(self.fischerReference))" message="flunderReference and fischerReference are mutually exclusive"
 */
export interface FlunderSpec {
  /**
   * A name of another flunder, mutually exclusive to fischerReference.
   *
   * @maxLength 253
   * @pattern ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$
   */
  flunderReference?: string;
  /**
   * A name of a fischer, mutually exclusive to flunderReference.
   *
   * @maxLength 253
   * @pattern ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$
   */
  fischerReference?: string;
  /** The type of the reference. Defaults to Flunder when a reference is set. */
  referenceType?: ReferenceType;
}

/** FlunderStatus is the observed state of a Flunder, written by a controller (hack/examples/flunder-controller). */
export interface FlunderStatus {
  /**
   * The current conditions of the Flunder, one per type: ReferenceResolved (the Flunder or
   * Fischer it refers to exists) and Allowed (no Fischer lists its name as disallowed).
   *
   * @listType map
   * @listMapKey type
   * @patchStrategy merge
   * @patchMergeKey type
   */
  conditions?: Condition[];
}

/**
 * A Flunder is the sample-apiserver's namespaced example kind.
 *
 * @genclient
 * @resource path=flunders singular=flunder shortName=fl categories=all;wardle
 * @subresource status
 * @printcolumn name=FlunderReference type=string jsonPath=.spec.flunderReference
 * @printcolumn name=FischerReference type=string jsonPath=.spec.fischerReference
 * @printcolumn name=Type type=string jsonPath=.spec.referenceType
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 * @selectableField jsonPath=.spec.referenceType
 */
export interface Flunder extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: FlunderSpec;
  status?: FlunderStatus;
}
