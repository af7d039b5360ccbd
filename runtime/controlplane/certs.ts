import type * as X509 from '@peculiar/x509';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, webcrypto, X509Certificate, type webcrypto as WebCrypto } from 'node:crypto';
import { join } from 'node:path';
import { SERVICE_ACCOUNT_KEY_FILE, SERVICE_ACCOUNT_PUBLIC_KEY_FILE } from '../server/options/serviceaccount.js';
import { FRONT_PROXY_CLIENT_NAME } from './options.js';

let x509Module: Promise<typeof X509> | undefined;

/**
 * @peculiar/x509 (and the reflect-metadata it needs), loaded only when a certificate must be
 * made: a start on an existing PKI reads PEM files and never holds the library (about 1 MiB).
 */
function x509(): Promise<typeof X509> {
  return (x509Module ??= (async () => {
    await import('reflect-metadata');
    const lib = await import('@peculiar/x509');
    lib.cryptoProvider.set(webcrypto as unknown as Parameters<typeof lib.cryptoProvider.set>[0]);
    return lib;
  })());
}

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
  cert: X509.X509Certificate;
  key: WebCrypto.CryptoKey;
}

/** Loads the PKI from dir/pki, creating what is missing. Serving SANs cover loopback and the given hosts. */
export async function ensurePKI(dataDir: string, opts: { hosts: readonly string[] }): Promise<PKI> {
  const dir = join(dataDir, 'pki');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The CAs are loaded (or made) only when a leaf must be signed: on an existing PKI nothing is parsed.
  const ca = issuerOf(dir, 'ca', 'kube-ts-ca');
  const caCertPEM = await ca.certPEM();
  const serving = await ensureLeaf(dir, 'apiserver', ca.issuer, {
    subject: 'CN=kube-apiserver',
    server: true,
    hosts: [...new Set(['127.0.0.1', '::1', 'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', ...opts.hosts])],
  });
  const admin = await ensureLeaf(dir, 'admin', ca.issuer, { subject: 'CN=system:admin, O=system:masters', server: false, hosts: [] });
  const frontProxyCA = issuerOf(dir, 'front-proxy-ca', 'kube-ts-front-proxy-ca');
  const frontProxyCACertPEM = await frontProxyCA.certPEM();
  const frontProxyClient = await ensureLeaf(dir, 'front-proxy-client', frontProxyCA.issuer, { subject: `CN=${FRONT_PROXY_CLIENT_NAME}`, server: false, hosts: [] });
  ensureServiceAccountKeyPair(dir);
  return {
    dir,
    caCertPEM,
    servingCertPEM: serving.certPEM,
    servingKeyPEM: serving.keyPEM,
    adminCertPEM: admin.certPEM,
    adminKeyPEM: admin.keyPEM,
    frontProxyCACertPEM,
    frontProxyClientCertPEM: frontProxyClient.certPEM,
    frontProxyClientKeyPEM: frontProxyClient.keyPEM,
  };
}

/** A CA of ensureCA, loaded on first use: its certificate's PEM, and the issuer that signs with it. */
function issuerOf(dir: string, name: string, commonName: string): { certPEM(): Promise<string>; issuer(): Promise<Issuer> } {
  let issuer: Promise<Issuer> | undefined;
  const load = (): Promise<Issuer> => (issuer ??= ensureCA(dir, name, commonName));
  return {
    certPEM: async () => readPair(dir, name)?.certPEM ?? (await load()).cert.toString('pem'),
    issuer: load,
  };
}

/** Loads `<dir>/<name>.{crt,key}`, or makes a self-signed CA there valid for 10 years. */
export async function ensureCA(dir: string, name: string, commonName: string): Promise<Issuer> {
  const x509lib = await x509();
  const existing = readPair(dir, name);
  if (existing !== undefined) return { cert: new x509lib.X509Certificate(existing.certPEM), key: await importKey(existing.keyPEM) };
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509lib.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 10 * YEAR_MS),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509lib.BasicConstraintsExtension(true, undefined, true),
      new x509lib.KeyUsagesExtension(x509lib.KeyUsageFlags.keyCertSign | x509lib.KeyUsageFlags.cRLSign | x509lib.KeyUsageFlags.digitalSignature, true),
      await x509lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  writePair(dir, name, { certPEM: cert.toString('pem'), keyPEM: await exportKey(keys.privateKey) });
  return { cert, key: keys.privateKey };
}

/**
 * Loads `<dir>/<name>.{crt,key}`, or makes a leaf certificate signed by `issuer` there (client or
 * server auth; hosts become IP or DNS SANs); an existing serving certificate missing a host is replaced.
 */
export async function ensureLeaf(dir: string, name: string, signer: Issuer | (() => Promise<Issuer>), spec: { subject: string; server: boolean; hosts: readonly string[] }): Promise<KeyPairPEM> {
  const existing = readPair(dir, name);
  if (existing !== undefined && coversHosts(existing.certPEM, spec.hosts)) return existing;
  const x509lib = await x509();
  const issuer = typeof signer === 'function' ? await signer() : signer;
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const sans = spec.hosts.map((h) => (isIP(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
  const cert = await x509lib.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: spec.subject,
    issuer: issuer.cert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + YEAR_MS),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: issuer.key,
    extensions: [
      new x509lib.BasicConstraintsExtension(false, undefined, true),
      new x509lib.KeyUsagesExtension(x509lib.KeyUsageFlags.digitalSignature | x509lib.KeyUsageFlags.keyEncipherment, true),
      new x509lib.ExtendedKeyUsageExtension([spec.server ? x509lib.ExtendedKeyUsage.serverAuth : x509lib.ExtendedKeyUsage.clientAuth]),
      await x509lib.AuthorityKeyIdentifierExtension.create(issuer.cert),
      ...(sans.length > 0 ? [new x509lib.SubjectAlternativeNameExtension(sans)] : []),
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
  const cert = new X509Certificate(certPEM);
  // Only the SANs count (a host named by the subject's CN alone is not covered), and exactly.
  return hosts.every((h) => (isIP(h) ? cert.checkIP(h) !== undefined : cert.checkHost(h, { subject: 'never', wildcards: false }) !== undefined));
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
