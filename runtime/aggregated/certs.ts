import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCA, ensureLeaf } from '../controlplane/certs.js';
import { readServingKeyPair } from '../server/options/files.js';
import type { CompletedAggregatedOptions } from './options.js';

/** The serving identity of a standalone server. */
export interface ServingCertificate {
  readonly certPEM: string;
  readonly keyPEM: string;
  /**
   * The CA of a made certificate (what an APIService's caBundle carries, base64): its PEM and
   * file. Undefined when the certificate came from --tls-cert-file, whose issuer the user knows.
   */
  readonly ca: { readonly certPEM: string; readonly file: string } | undefined;
}

/**
 * The given certificate files, or a CA and a serving certificate made on first start in
 * `<data-dir>/pki` (sample-apiserver's self-signed default, with a CA of its own so that the
 * APIService can carry a bundle that survives a renewed leaf). Kept across restarts; a leaf
 * that lacks a host asked for now is replaced.
 */
export async function ensureServingCertificate(o: CompletedAggregatedOptions): Promise<ServingCertificate> {
  if (o.tlsCertFile !== undefined && o.tlsPrivateKeyFile !== undefined) {
    return { ...readServingKeyPair(o.tlsCertFile, o.tlsPrivateKeyFile), ca: undefined };
  }
  const dir = join(o.dataDir, 'pki');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = await ensureCA(dir, 'ca', 'kube-ts-aggregated-ca');
  const leaf = await ensureLeaf(dir, 'apiserver', ca, { subject: `CN=${o.servingHosts[0] ?? 'localhost'}`, server: true, hosts: o.servingHosts });
  return { certPEM: leaf.certPEM, keyPEM: leaf.keyPEM, ca: { certPEM: ca.cert.toString('pem'), file: join(dir, 'ca.crt') } };
}
