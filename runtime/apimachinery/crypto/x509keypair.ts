import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { decodePEM, type PEMBlock } from './pem.js';

/**
 * Why a certificate and a private key (PEM) do not form a TLS key pair, in the words of Go's
 * crypto/tls.X509KeyPair (the check kube's Secret strategy warns with); undefined when they do.
 * The first CERTIFICATE block is the leaf; its public key must be the private key's.
 */
export function x509KeyPairError(certPEM: Buffer, keyPEM: Buffer): string | undefined {
  const certs: Buffer[] = [];
  const skipped: string[] = [];
  for (const block of blocks(certPEM)) {
    if (block.type === 'CERTIFICATE') certs.push(block.bytes);
    else skipped.push(block.type);
  }
  const leaf = certs[0];
  if (leaf === undefined) {
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && skipped[0]!.endsWith('PRIVATE KEY')) {
      return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [${skipped.join(' ')}]`;
  }

  const key = keyBlock(keyPEM);
  if (typeof key === 'string') return key;

  let publicKey: KeyObject;
  try {
    publicKey = new X509Certificate(leaf).publicKey;
  } catch {
    return 'x509: malformed certificate';
  }
  const privateKey = parsePrivateKey(key.bytes);
  if (typeof privateKey === 'string') return privateKey;
  return keysMismatch(publicKey, privateKey);
}

function* blocks(pem: Buffer): Generator<PEMBlock> {
  const data = pem.toString('latin1');
  for (let found = decodePEM(data); found !== undefined; found = decodePEM(data, found.next)) yield found.block;
}

/** The first block whose type ends in PRIVATE KEY, or X509KeyPair's error when there is none. */
function keyBlock(keyPEM: Buffer): PEMBlock | string {
  const skipped: string[] = [];
  for (const block of blocks(keyPEM)) {
    if (block.type === 'PRIVATE KEY' || block.type.endsWith(' PRIVATE KEY')) return block;
    skipped.push(block.type);
  }
  if (skipped.length === 0) return 'tls: failed to find any PEM data in key input';
  if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') return 'tls: found a certificate rather than a key in the PEM for the private key';
  return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [${skipped.join(' ')}]`;
}

/** The curves Go's crypto/ecdsa knows (P-224, P-256, P-384, P-521) by OpenSSL's names. */
const GO_CURVES: ReadonlySet<string> = new Set(['secp224r1', 'prime256v1', 'secp384r1', 'secp521r1']);

/**
 * tls.parsePrivateKey: PKCS #1 (RSA), then PKCS #8 (RSA, ECDSA, Ed25519; any other algorithm
 * Go can unwrap is "unknown"), then SEC 1 (ECDSA), whatever the block's type says.
 */
function parsePrivateKey(der: Buffer): KeyObject | string {
  const rsa = tryKey(der, 'pkcs1');
  if (rsa !== undefined) return rsa;
  const pkcs8 = tryKey(der, 'pkcs8');
  if (pkcs8 !== undefined) {
    switch (pkcs8.asymmetricKeyType) {
      case 'rsa':
      case 'ed25519':
        return pkcs8;
      case 'ec':
        if (GO_CURVES.has(pkcs8.asymmetricKeyDetails?.namedCurve ?? '')) return pkcs8;
        break;
      // Go unwraps X25519 keys (as crypto/ecdh keys), which a TLS certificate cannot use.
      case 'x25519':
        return 'tls: found unknown private key type in PKCS#8 wrapping';
      default:
        break;
    }
  }
  const ec = tryKey(der, 'sec1');
  if (ec !== undefined && GO_CURVES.has(ec.asymmetricKeyDetails?.namedCurve ?? '')) return ec;
  return 'tls: failed to parse private key';
}

function tryKey(der: Buffer, type: 'pkcs1' | 'pkcs8' | 'sec1'): KeyObject | undefined {
  try {
    return createPrivateKey({ key: der, format: 'der', type });
  } catch {
    return undefined;
  }
}

/** X509KeyPair's last step: the leaf's public key and the private key are one key pair. */
function keysMismatch(pub: KeyObject, priv: KeyObject): string | undefined {
  const type = pub.asymmetricKeyType;
  if (type !== 'rsa' && type !== 'ec' && type !== 'ed25519') return 'tls: unknown public key algorithm';
  if (priv.asymmetricKeyType !== type) return 'tls: private key type does not match public key type';
  const a = pub.export({ format: 'jwk' });
  const b = createPublicKey(priv).export({ format: 'jwk' });
  // RSA: the modulus; ECDSA: the point; Ed25519: the public key bytes.
  const same = type === 'rsa' ? a.n === b.n : type === 'ec' ? a.x === b.x && a.y === b.y : a.x === b.x;
  return same ? undefined : 'tls: private key does not match public key';
}
