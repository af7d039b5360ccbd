import { mkdirSync } from 'node:fs';
import { readServingKeyPair } from '../server/options/files.js';
import { ensurePKI, type PKI } from './certs.js';
import type { CompletedServerRunOptions } from './options.js';

/**
 * The data dir and the PKI in it (created when missing): by startControlPlane, and by a
 * --workers primary before it forks, so that its workers only read them and never race to make them.
 * The serving certificate is --tls-cert-file's when given.
 */
export async function prepareDataDir(o: CompletedServerRunOptions): Promise<PKI> {
  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  const pki = await ensurePKI(o.dataDir, { hosts: o.bindAddress === '0.0.0.0' || o.bindAddress === '::' ? [] : [o.bindAddress] });
  if (o.tlsCertFile === undefined || o.tlsPrivateKeyFile === undefined) return pki;
  const serving = readServingKeyPair(o.tlsCertFile, o.tlsPrivateKeyFile);
  return { ...pki, servingCertPEM: serving.certPEM, servingKeyPEM: serving.keyPEM };
}
