import { readFileSync } from 'node:fs';
import { x509KeyPairError } from '../../apimachinery/crypto/x509keypair.js';

/** Reads a file a flag names; the error names the flag. */
export function readFlagFile(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`--${flag}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * The serving certificate and key of --tls-cert-file and --tls-private-key-file, checked as a key
 * pair the way kube's serving-content loader checks them (Go's tls.X509KeyPair): a mismatched or
 * malformed pair fails the start instead of every TLS handshake.
 */
export function readServingKeyPair(certFile: string, keyFile: string): { certPEM: string; keyPEM: string } {
  const certPEM = readFlagFile('tls-cert-file', certFile);
  const keyPEM = readFlagFile('tls-private-key-file', keyFile);
  const invalid = x509KeyPairError(Buffer.from(certPEM), Buffer.from(keyPEM));
  if (invalid !== undefined) throw new Error(`invalid serving cert keypair (--tls-cert-file ${certFile}, --tls-private-key-file ${keyFile}): ${invalid}`);
  return { certPEM, keyPEM };
}
