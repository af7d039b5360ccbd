// Files replaced as tools replace them, waits bounded generously for a busy machine, and what a
// TLS client of a reloading server sees.
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type Agent } from 'node:https';
import { connect, type TLSSocket } from 'node:tls';
import { ensureCA, ensureLeaf } from '../../../runtime/controlplane/certs.js';
import type { Logger } from '../../../runtime/endpoints/filters/log.js';
import { newCA, newLeaf, type KeyPair, type TestCA } from '../pki.js';

let n = 0;

/** Writes a temporary file next to `path` and renames it over `path` (kubectl, editors, Secret volumes). */
export function replaceFile(path: string, content: string): void {
  const tmp = `${path}.tmp-${process.pid}-${n++}`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** A temporary directory with `made/` (certificates the test makes) and `flags/` (the files the server is given). */
export function certDirs(prefix: string): { dir: string; made: string; flags: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const made = join(dir, 'made');
  const flags = join(dir, 'flags');
  mkdirSync(made);
  mkdirSync(flags);
  return { dir, made, flags };
}

/**
 * Two serving pairs for 127.0.0.1 (`CN=<prefix>-a`, `CN=<prefix>-b`) signed by one CA, made in
 * `made`: what a test writes to the --tls-cert-file/--tls-private-key-file files and swaps.
 */
export async function servingPairs(made: string, prefix: string): Promise<{ ca: string; pem: Record<string, string> }> {
  const ca = await ensureCA(made, 'serving-ca', 'serving-ca');
  const pem: Record<string, string> = {};
  for (const name of ['a', 'b']) {
    const pair = await ensureLeaf(made, `serving-${name}`, ca, { subject: `CN=${prefix}-${name}`, server: true, hosts: ['127.0.0.1'] });
    pem[`cert-${name}`] = pair.certPEM;
    pem[`key-${name}`] = pair.keyPEM;
  }
  return { ca: ca.cert.toString('pem'), pem };
}

/** Two CAs (`CN=ca-a`, `CN=ca-b`) and two serving pairs for 127.0.0.1 that the first signs (`CN=serving-a`, `CN=serving-b`). */
export async function testCredentials(): Promise<{ caA: TestCA; caB: TestCA; pairA: KeyPair; pairB: KeyPair }> {
  const caA = await newCA('ca-a');
  const caB = await newCA('ca-b');
  const pairA = await newLeaf(caA, { subject: 'CN=serving-a', usage: 'server', ips: ['127.0.0.1'] });
  const pairB = await newLeaf(caA, { subject: 'CN=serving-b', usage: 'server', ips: ['127.0.0.1'] });
  return { caA, caB, pairA, pairB };
}

/** Polls `check` until it holds; fails after `timeoutMs` naming `what`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A logger that keeps what it is given. */
export function recordingLogger(): Logger & { readonly errors: string[]; readonly infos: string[] } {
  const errors: string[] = [];
  const infos: string[] = [];
  return { errors, infos, error: (m) => errors.push(m), info: (m) => infos.push(m) };
}

/** The subject of the certificate a new TLS connection to `port` is given (offering HTTP/2, which must still be chosen). */
export function presentedSubject(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, ALPNProtocols: ['h2', 'http/1.1'], checkServerIdentity: () => undefined }, () => {
      const subject = new X509Certificate(socket.getPeerCertificate().raw).subject;
      const alpn = socket.alpnProtocol;
      socket.end();
      if (alpn !== 'h2') reject(new Error(`ALPN chose ${String(alpn)}`));
      else resolve(subject);
    });
    socket.once('error', reject);
  });
}

/** The status of GET `path` with the client certificate `client`, on a connection of its own unless `agent` is given. */
export function get(
  port: number,
  ca: string,
  path: string,
  client?: { certPEM: string; keyPEM: string },
  agent?: Agent,
  headers: Record<string, string> = {},
): Promise<{ status: number; socket: TLSSocket; peer: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, ca, headers, ...(client !== undefined ? { cert: client.certPEM, key: client.keyPEM } : {}), agent: agent ?? false, checkServerIdentity: () => undefined },
      (res) => {
        const socket = res.socket as TLSSocket;
        const peer = new X509Certificate(socket.getPeerCertificate().raw).subject;
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode ?? 0, socket, peer }));
      },
    );
    req.once('error', reject);
    req.end();
  });
}

export function fingerprints(pem: string): string[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((b) => new X509Certificate(b).fingerprint256);
}
