import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wardleGroup } from '../../generated/registry/wardle.js';
import { newAdmissionChain, type AdmissionPlugin } from '../../runtime/admission/types.js';
import { newForbidden, newNotFound } from '../../runtime/apimachinery/errors/index.js';
import { installAPIGroupVersion } from '../../runtime/endpoints/installer.js';
import { resolveRequestInfo } from '../../runtime/apimachinery/request/requestinfo.js';
import { createResourceStorage, storagePrefix } from '../../runtime/registry/generic/index.js';
import type { ResourceStorage } from '../../runtime/registry/rest.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import { adaptRequest, type Handler } from '../../runtime/apimachinery/request/http.js';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/index.js';

export { wardleGroup };

/**
 * Admission for the tests: a mutating plugin labels every created Flunder `admitted=yes`, another
 * mends the invalid `spec.referenceType: Nope` of Flunders named `mended-…` (validation runs on the
 * object as mutating admission leaves it), a validating one rejects Flunders named `banned` (as
 * BanFlunder rejects by name).
 */
const testPlugins: AdmissionPlugin[] = [
  {
    name: 'LabelFlunders',
    handles: (op) => op === 'CREATE',
    async admit(attrs) {
      if (attrs.kind !== 'Flunder' || attrs.object === undefined) return;
      const meta = (attrs.object.metadata ??= {});
      meta.labels = { ...(meta.labels ?? {}), admitted: 'yes' };
    },
  },
  {
    name: 'MendReferenceType',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(attrs) {
      if (attrs.kind !== 'Flunder' || !attrs.name.startsWith('mended-')) return;
      const spec = attrs.object?.['spec'] as Record<string, unknown> | undefined;
      if (spec?.['referenceType'] === 'Nope') spec['referenceType'] = 'Flunder';
    },
  },
  {
    name: 'BanByName',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(attrs) {
      if (attrs.kind === 'Flunder' && attrs.name === 'banned') {
        throw newForbidden({ group: attrs.group, resource: attrs.resource }, attrs.name, 'this name may not be used');
      }
    },
  },
];

export interface Response {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  json(): Record<string, unknown>;
}

export interface TestServer {
  readonly dir: string;
  readonly port: number;
  req(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** Opens a streaming GET and collects lines until `until` says stop or the server ends the stream. */
  watch(
    path: string,
    opts?: { headers?: Record<string, string>; until?: (lines: string[]) => boolean; onOpen?: () => Promise<void> },
  ): Promise<{ status: number; headers: IncomingHttpHeaders; lines: string[]; ended: boolean }>;
  close(): Promise<void>;
}

/**
 * Serves the wardle group (v1alpha1 and v1beta1) through installAPIGroupVersion over real
 * SQLite storage behind the watch cache, on loopback with a free port. `dir` reuses a data
 * directory (its files are kept on close when given).
 */
export async function startServer(opts: { dir?: string; group?: APIGroupDefinition; minRequestTimeoutSeconds?: number } = {}): Promise<TestServer> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'endpoints-'));
  const group = opts.group ?? wardleGroup;
  const factory: StorageFactory = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'db') } });
  const storages = new Map<string, ResourceStorage>();
  for (const kind of ['Flunder', 'Fischer']) {
    const plural = kind === 'Flunder' ? 'flunders' : 'fischers';
    const storage = await factory.forResource({ resourcePrefix: storagePrefix(group.name, plural) });
    storages.set(kind, createResourceStorage({ group, kind, storage }));
  }
  const admission = newAdmissionChain(testPlugins);
  const installed = group.versions.map((v) =>
    installAPIGroupVersion({ group, version: v.name, storages, admission, ...(opts.minRequestTimeoutSeconds !== undefined ? { minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds } : {}) }),
  );
  const route = (path: string): Handler | undefined => installed.find((i) => path === i.prefix || path.startsWith(`${i.prefix}/`))?.handler;
  const server: Server = createServer((raw, response) => {
    const { req, res } = adaptRequest(raw, response);
    req.info = resolveRequestInfo(req.method, req.path, req.query);
    const handler = route(req.path);
    if (handler === undefined) {
      res.writeError(newNotFound({ group: '', resource: '' }, ''));
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const req: TestServer['req'] = (method, path, o = {}) =>
    new Promise((resolve, reject) => {
      const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      const headers: Record<string, string> = {
        ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
        ...(o.headers ?? {}),
      };
      const r = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (resp) => {
        const chunks: Buffer[] = [];
        resp.on('data', (c: Buffer) => chunks.push(c));
        resp.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: resp.statusCode ?? 0, headers: resp.headers, text, json: () => JSON.parse(text) as Record<string, unknown> });
        });
        resp.on('error', reject);
      });
      r.on('error', reject);
      r.end(body);
    });

  const watch: TestServer['watch'] = (path, o = {}) =>
    new Promise((resolve, reject) => {
      const lines: string[] = [];
      let buffered = '';
      let done = false;
      const r = httpRequest({ host: '127.0.0.1', port, method: 'GET', path, headers: o.headers ?? {} }, (resp) => {
        const finish = (ended: boolean): void => {
          if (done) return;
          done = true;
          resolve({ status: resp.statusCode ?? 0, headers: resp.headers, lines, ended });
          if (!ended) r.destroy();
        };
        resp.on('data', (c: Buffer) => {
          buffered += c.toString('utf8');
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            lines.push(buffered.slice(0, nl));
            buffered = buffered.slice(nl + 1);
          }
          if (o.until?.(lines)) finish(false);
        });
        resp.on('end', () => {
          if (buffered !== '') lines.push(buffered);
          finish(true);
        });
        resp.on('error', () => finish(false));
        if (o.onOpen) o.onOpen().catch(reject);
      });
      r.on('error', (e) => (done ? undefined : reject(e)));
      r.end();
    });

  return {
    dir,
    port,
    req,
    watch,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await factory.close();
      if (opts.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const V1ALPHA1 = '/apis/wardle.example.com/v1alpha1';
export const V1BETA1 = '/apis/wardle.example.com/v1beta1';
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

export function flunderV1alpha1(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, ...metadata }, spec };
}

export function flunderV1beta1(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name, ...metadata }, spec };
}

/** The Warning header values, unquoted. */
export function warnings(r: Response): string[] {
  const h = r.headers['warning'];
  const values = h === undefined ? [] : Array.isArray(h) ? h : h.split(/,(?=\s*299)/);
  return values.map((v) => JSON.parse(v.trim().replace(/^299 - /, '')) as string);
}
