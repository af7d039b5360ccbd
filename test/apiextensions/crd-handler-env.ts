// The CRD handler alone, in process, on SQLite, behind a plain HTTP server: one established CRD
// and raw requests with their status, JSON body and Warning headers. For tests of how custom
// resources are decoded and validated, without a control plane.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiextensionsGroup } from '../../generated/registry/apiextensions.js';
import { newAdmissionChain } from '../../runtime/admission/types.js';
import { newCRDHandler, StorageCRDSource } from '../../runtime/apiextensions/index.js';
import { systemContext } from '../../runtime/controlplane/loopback.js';
import { resolveRequestInfo } from '../../runtime/apimachinery/request/requestinfo.js';
import { adaptRequest } from '../../runtime/apimachinery/request/http.js';
import { createResourceStorage, storagePrefix } from '../../runtime/registry/generic/index.js';
import type { KubeObject } from '../../runtime/registry/rest.js';
import { notFoundHandler } from '../../runtime/server/delegation.js';
import { newStorageFactory } from '../../runtime/storage/index.js';
import { CRONTABS, cronTabCRD, cronTabVersion, eventually, type Obj } from './env.js';

export interface Answer {
  status: number;
  body: Obj;
  /** The Warning headers' texts. */
  warnings: string[];
}

export interface CRDHandlerEnv {
  call(method: string, path: string, payload?: unknown, contentType?: string): Promise<Answer>;
  close(): Promise<void>;
}

const ctx = systemContext('', { signal: new AbortController().signal });
const allow = async (): Promise<void> => {};
const write = { dryRun: false, fieldManager: 'test' };

/** Serves `crd` (its names accepted and Established, as the controllers would make it) until `collection` answers 200. */
export async function startCRDHandler(crd: Obj, collection: string): Promise<CRDHandlerEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'crd-handler-env-'));
  const factory = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'db') } });
  const crds = createResourceStorage({
    group: apiextensionsGroup,
    kind: 'CustomResourceDefinition',
    storage: await factory.forResource({ resourcePrefix: storagePrefix('apiextensions.k8s.io', 'customresourcedefinitions') }),
  });
  const source = new StorageCRDSource({ storage: crds.main, context: (parent) => systemContext('', parent), relistDelayMs: 50 });
  const handler = newCRDHandler({ source, factory, admission: newAdmissionChain([]), delegate: notFoundHandler() });
  await source.start();
  const server = createServer((raw, response) => {
    const { req, res } = adaptRequest(raw, response);
    req.info = resolveRequestInfo(req.method, req.path, req.query);
    void handler.handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const call = (method: string, path: string, payload?: unknown, contentType = 'application/json'): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const text = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
      const headers = text === undefined ? {} : { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) };
      const r = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const t = Buffer.concat(chunks).toString('utf8');
          const warning = res.headers['warning'];
          const warnings = (warning === undefined ? [] : Array.isArray(warning) ? warning : warning.split(/,(?=\s*299)/)).map((w) => JSON.parse(w.trim().replace(/^299 - /, '')) as string);
          resolve({ status: res.statusCode ?? 0, body: /json/.test(res.headers['content-type'] ?? '') ? (JSON.parse(t) as Obj) : { text: t }, warnings });
        });
      });
      r.on('error', reject);
      r.end(text);
    });

  const names = (crd['spec'] as { names: Obj }).names;
  await crds.main.create(ctx, structuredClone(crd) as KubeObject, allow, write);
  await crds.status!.update(
    ctx,
    String((crd['metadata'] as Obj)['name']),
    {
      preconditions: () => undefined,
      updatedObject: async (_c, old) => ({
        ...(old as KubeObject),
        status: {
          acceptedNames: names,
          conditions: [
            { type: 'NamesAccepted', status: 'True' },
            { type: 'Established', status: 'True' },
          ],
        },
      }),
    },
    { create: allow, update: allow },
    { ...write, forceAllowCreate: false },
  );
  await eventually(async () => assert.equal((await call('GET', collection)).status, 200));
  return {
    call,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await source.stop();
      await handler.stop();
      await factory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The CronTab CRD of env.ts served in v1 with `schema`, and CronTab `ct` (replicas 1) created in `default`. */
export async function startCronTabHandler(schema: Obj): Promise<CRDHandlerEnv> {
  const crd = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true, schema })] });
  (crd['spec'] as { names: Obj }).names['listKind'] = 'CronTabList';
  const env = await startCRDHandler(crd, CRONTABS);
  const created = await env.call('POST', CRONTABS, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'ct' }, spec: { image: 'x', replicas: 1 } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return env;
}

/** A 422 Invalid on `kind` `name` of stable.example.com whose message aggregates `causes` as kube's does. */
export function assertInvalid(r: { status: number; body: Obj }, name: string, causes: readonly string[], kind = 'CronTab'): void {
  const list = causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`;
  assert.deepEqual([r.status, r.body['reason'], r.body['message']], [422, 'Invalid', `${kind}.stable.example.com "${name}" is invalid: ${list}`]);
}
