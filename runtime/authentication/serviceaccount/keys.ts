import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { exportJWK, importPKCS8, importSPKI, type CryptoKey, type JWK } from 'jose';

/**
 * The keys of service-account tokens (kube's pkg/serviceaccount/jwt.go and client-go's keyutil):
 * PEM parsing, the key ID kube derives, the JWS algorithm of each key, and the key set tokens are
 * verified with. Parsing is node's; signing and verifying are jose's (Web Crypto).
 */

export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

const EC_ALGORITHMS: Readonly<Record<string, SigningAlgorithm>> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;
const PRIVATE_KEY_BLOCKS = new Set(['EC PRIVATE KEY', 'RSA PRIVATE KEY', 'PRIVATE KEY']);

function pemBlocks(data: string): { type: string; pem: string }[] {
  return [...data.matchAll(PEM_BLOCK)].map((m) => ({ type: m[1]!, pem: m[0] }));
}

/**
 * keyutil.ParsePublicKeysPEM: the RSA and ECDSA public keys of every block (public keys, private
 * keys' public halves, certificates' keys); other blocks (`EC PARAMETERS`) are tolerated. Throws
 * when there is none.
 */
export function parsePublicKeysPEM(data: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const block of pemBlocks(data)) {
    let key: KeyObject;
    try {
      key = createPublicKey(block.pem);
    } catch {
      continue;
    }
    if (algorithmOf(key) !== undefined) keys.push(key);
  }
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/** keyutil.ParsePrivateKeyPEM: the first `EC PRIVATE KEY`, `RSA PRIVATE KEY` or `PRIVATE KEY` block that is an RSA or ECDSA key. */
export function parsePrivateKeyPEM(data: string): KeyObject {
  for (const block of pemBlocks(data)) {
    if (!PRIVATE_KEY_BLOCKS.has(block.type)) continue;
    try {
      const key = createPrivateKey(block.pem);
      if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec') return key;
    } catch {
      // tolerated, as keyutil tolerates a block it cannot parse and reads on
    }
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/** The algorithm kube signs with for a key: RS256 for RSA, ES256/384/512 by the EC curve; undefined otherwise. */
export function algorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType !== 'ec') return undefined;
  return EC_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
}

/** algorithmOf, or kube's error for a key it cannot sign with. */
export function signingAlgorithmOf(key: KeyObject): SigningAlgorithm {
  const alg = algorithmOf(key);
  if (alg !== undefined) return alg;
  if (key.asymmetricKeyType === 'ec') throw new Error('unknown private key curve, must be 256, 384, or 521');
  throw new Error(`unknown private key type ${key.asymmetricKeyType ?? key.type}, must be RSA or ECDSA`);
}

/**
 * keyIDFromPublicKey: base64url (unpadded) of the SHA-256 of the public key's PKIX DER. Not
 * reversible, so the ID never reveals the key, and stable, so relying parties can pick the key.
 */
export function keyIDFromPublicKey(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

/** A verification key as kube's PublicKeysGetter hands it out, imported once for jose. */
export interface PublicKey {
  readonly keyID: string;
  readonly algorithm: SigningAlgorithm;
  readonly key: CryptoKey;
  /** The public JWK as kube's discovery document lists it: use, kty, kid, crv, alg, then the key's numbers. */
  readonly jwk: JWK;
}

/** Imports a public key for verification with its algorithm (as kube's StaticPublicKeysGetter holds it). */
export async function importPublicKey(key: KeyObject): Promise<PublicKey> {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const algorithm = signingAlgorithmOf(publicKey);
  const keyID = keyIDFromPublicKey(publicKey);
  const imported = await importSPKI(publicKey.export({ type: 'spki', format: 'pem' }).toString(), algorithm, { extractable: true });
  const { kty, crv, n, e, x, y } = await exportJWK(imported);
  // go-jose's JSONWebKey field order, so the document reads as kube's does.
  const jwk: JWK = kty === 'EC' ? { use: 'sig', kty, kid: keyID, crv, alg: algorithm, x, y } : { use: 'sig', kty, kid: keyID, alg: algorithm, n, e };
  return { keyID, algorithm, key: imported, jwk };
}

/** Imports a private key for signing. */
export async function importSigningKey(key: KeyObject): Promise<{ readonly keyID: string; readonly algorithm: SigningAlgorithm; readonly key: CryptoKey }> {
  const algorithm = signingAlgorithmOf(key);
  const imported = await importPKCS8(key.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm);
  return { keyID: keyIDFromPublicKey(key), algorithm, key: imported };
}

/**
 * StaticPublicKeysGetter: every key, and the keys of one key ID. A key listed twice (the signing
 * key's public half is also in a key file) is kept once.
 */
export class PublicKeySet {
  readonly all: readonly PublicKey[];
  private readonly byID = new Map<string, PublicKey[]>();

  private constructor(keys: readonly PublicKey[]) {
    const seen = new Set<string>();
    const all: PublicKey[] = [];
    for (const k of keys) {
      if (seen.has(k.keyID)) continue;
      seen.add(k.keyID);
      all.push(k);
      this.byID.set(k.keyID, [k]);
    }
    this.all = all;
  }

  static async create(keys: readonly KeyObject[]): Promise<PublicKeySet> {
    return new PublicKeySet(await Promise.all(keys.map(importPublicKey)));
  }

  /** GetPublicKeys: all keys for '' (a token without `kid`), otherwise those with that ID (possibly none). */
  keysFor(keyID: string): readonly PublicKey[] {
    return keyID === '' ? this.all : (this.byID.get(keyID) ?? []);
  }
}
