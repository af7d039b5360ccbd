import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import type { TransformContext, ValueTransformer } from '../transformer.js';
import { TransformError } from './prefix.js';

/**
 * AES transformers (k8s.io/apiserver/pkg/storage/value/encrypt/aes), byte for byte kube's layout
 * so data moves between kube-apiserver and this server:
 * - aesgcm: a random 12-byte nonce, then the ciphertext with its 16-byte tag; the physical key is
 *   the additional authenticated data, so a value copied to another key does not decrypt.
 * - aescbc: a random 16-byte IV, then the PKCS#7-padded ciphertext. CBC authenticates nothing
 *   (kube's neither): a value copied to another key decrypts, tampering garbles or fails the
 *   padding. kube recommends aesgcm or secretbox over it.
 */

const GCM_NONCE_SIZE = 12;
const GCM_TAG_SIZE = 16;
const BLOCK_SIZE = 16;

/** Go's aes.NewCipher: keys of 16, 24 or 32 bytes (AES-128, -192, -256). */
export const AES_KEY_SIZES: readonly number[] = [16, 24, 32];

function checkKey(key: Buffer): void {
  if (!AES_KEY_SIZES.includes(key.length)) throw new Error(`crypto/aes: invalid key size ${key.length}`);
}

/** The authenticated data of a value: its physical key (kube's authenticatedDataString). */
function authenticatedData(ctx: TransformContext): Buffer {
  return Buffer.from(ctx.key, 'utf8');
}

export function newGCMTransformer(key: Buffer): ValueTransformer {
  checkKey(key);
  const algorithm = `aes-${key.length * 8}-gcm` as CipherGCMTypes;
  return {
    encrypts: true,
    transformFromStorage(data, ctx) {
      if (data.length < GCM_NONCE_SIZE) throw new TransformError('the stored data was shorter than the required size');
      if (data.length < GCM_NONCE_SIZE + GCM_TAG_SIZE) throw new TransformError('cipher: message authentication failed');
      const decipher = createDecipheriv(algorithm, key, data.subarray(0, GCM_NONCE_SIZE), { authTagLength: GCM_TAG_SIZE });
      decipher.setAAD(authenticatedData(ctx));
      decipher.setAuthTag(data.subarray(data.length - GCM_TAG_SIZE));
      try {
        return { data: Buffer.concat([decipher.update(data.subarray(GCM_NONCE_SIZE, data.length - GCM_TAG_SIZE)), decipher.final()]), stale: false };
      } catch {
        throw new TransformError('cipher: message authentication failed');
      }
    },
    transformToStorage(data, ctx) {
      const nonce = randomBytes(GCM_NONCE_SIZE);
      const cipher = createCipheriv(algorithm, key, nonce, { authTagLength: GCM_TAG_SIZE });
      cipher.setAAD(authenticatedData(ctx));
      const sealed = Buffer.concat([cipher.update(data), cipher.final()]);
      return Buffer.concat([nonce, sealed, cipher.getAuthTag()]);
    },
  };
}

export function newCBCTransformer(key: Buffer): ValueTransformer {
  checkKey(key);
  const algorithm = `aes-${key.length * 8}-cbc` as const;
  return {
    encrypts: true,
    transformFromStorage(data) {
      if (data.length < BLOCK_SIZE) throw new TransformError('the stored data was shorter than the required size');
      const body = data.subarray(BLOCK_SIZE);
      if (body.length % BLOCK_SIZE !== 0) throw new TransformError('the stored data is not a multiple of the block size');
      const decipher = createDecipheriv(algorithm, key, data.subarray(0, BLOCK_SIZE)).setAutoPadding(false);
      const plain = Buffer.concat([decipher.update(body), decipher.final()]);
      // PKCS#7, checked as kube checks it (its error texts).
      const padding = plain.length === 0 ? 0 : (plain[plain.length - 1] as number);
      if (padding === 0 || padding > plain.length) throw new TransformError('invalid PKCS7 data (empty or not padded)');
      for (let i = plain.length - padding; i < plain.length; i++) {
        if (plain[i] !== padding) throw new TransformError('invalid padding on input');
      }
      return { data: plain.subarray(0, plain.length - padding), stale: false };
    },
    transformToStorage(data) {
      const padding = BLOCK_SIZE - (data.length % BLOCK_SIZE);
      const iv = randomBytes(BLOCK_SIZE);
      const cipher = createCipheriv(algorithm, key, iv).setAutoPadding(false);
      return Buffer.concat([iv, cipher.update(Buffer.concat([data, Buffer.alloc(padding, padding)])), cipher.final()]);
    },
  };
}
