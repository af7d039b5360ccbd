import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHTTPSServer, type Server as HTTPSServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiextensionsGroup } from '../../generated/registry/apiextensions.js';
import { newAdmissionChain } from '../../runtime/admission/types.js';
import { newCRDHandler, StorageCRDSource, type CRDHandler } from '../../runtime/apiextensions/index.js';
import { ensurePKI } from '../../runtime/controlplane/certs.js';
import { systemContext } from '../../runtime/controlplane/loopback.js';
import { resolveRequestInfo } from '../../runtime/apimachinery/request/requestinfo.js';
import { createResourceStorage, storagePrefix } from '../../runtime/registry/generic/index.js';
import type { KubeObject, ResourceStorage } from '../../runtime/registry/rest.js';
import { notFoundHandler } from '../../runtime/server/delegation.js';
import { adaptRequest } from '../../runtime/apimachinery/request/http.js';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/index.js';
import { cronTabCRD, cronTabVersion, eventually, type Obj } from './env.js';

const ctx = systemContext('', { signal: new AbortController().signal });
const allow = async (): Promise<void> => {};
const write = { dryRun: false, fieldManager: 'test' };

/**
 * The CRD handler on its own: CRDs written straight into their REST storage (no controllers),
 * a StorageCRDSource watching it, the handler behind a plain HTTP server on loopback.
 */
describe('CRDHandler over a storage-backed CRD source', () => {
  let dir: string;
  let factory: StorageFactory;
  let crds: ResourceStorage;
  let source: StorageCRDSource;
  let handler: CRDHandler;
  let server: Server;
  let port: number;
  let hook: HTTPSServer;
  let hookURL: string;
  let caBundle: string;
  const held: Array<() => void> = [];
  let holdNext = false;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crd-handler-'));
    factory = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'db') } });
    crds = createResourceStorage({
      group: apiextensionsGroup,
      kind: 'CustomResourceDefinition',
      storage: await factory.forResource({ resourcePrefix: storagePrefix('apiextensions.k8s.io', 'customresourcedefinitions') }),
    });
    source = new StorageCRDSource({ storage: crds.main, context: (parent) => systemContext('', parent), relistDelayMs: 50 });
    handler = newCRDHandler({ source, factory, admission: newAdmissionChain([]), delegate: notFoundHandler() });
    await source.start();
    server = createServer((raw, response) => {
      const { req, res } = adaptRequest(raw, response);
      req.info = resolveRequestInfo(req.method, req.path, req.query);
      void handler.handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;

    // A conversion webhook that can hold its answers until told to release them.
    const pki = await ensurePKI(join(dir, 'hook'), { hosts: [] });
    caBundle = Buffer.from(pki.caCertPEM).toString('base64');
    hook = createHTTPSServer({ cert: pki.servingCertPEM, key: pki.servingKeyPEM }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string; desiredAPIVersion: string; objects: Obj[] } };
        const answer = (): void => {
          res.setHeader('Content-Type', 'application/json');
          res.end(
            JSON.stringify({
              apiVersion: 'apiextensions.k8s.io/v1',
              kind: 'ConversionReview',
              response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects: review.request.objects.map((o) => ({ ...o, apiVersion: review.request.desiredAPIVersion })) },
            }),
          );
        };
        if (holdNext) {
          holdNext = false;
          held.push(answer);
        } else answer();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookURL = `https://127.0.0.1:${(hook.address() as AddressInfo).port}/convert`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await source.stop();
    await handler.stop();
    hook.closeAllConnections();
    await new Promise<void>((resolve) => hook.close(() => resolve()));
    await factory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Obj }> {
    return new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const r = httpRequest({ host: '127.0.0.1', port, method, path, headers: text === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          // The end of the chain answers plain text (`404 page not found`), as kube does.
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: /json/.test(res.headers['content-type'] ?? '') ? (JSON.parse(text) as Obj) : { text } });
        });
      });
      r.on('error', reject);
      r.end(text);
    });
  }

  /** Writes a CRD into its storage as the API would after defaulting, then its conditions. */
  async function putCRD(crd: Obj, conditions: Array<{ type: string; status: string }>): Promise<void> {
    const spec = crd['spec'] as { names: Obj };
    spec.names['listKind'] = `${String(spec.names['kind'])}List`;
    const name = String((crd['metadata'] as Obj)['name']);
    let existing: KubeObject | undefined;
    try {
      existing = await crds.main.get(ctx, name, { resourceVersion: '' });
    } catch {
      existing = undefined;
    }
    if (existing === undefined) await crds.main.create(ctx, structuredClone(crd) as KubeObject, allow, write);
    else {
      await crds.main.update(
        ctx,
        name,
        {
          preconditions: () => undefined,
          updatedObject: async (_c, old) => ({ ...(old as KubeObject), spec: crd['spec'] }),
        },
        { create: allow, update: allow },
        { ...write, forceAllowCreate: false },
      );
    }
    await crds.status!.update(
      ctx,
      name,
      {
        preconditions: () => undefined,
        updatedObject: async (_c, old) => ({ ...(old as KubeObject), status: { ...(old?.['status'] as Obj), acceptedNames: spec.names, conditions } }),
      },
      { create: allow, update: allow },
      { ...write, forceAllowCreate: false },
    );
  }

  const PATH = '/apis/stable.example.com/v1/namespaces/default/crontabs';

  test('not served until its names are accepted or it is established; then served; no creates while terminating; gone with the CRD', async () => {
    const crd = cronTabCRD();
    await putCRD(crd, [{ type: 'NamesAccepted', status: 'False' }]);
    await eventually(async () => assert.ok(source.get('crontabs.stable.example.com') !== undefined));
    assert.equal((await call('GET', PATH)).status, 404);
    await putCRD(crd, [{ type: 'NamesAccepted', status: 'True' }]);
    await eventually(async () => assert.equal((await call('GET', PATH)).status, 200));
    const created = await call('POST', PATH, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a' }, spec: { image: 'x' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    // While the CRD terminates, its resources are read and deleted, never created.
    await putCRD(crd, [
      { type: 'NamesAccepted', status: 'True' },
      { type: 'Terminating', status: 'True' },
    ]);
    await eventually(async () => {
      const refused = await call('POST', PATH, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'b' }, spec: { image: 'x' } });
      assert.equal(refused.status, 405);
      assert.equal(refused.body['message'], 'create not allowed while custom resource definition is terminating');
    });
    assert.equal((await call('GET', `${PATH}/a`)).status, 200);
    await crds.main.delete(ctx, 'crontabs.stable.example.com', allow, {
      dryRun: false,
      gracePeriodSeconds: undefined,
      preconditions: undefined,
      propagationPolicy: undefined,
      orphanDependents: undefined,
    });
    await eventually(async () => assert.equal((await call('GET', PATH)).status, 404));
  });

  test('a request in flight when the CRD changes completes with the state it started with', async () => {
    const conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: hookURL, caBundle } } };
    const crd = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true }), cronTabVersion('v2')], conversion });
    await putCRD(crd, [{ type: 'Established', status: 'True' }]);
    const V2 = '/apis/stable.example.com/v2/namespaces/default/crontabs';
    await eventually(async () => assert.equal((await call('GET', V2)).status, 200));
    assert.equal((await call('POST', PATH, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'slow' }, spec: { image: 'x' } })).status, 201);

    holdNext = true;
    const inFlight = call('GET', `${V2}/slow`);
    await eventually(async () => assert.equal(held.length, 1));
    // Change the spec: the serving state in use is replaced, its teardown waits for the request.
    const changed = cronTabCRD({ versions: [cronTabVersion('v1', { storage: true }), cronTabVersion('v2', { extra: { additionalPrinterColumns: [] } })], conversion });
    await putCRD(changed, [{ type: 'Established', status: 'True' }]);
    await eventually(async () => assert.equal((await call('GET', `${V2}/slow`)).status, 200));
    held.shift()?.();
    const r = await inFlight;
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body['apiVersion'], 'stable.example.com/v2');
  });

  test('the CRD storage a CRD uid keeps serves the same data across rebuilds', async () => {
    const r = await call('GET', `${PATH}/slow`);
    assert.equal(r.status, 200);
    assert.equal((r.body['spec'] as Obj)['image'], 'x');
  });
});
