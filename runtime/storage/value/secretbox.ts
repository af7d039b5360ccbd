import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type Nacl from 'tweetnacl';
import type { ValueTransformer } from '../transformer.js';
import { TransformError } from './prefix.js';

/**
 * secretbox (k8s.io/apiserver/pkg/storage/value/encrypt/secretbox): XSalsa20-Poly1305 with a
 * 32-byte key, a random 24-byte nonce first, then the sealed box (kube's layout). The box is
 * authenticated, its storage key is not (kube's neither): tampering fails, a copy decrypts.
 */

export const SECRETBOX_KEY_SIZE = 32;
const NONCE_SIZE = 24;

// tweetnacl is loaded only when an encryption configuration names secretbox: every server would
// otherwise hold it (about 0.5 MiB of heap) for a provider few configure.
let naclModule: typeof Nacl | undefined;

export function newSecretboxTransformer(key: Buffer): ValueTransformer {
  if (key.length !== SECRETBOX_KEY_SIZE) throw new Error(`expected key size 32 for secretbox provider, got ${key.length}`);
  const nacl = (naclModule ??= createRequire(import.meta.url)('tweetnacl') as typeof Nacl);
  const k = new Uint8Array(key);
  return {
    encrypts: true,
    transformFromStorage(data) {
      if (data.length < nacl.secretbox.overheadLength + NONCE_SIZE) throw new TransformError('the stored data was shorter than the required size');
      const opened = nacl.secretbox.open(data.subarray(NONCE_SIZE), data.subarray(0, NONCE_SIZE), k);
      // kube's wording for a box that does not open.
      if (opened === null) throw new TransformError('output array was not large enough for encryption');
      return { data: Buffer.from(opened), stale: false };
    },
    transformToStorage(data) {
      const nonce = randomBytes(NONCE_SIZE);
      return Buffer.concat([nonce, nacl.secretbox(data, nonce, k)]);
    },
  };
}
