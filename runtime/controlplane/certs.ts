import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, webcrypto, type webcrypto as WebCrypto } from 'node:crypto';
import { join } from 'node:path';
import { SERVICE_ACCOUNT_KEY_FILE, SERVICE_ACCOUNT_PUBLIC_KEY_FILE } from '../server/options/serviceaccount.js';
import { FRONT_PROXY_CLIENT_NAME } from './options.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

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

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const YEAR_MS = 365 * 24 * 3600 * 1000;

export interface KeyPairPEM {
  certPEM: string;
  keyPEM: string;
}

/** A CA that signs leaves: its certificate and private key. */
export interface Issuer {
  cert: x509.X509Certificate;
  key: WebCrypto.CryptoKey;
}

/** Loads the PKI from dir/pki, creating what is missing. Serving SANs cover loopback and the given hosts. */
export async function ensurePKI(dataDir: string, opts: { hosts: readonly string[] }): Promise<PKI> {
  const dir = join(dataDir, 'pki');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = await ensureCA(dir, 'ca', 'kube-ts-ca');
  const serving = await ensureLeaf(dir, 'apiserver', ca, {
    subject: 'CN=kube-apiserver',
    server: true,
    hosts: [...new Set(['127.0.0.1', '::1', 'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', ...opts.hosts])],
  });
  const admin = await ensureLeaf(dir, 'admin', ca, { subject: 'CN=system:admin, O=system:masters', server: false, hosts: [] });
  const frontProxyCA = await ensureCA(dir, 'front-proxy-ca', 'kube-ts-front-proxy-ca');
  const frontProxyClient = await ensureLeaf(dir, 'front-proxy-client', frontProxyCA, { subject: `CN=${FRONT_PROXY_CLIENT_NAME}`, server: false, hosts: [] });
  ensureServiceAccountKeyPair(dir);
  return {
    dir,
    caCertPEM: ca.cert.toString('pem'),
    servingCertPEM: serving.certPEM,
    servingKeyPEM: serving.keyPEM,
    adminCertPEM: admin.certPEM,
    adminKeyPEM: admin.keyPEM,
    frontProxyCACertPEM: frontProxyCA.cert.toString('pem'),
    frontProxyClientCertPEM: frontProxyClient.certPEM,
    frontProxyClientKeyPEM: frontProxyClient.keyPEM,
  };
}

/** Loads `<dir>/<name>.{crt,key}`, or makes a self-signed CA there valid for 10 years. */
export async function ensureCA(dir: string, name: string, commonName: string): Promise<Issuer> {
  const existing = readPair(dir, name);
  if (existing !== undefined) return { cert: new x509.X509Certificate(existing.certPEM), key: await importKey(existing.keyPEM) };
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 10 * YEAR_MS),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  writePair(dir, name, { certPEM: cert.toString('pem'), keyPEM: await exportKey(keys.privateKey) });
  return { cert, key: keys.privateKey };
}

/**
 * Loads `<dir>/<name>.{crt,key}`, or makes a leaf certificate signed by `issuer` there (client or
 * server auth; hosts become IP or DNS SANs); an existing serving certificate missing a host is replaced.
 */
export async function ensureLeaf(dir: string, name: string, issuer: Issuer, spec: { subject: string; server: boolean; hosts: readonly string[] }): Promise<KeyPairPEM> {
  const existing = readPair(dir, name);
  if (existing !== undefined && coversHosts(existing.certPEM, spec.hosts)) return existing;
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const sans = spec.hosts.map((h) => (isIP(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: spec.subject,
    issuer: issuer.cert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + YEAR_MS),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: issuer.key,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([spec.server ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(issuer.cert),
      ...(sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans)] : []),
    ],
  });
  const pair = { certPEM: cert.toString('pem'), keyPEM: await exportKey(keys.privateKey) };
  writePair(dir, name, pair);
  return pair;
}

/**
 * kubeadm's service-account key pair: `sa.key` signs service-account tokens, `sa.pub` verifies
 * them (the defaults of --service-account-signing-key-file and --service-account-key-file). An
 * ECDSA P-256 key (kubeadm's ECDSA-P256 choice, as the rest of this PKI), SEC1 and PKIX PEM as
 * kubeadm writes them. Kept across restarts: tokens issued before stay valid; a lost `sa.pub`
 * is written again from `sa.key`.
 */
export function ensureServiceAccountKeyPair(dir: string): void {
  const keyPath = join(dir, SERVICE_ACCOUNT_KEY_FILE);
  const pubPath = join(dir, SERVICE_ACCOUNT_PUBLIC_KEY_FILE);
  if (existsSync(keyPath)) {
    if (!existsSync(pubPath)) writeFileSync(pubPath, createPublicKey(createPrivateKey(readFileSync(keyPath))).export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
    return;
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(keyPath, privateKey.export({ type: 'sec1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(pubPath, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
}

/** A serving certificate made for other hosts (a changed --bind-address) is replaced. */
function coversHosts(certPEM: string, hosts: readonly string[]): boolean {
  if (hosts.length === 0) return true;
  const san = new x509.X509Certificate(certPEM).getExtension(x509.SubjectAlternativeNameExtension);
  const names = new Set((san?.names.items ?? []).map((n) => n.value));
  return hosts.every((h) => names.has(h));
}

function readPair(dir: string, name: string): KeyPairPEM | undefined {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  if (!existsSync(certPath) || !existsSync(keyPath)) return undefined;
  return { certPEM: readFileSync(certPath, 'utf8'), keyPEM: readFileSync(keyPath, 'utf8') };
}

function writePair(dir: string, name: string, pair: KeyPairPEM): void {
  writeFileSync(join(dir, `${name}.key`), pair.keyPEM, { mode: 0o600 });
  writeFileSync(join(dir, `${name}.crt`), pair.certPEM, { mode: 0o644 });
}

async function exportKey(key: WebCrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string): Promise<WebCrypto.CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
}

function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

function isIP(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':');
}
