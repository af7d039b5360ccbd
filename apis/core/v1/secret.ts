import type { Bytes, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/** The type of a Secret (`Opaque`, `kubernetes.io/tls`, …), which decides the keys its data must hold. */
export type SecretType = string;

/**
 * Secret data by key, such as passwords, tokens and keys. Keys are made of alphanumerics, `-`, `_` and `.`; the values together are limited to 1 MiB.
 *
 * @genclient
 * @resource path=secrets singular=secret
 * @printcolumn name=Type type=string jsonPath=.type description="Used to facilitate programmatic handling of secret data."
 * @printcolumn name=Data type=string jsonPath=.data description="The number of keys in data."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 * @selectableField jsonPath=.type
 */
export interface Secret extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * When true, data cannot change (only metadata can); it cannot be unset once set.
   *
   * @protobuf 5 pointer
   */
  immutable?: boolean;
  /**
   * The secret's values by key, base64-encoded on the wire.
   *
   * @protobuf 2
   */
  data?: Record<string, Bytes>;
  /**
   * Write-only convenience for non-binary values: each key is merged into data on write (overriding it there) and is never stored nor returned.
   *
   * @protobuf 4
   */
  stringData?: Record<string, string>;
  /**
   * Used to facilitate programmatic handling of secret data (Opaque when empty); cannot change once created. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types
   *
   * @protobuf 3
   */
  type?: SecretType;
}
