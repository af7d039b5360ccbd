import type { Condition, ObjectMeta, TypeMeta } from 'kube-ts-apiserver/apis/meta/v1';

/** What a Flunder refers to. */
export type ReferenceType = 'Flunder' | 'Fischer';

/**
 * FlunderSpec is the specification of a Flunder.
 *
 * @validation rule="!has(self.referenceType) || has(self.reference)" message="reference is required when referenceType is set" fieldPath=".reference" reason=FieldValueRequired
 */
export interface FlunderSpec {
  /**
   * A name of another flunder or fischer, depending on referenceType.
   *
   * @maxLength 253
   * @pattern ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$
   */
  reference?: string;
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
 * @printcolumn name=Reference type=string jsonPath=.spec.reference
 * @printcolumn name=Type type=string jsonPath=.spec.referenceType
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 * @selectableField jsonPath=.spec.referenceType
 */
export interface Flunder extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: FlunderSpec;
  status?: FlunderStatus;
}

/**
 * A Fischer is a cluster-scoped kind that lists the Flunder names the
 * BanFlunder admission plugin rejects.
 *
 * @genclient
 * @nonNamespaced
 * @resource path=fischers singular=fischer categories=wardle
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 */
export interface Fischer extends TypeMeta {
  metadata?: ObjectMeta;
  /**
   * Names of Flunders that may not be created.
   *
   * @listType set
   * @maxItems 1000
   */
  disallowedFlunders?: string[];
}
