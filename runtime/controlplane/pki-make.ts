import type * as X509 from '@peculiar/x509';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, webcrypto, X509Certificate, type webcrypto as WebCrypto } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// What makes certificates and keys on disk. It imports nothing of the control plane, so that the
// thread making a first start's PKI (pki-worker.ts) loads only this and the x509 library.

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

/** A leaf certificate's request: client or server auth; hosts become IP or DNS SANs. */
export interface LeafSpec {
  readonly subject: string;
  readonly server: boolean;
  readonly hosts: readonly string[];
}

/**
 * The files of a PKI directory, as data (a thread is handed it): self-signed CAs, leaves each
 * signed by one of them, and an ECDSA key pair without certificate (service-account tokens).
 */
export interface PKIPlan {
  readonly cas: readonly { readonly name: string; readonly commonName: string }[];
  readonly leaves: readonly (LeafSpec & { readonly name: string; readonly issuer: string })[];
  readonly keyPair: { readonly keyFile: string; readonly publicKeyFile: string };
}

/**
 * Makes what is missing of `plan` in `dir` and answers every certificate and key of it by name.
 * One maker at a time per directory, across processes: two starts on one fresh data dir would
 * otherwise each make a CA, and one's leaves would end up beside the other's CA.
 */
export async function makePKI(dir: string, plan: PKIPlan): Promise<Record<string, KeyPairPEM>> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return withLock(dir, async () => {
    const pairs: Record<string, KeyPairPEM> = {};
    // A CA is loaded (or made) only when a leaf must be signed: on an existing PKI nothing is parsed.
    const issuers = new Map<string, Promise<Issuer>>();
    const issuer = (name: string): Promise<Issuer> => {
      let loaded = issuers.get(name);
      if (loaded === undefined) {
        const ca = plan.cas.find((c) => c.name === name);
        if (ca === undefined) throw new Error(`no CA ${name} in the PKI plan`);
        loaded = ensureCA(dir, name, ca.commonName);
        issuers.set(name, loaded);
      }
      return loaded;
    };
    for (const ca of plan.cas) {
      pairs[ca.name] = readPair(dir, ca.name) ?? (await pairOf(dir, ca.name, await issuer(ca.name)));
    }
    for (const leaf of plan.leaves) pairs[leaf.name] = await ensureLeaf(dir, leaf.name, () => issuer(leaf.issuer), leaf);
    ensureKeyPairFiles(dir, plan.keyPair.keyFile, plan.keyPair.publicKeyFile);
    return pairs;
  });
}

/** The pair of a CA just made (its files are written): the certificate, and the key as written. */
async function pairOf(dir: string, name: string, ca: Issuer): Promise<KeyPairPEM> {
  return readPair(dir, name) ?? { certPEM: ca.cert.toString('pem'), keyPEM: await exportKey(ca.key) };
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
export async function ensureLeaf(dir: string, name: string, signer: Issuer | (() => Promise<Issuer>), spec: LeafSpec): Promise<KeyPairPEM> {
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
 * An ECDSA P-256 key pair as kubeadm writes the service-account one: SEC1 private key, PKIX
 * public key. Kept once made; a lost public key is written again from the private one.
 */
export function ensureKeyPairFiles(dir: string, keyFile: string, publicKeyFile: string): void {
  const keyPath = join(dir, keyFile);
  const pubPath = join(dir, publicKeyFile);
  if (existsSync(keyPath)) {
    if (!existsSync(pubPath)) writeAtomically(pubPath, createPublicKey(createPrivateKey(readFileSync(keyPath))).export({ type: 'spki', format: 'pem' }), 0o644);
    return;
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeAtomically(keyPath, privateKey.export({ type: 'sec1', format: 'pem' }), 0o600);
  writeAtomically(pubPath, publicKey.export({ type: 'spki', format: 'pem' }), 0o644);
}

/** A serving certificate made for other hosts (a changed --bind-address) is replaced. */
export function coversHosts(certPEM: string, hosts: readonly string[]): boolean {
  if (hosts.length === 0) return true;
  const cert = new X509Certificate(certPEM);
  // Only the SANs count (a host named by the subject's CN alone is not covered), and exactly.
  return hosts.every((h) => (isIP(h) ? cert.checkIP(h) !== undefined : cert.checkHost(h, { subject: 'never', wildcards: false }) !== undefined));
}

export function readPair(dir: string, name: string): KeyPairPEM | undefined {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  if (!existsSync(certPath) || !existsSync(keyPath)) return undefined;
  return { certPEM: readFileSync(certPath, 'utf8'), keyPEM: readFileSync(keyPath, 'utf8') };
}

// The key before the certificate: a reader takes a pair only once both exist.
function writePair(dir: string, name: string, pair: KeyPairPEM): void {
  writeAtomically(join(dir, `${name}.key`), pair.keyPEM, 0o600);
  writeAtomically(join(dir, `${name}.crt`), pair.certPEM, 0o644);
}

/** Written beside and renamed into place: a reader sees the old file or the new one, never part of one. */
function writeAtomically(path: string, data: string | Buffer, mode: number): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, path);
}

/** A lock older than this was left by a maker that died: making a PKI takes well under a second. */
const STALE_LOCK_MS = 30_000;

/**
 * Runs `make` holding `<dir>/.lock` (created exclusively, naming the holder's pid), waiting while
 * another holds it. A lock whose process is gone (a start killed while making) is taken over.
 */
async function withLock<T>(dir: string, make: () => Promise<T>): Promise<T> {
  const lock = join(dir, '.lock');
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (staleLock(lock)) {
      takeOver(lock);
      continue;
    }
    await sleep(20);
  }
  try {
    return await make();
  } finally {
    removeLock(lock);
  }
}

function staleLock(lock: string): boolean {
  let holder: number;
  let age: number;
  try {
    holder = Number(readFileSync(lock, 'utf8'));
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile: the next attempt takes it
  }
  if (age > STALE_LOCK_MS) return true;
  // Written but not yet named (its holder is between create and write): not stale.
  if (!Number.isInteger(holder) || holder <= 0 || holder === process.pid) return false;
  try {
    process.kill(holder, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function removeLock(lock: string): void {
  rmSync(lock, { force: true });
}

/** A takeover older than this was left by a process that died inside it (it takes microseconds). */
const STALE_TAKEOVER_MS = 5_000;

/**
 * Removes a stale lock, one process at a time: two makers that judged the same dead lock stale
 * must not both remove it, or the second would remove the lock the first has just taken. The
 * remover holds `<lock>.takeover` (created exclusively) and judges the lock again under it.
 */
function takeOver(lock: string): void {
  const takeover = `${lock}.takeover`;
  try {
    writeFileSync(takeover, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      if (Date.now() - statSync(takeover).mtimeMs > STALE_TAKEOVER_MS) rmSync(takeover, { force: true });
    } catch {
      // gone meanwhile
    }
    return; // another maker is taking over: try the lock again
  }
  try {
    if (staleLock(lock)) removeLock(lock);
  } finally {
    rmSync(takeover, { force: true });
  }
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
