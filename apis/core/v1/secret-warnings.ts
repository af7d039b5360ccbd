import { x509KeyPairError } from '../../../runtime/apimachinery/crypto/x509keypair.js';
import { SecretType, TLS_CERT_KEY, TLS_PRIVATE_KEY_KEY } from './secret-validation.js';
import type { Secret } from './types.js';

/**
 * kube's warningsForSecret (pkg/registry/core/secret/strategy.go), returned on create and on
 * update as Warning headers: a kubernetes.io/tls Secret whose tls.crt and tls.key do not form a
 * key pair gets Go's crypto/tls error. Runs after validation, so both keys are there.
 */
export function warningsForSecret(s: Secret): string[] {
  if (s.type !== SecretType.TLS) return [];
  const err = x509KeyPairError(dataValue(s, TLS_CERT_KEY), dataValue(s, TLS_PRIVATE_KEY_KEY));
  return err === undefined ? [] : [err];
}

/** A data value's bytes; a missing key is empty, as a nil []byte in Go. */
function dataValue(s: Secret, key: string): Buffer {
  const data = s.data ?? {};
  return Object.hasOwn(data, key) ? Buffer.from(data[key] ?? '', 'base64') : Buffer.alloc(0);
}
