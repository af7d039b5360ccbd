import type { ObjectMeta, TypeMeta } from '../../meta/v1/types.js';
import type { ObjectReference } from './types.js';

/**
 * A reference to an object in the same namespace, by name.
 *
 * @structType atomic
 */
export interface LocalObjectReference {
  /**
   * The referent's name.
   *
   * @default ""
   * @protobuf 1
   */
  name?: string;
}

/**
 * An identity for processes: tokens issued for it (TokenRequest, `serviceaccounts/<name>/token`) authenticate as `system:serviceaccount:<namespace>:<name>`.
 *
 * @genclient
 * @resource path=serviceaccounts singular=serviceaccount shortName=sa
 * @printcolumn name=Secrets type=integer jsonPath=.secrets description="The number of secrets the service account lists."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 */
export interface ServiceAccount extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * Secrets that hold legacy tokens of this account; new tokens come from TokenRequest.
   *
   * kube 1.29+ also declares this a list map keyed by name; ObjectReference.name is optional
   * (and shared with other fields), so the list cannot be a map here without a default for it.
   *
   * @patchStrategy merge
   * @patchMergeKey name
   * @protobuf 2
   */
  secrets?: ObjectReference[];
  /**
   * Secrets for pulling images of pods that use this account.
   *
   * @listType atomic
   * @protobuf 3
   */
  imagePullSecrets?: LocalObjectReference[];
  /**
   * Whether pods running as this account get a token mounted automatically.
   *
   * @protobuf 4
   */
  automountServiceAccountToken?: boolean;
}
