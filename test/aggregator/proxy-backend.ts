// Shared pieces of the aggregator's registration, proxy and availability tests: a small
// aggregated API server in this process (HTTPS with its own CA, request-header authentication
// that trusts only the control plane's front-proxy CA) and the objects that put it behind the
// aggregator (Service, Endpoints, APIService).
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { webcrypto } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { requestHeaderAuthenticator } from '../../runtime/authentication/requestheader.js';
import { CABundle, ClientCertificateVerifier } from '../../runtime/authentication/clientcert.js';
import type { UserInfo } from '../../runtime/apimachinery/request/types.js';
import { adaptRequest } from '../../runtime/apimachinery/request/http.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface KeyPair {
  readonly certPEM: string;
  readonly keyPEM: string;
}

/** A CA and a serving certificate it signs for `dnsNames`. */
export async function servingPKI(dnsNames: readonly string[], caName = 'backend-ca'): Promise<{ caPEM: string; serving: KeyPair }> {
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${caName}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86_400_000),
    signingAlgorithm: ALGORITHM,
    keys: caKeys,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true)],
  });
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${dnsNames[0] ?? 'backend'}`,
    issuer: ca.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86_400_000),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(dnsNames.map((value) => ({ type: 'dns' as const, value }))),
    ],
  });
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyPEM = `-----BEGIN PRIVATE KEY-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  return { caPEM: ca.toString('pem'), serving: { certPEM: cert.toString('pem'), keyPEM } };
}

/** What the backend saw of one request. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly user: UserInfo | undefined;
  /** Every header as received, lower-case names, repeats kept. */
  readonly headers: NodeJS.Dict<string[]>;
}

/** A handler of the backend's own: answers the request or returns false to get the default. */
export type BackendRoute = (req: IncomingMessage, res: ServerResponse, user: UserInfo) => boolean | Promise<boolean>;

/**
 * An aggregated API server for one group version, in this process: it answers discovery of
 * `/apis/<group>/<version>`, echoes every other request (method, path, user, headers, body) as
 * JSON unless a route takes it, and switches protocols to an echo for upgrade requests. Only
 * clients whose certificate the front-proxy CA signed get in (TLS), and the user is what
 * the request-header authenticator makes of the X-Remote-* headers.
 */
export class TestBackend {
  readonly seen: SeenRequest[] = [];
  readonly routes: BackendRoute[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket | Duplex>();
  port = 0;

  private constructor(
    readonly group: string,
    readonly version: string,
    readonly caPEM: string,
    private readonly serving: KeyPair,
    private readonly frontProxyCAPEM: string,
  ) {}

  /** A backend whose certificate names `<service>.<namespace>.svc`, trusting the control plane's front-proxy CA (from its data dir). */
  static async start(o: { group: string; version: string; service: { namespace: string; name: string }; dataDir: string }): Promise<TestBackend> {
    const { caPEM, serving } = await servingPKI([`${o.service.name}.${o.service.namespace}.svc`]);
    const frontProxyCAPEM = readFileSync(join(o.dataDir, 'pki', 'front-proxy-ca.crt'), 'utf8');
    const b = new TestBackend(o.group, o.version, caPEM, serving, frontProxyCAPEM);
    await b.listen(0);
    return b;
  }

  /** The last request the backend saw whose URL starts with `prefix`. */
  last(prefix: string): SeenRequest | undefined {
    return this.seen.filter((s) => s.url.startsWith(prefix)).at(-1);
  }

  /** Starts serving again on the same port (after stop()). */
  async listen(port = this.port): Promise<void> {
    const server = createServer({ cert: this.serving.certPEM, key: this.serving.keyPEM, ca: this.frontProxyCAPEM, requestCert: true, rejectUnauthorized: true });
    const authenticator = requestHeaderAuthenticator({
      verifier: new ClientCertificateVerifier(new CABundle(this.frontProxyCAPEM, 'front-proxy-ca')),
      allowedNames: ['front-proxy-client'],
      usernameHeaders: ['X-Remote-User'],
      uidHeaders: ['X-Remote-Uid'],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
    });
    const identify = async (raw: IncomingMessage, res: ServerResponse): Promise<UserInfo | undefined> => {
      const headers = structuredClone(raw.headersDistinct);
      const { req } = adaptRequest(raw, res);
      const user = (await authenticator.authenticate(req))?.user;
      this.seen.push({ method: raw.method ?? '', url: raw.url ?? '', user, headers });
      return user;
    };
    server.on('connection', (s: Socket) => this.track(s));
    server.on('request', (raw: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const user = await identify(raw, res);
        if (user === undefined) return json(res, 401, { kind: 'Status', code: 401, reason: 'Unauthorized' });
        for (const route of this.routes) if (await route(raw, res, user)) return;
        this.answer(raw, res, user);
      })();
    });
    server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.track(socket);
      void (async () => {
        const fake = { setHeader: () => undefined, once: () => undefined } as unknown as ServerResponse;
        const user = await identify(raw, fake);
        if (user === undefined) {
          socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
          return;
        }
        socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${raw.headers.upgrade ?? ''}\r\nX-Backend-User: ${user.name}\r\n\r\n`);
        if (head.length > 0) socket.write(Buffer.concat([Buffer.from('echo:'), head]));
        socket.on('data', (d: Buffer) => socket.write(Buffer.concat([Buffer.from('echo:'), d])));
      })();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /** Stops listening and cuts every connection: the backend is down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(s: Socket | Duplex): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  private answer(raw: IncomingMessage, res: ServerResponse, user: UserInfo): void {
    const path = (raw.url ?? '').split('?')[0];
    if (path === `/apis/${this.group}/${this.version}`) {
      return json(res, 200, {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: `${this.group}/${this.version}`,
        resources: [{ name: 'things', singularName: 'thing', namespaced: true, kind: 'Thing', verbs: ['get', 'list', 'create', 'watch'] }],
      });
    }
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => json(res, 200, { method: raw.method, url: raw.url, user, body: Buffer.concat(chunks).toString('utf8') }));
  }
}

export function json(res: ServerResponse, code: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
  res.end(bytes);
}

/** The Service, Endpoints (the backend's address) and APIService that put a backend behind the aggregator. */
export function registration(
  b: { group: string; version: string; port: number; caPEM: string },
  service: { namespace: string; name: string },
  o: { caPEM?: string; servicePort?: number; insecure?: boolean } = {},
) {
  const servicePort = o.servicePort ?? 443;
  return {
    service: { apiVersion: 'v1', kind: 'Service', metadata: { ...service }, spec: { ports: [{ name: 'https', protocol: 'TCP' as const, port: servicePort, targetPort: b.port }] } },
    endpoints: { apiVersion: 'v1', kind: 'Endpoints', metadata: { ...service }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', protocol: 'TCP' as const, port: b.port }] }] },
    apiService: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: `${b.version}.${b.group}` },
      spec: {
        group: b.group,
        version: b.version,
        service: { ...service, ...(servicePort !== 443 ? { port: servicePort } : {}) },
        ...(o.insecure === true ? { insecureSkipTLSVerify: true } : { caBundle: Buffer.from(o.caPEM ?? b.caPEM).toString('base64') }),
        groupPriorityMinimum: 1000,
        versionPriority: 15,
      },
    },
  };
}
