import type { Bytes, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/**
 * Configuration data as string keys and values (and binary values). Keys are made of alphanumerics, `-`, `_` and `.`; data and binaryData together are limited to 1 MiB.
 *
 * @genclient
 * @resource path=configmaps singular=configmap shortName=cm
 * @printcolumn name=Data type=integer jsonPath=.data description="The number of keys in data and binaryData."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 */
export interface ConfigMap extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * When true, data and binaryData cannot change (only metadata can); it cannot be unset once set.
   *
   * @protobuf 4
   */
  immutable?: boolean;
  /**
   * UTF-8 values by key; a key may not also be in binaryData.
   *
   * @protobuf 2
   */
  data?: Record<string, string>;
  /**
   * Binary values by key; a key may not also be in data.
   *
   * @protobuf 3
   */
  binaryData?: Record<string, Bytes>;
}
