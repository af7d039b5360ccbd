import { mkdirSync } from 'node:fs';
import { readServingKeyPair } from '../server/options/files.js';
import type { PKI } from './certs.js';
import { completeOptions, type CompletedServerRunOptions, type ServerRunOptions } from './options.js';
import { ensurePKIOffThread } from './pki-thread.js';

/**
 * The data dir and the PKI in it (created when missing): by startControlPlane, and by a
 * --workers primary before it forks, so that its workers only read them and never race to make them.
 * The serving certificate is --tls-cert-file's when given.
 */
export async function prepareDataDir(o: CompletedServerRunOptions): Promise<PKI> {
  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  // kube's self-signed serving certificate names the advertise address too.
  const bind = o.bindAddress === '0.0.0.0' || o.bindAddress === '::' ? [] : [o.bindAddress];
  const pki = await ensurePKIOffThread(o.dataDir, { hosts: [...bind, ...(o.advertiseAddress === undefined ? [] : [o.advertiseAddress])] });
  if (o.tlsCertFile === undefined || o.tlsPrivateKeyFile === undefined) return pki;
  const serving = readServingKeyPair(o.tlsCertFile, o.tlsPrivateKeyFile);
  return { ...pki, servingCertPEM: serving.certPEM, servingKeyPEM: serving.keyPEM };
}

/**
 * prepareDataDir begun by the command before it loads the control plane's modules, which then
 * load while a first start's certificates are made on another thread (startControlPlane's `pki`).
 * Options it cannot complete give undefined: the control plane reports them, once, as it would.
 */
export function prepareDataDirEarly(options: ServerRunOptions): Promise<PKI> | undefined {
  let o: CompletedServerRunOptions;
  try {
    o = completeOptions(options, () => {});
  } catch {
    return undefined;
  }
  const pki = prepareDataDir(o);
  // Whoever awaits it sees its failure; a start that fails first must not die of it unhandled.
  pki.catch(() => {});
  return pki;
}
