import type { ValueTransformer } from '../transformer.js';
import { TransformError } from './prefix.js';

/** Reserved for encrypted data at rest: JSON starts with `{`, protobuf with `k8s\x00`. */
const ENCRYPTED_PREFIX = Buffer.from('k8s:enc:');

/**
 * kube's identity.NewEncryptCheckTransformer: data is stored as is, but encrypted data is refused
 * on read (the `identity` provider, and every resource an encryption configuration leaves out),
 * so a missing key is an error rather than ciphertext handed out as an object.
 */
export const encryptCheckTransformer: ValueTransformer = {
  transformFromStorage(data) {
    if (data.length >= ENCRYPTED_PREFIX.length && data.subarray(0, ENCRYPTED_PREFIX.length).equals(ENCRYPTED_PREFIX)) {
      throw new TransformError('identity transformer tried to read encrypted data');
    }
    return { data, stale: false };
  },
  transformToStorage: (data) => data,
};
