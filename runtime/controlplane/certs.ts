import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_ACCOUNT_KEY_FILE, SERVICE_ACCOUNT_PUBLIC_KEY_FILE } from '../server/options/serviceaccount.js';
import { FRONT_PROXY_CLIENT_NAME } from './options.js';
import { coversHosts, ensureKeyPairFiles, makePKI, readPair, type KeyPairPEM, type PKIPlan } from './pki-make.js';

export { ensureCA, ensureLeaf, type Issuer, type KeyPairPEM } from './pki-make.js';

/**
 * The control plane's PKI, made on first start and kept in `<data-dir>/pki` (as kubeadm keeps
 * /etc/kubernetes/pki): a cluster CA, the serving certificate it signs, the admin client
 * certificate of admin.kubeconfig, and the front-proxy CA whose client certificate the aggregator
 * presents to aggregated servers. Existing files are reused so clients keep trusting the server.
 */
export interface PKI {
  readonly caCertPEM: string;
  readonly servingCertPEM: string;
  readonly servingKeyPEM: string;
  readonly adminCertPEM: string;
  readonly adminKeyPEM: string;
  readonly frontProxyCACertPEM: string;
  readonly frontProxyClientCertPEM: string;
  readonly frontProxyClientKeyPEM: string;
  readonly dir: string;
}

/** The files of `<data-dir>/pki`; serving SANs cover loopback and the given hosts. */
export function pkiPlan(hosts: readonly string[]): PKIPlan {
  return {
    cas: [
      { name: 'ca', commonName: 'kube-ts-ca' },
      { name: 'front-proxy-ca', commonName: 'kube-ts-front-proxy-ca' },
    ],
    leaves: [
      {
        name: 'apiserver',
        issuer: 'ca',
        subject: 'CN=kube-apiserver',
        server: true,
        hosts: [...new Set(['127.0.0.1', '::1', 'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', ...hosts])],
      },
      { name: 'admin', issuer: 'ca', subject: 'CN=system:admin, O=system:masters', server: false, hosts: [] },
      { name: 'front-proxy-client', issuer: 'front-proxy-ca', subject: `CN=${FRONT_PROXY_CLIENT_NAME}`, server: false, hosts: [] },
    ],
    keyPair: { keyFile: SERVICE_ACCOUNT_KEY_FILE, publicKeyFile: SERVICE_ACCOUNT_PUBLIC_KEY_FILE },
  };
}

/** Loads the PKI from dir/pki, creating what is missing (in this thread: see pki-thread.ts for another). */
export async function ensurePKI(dataDir: string, opts: { hosts: readonly string[] }): Promise<PKI> {
  const dir = join(dataDir, 'pki');
  const plan = pkiPlan(opts.hosts);
  return readPKI(dir, plan) ?? pkiOf(dir, await makePKI(dir, plan));
}

/**
 * The PKI when nothing of `plan` must be made (the start of an existing data dir): PEM files
 * read, the serving certificate's SANs checked, no x509 library loaded; undefined otherwise.
 */
export function readPKI(dir: string, plan: PKIPlan): PKI | undefined {
  const pairs: Record<string, KeyPairPEM> = {};
  for (const { name } of plan.cas) {
    const pair = readPair(dir, name);
    if (pair === undefined) return undefined;
    pairs[name] = pair;
  }
  for (const { name, hosts } of plan.leaves) {
    const pair = readPair(dir, name);
    if (pair === undefined || !coversHosts(pair.certPEM, hosts)) return undefined;
    pairs[name] = pair;
  }
  if (!existsSync(join(dir, plan.keyPair.keyFile)) || !existsSync(join(dir, plan.keyPair.publicKeyFile))) return undefined;
  return pkiOf(dir, pairs);
}

/** The PKI out of the pairs of pkiPlan's files, by name. */
export function pkiOf(dir: string, pairs: Readonly<Record<string, KeyPairPEM>>): PKI {
  const pair = (name: string): KeyPairPEM => {
    const p = pairs[name];
    if (p === undefined) throw new Error(`the PKI in ${dir} has no ${name}`);
    return p;
  };
  return {
    dir,
    caCertPEM: pair('ca').certPEM,
    servingCertPEM: pair('apiserver').certPEM,
    servingKeyPEM: pair('apiserver').keyPEM,
    adminCertPEM: pair('admin').certPEM,
    adminKeyPEM: pair('admin').keyPEM,
    frontProxyCACertPEM: pair('front-proxy-ca').certPEM,
    frontProxyClientCertPEM: pair('front-proxy-client').certPEM,
    frontProxyClientKeyPEM: pair('front-proxy-client').keyPEM,
  };
}

/**
 * kubeadm's service-account key pair: `sa.key` signs service-account tokens, `sa.pub` verifies
 * them (the defaults of --service-account-signing-key-file and --service-account-key-file). An
 * ECDSA P-256 key (kubeadm's ECDSA-P256 choice, as the rest of this PKI), SEC1 and PKIX PEM as
 * kubeadm writes them. Kept across restarts: tokens issued before stay valid; a lost `sa.pub`
 * is written again from `sa.key`.
 */
export function ensureServiceAccountKeyPair(dir: string): void {
  ensureKeyPairFiles(dir, SERVICE_ACCOUNT_KEY_FILE, SERVICE_ACCOUNT_PUBLIC_KEY_FILE);
}
