// The aggregator's OpenAPI controller over the APIService registration (registration
// controller and handler manager over the generated fake clientset with APIService, Service and
// Endpoints objects) and in-process HTTPS backends behind those Services: a backend's v3 document of the APIService's
// group version served and listed as ours with the backend's hash, its /openapi/v2 merged into
// ours (conflicting definitions renamed as kube-openapi does), nothing downloaded again while
// hashes and ETags say nothing changed, and everything removed when the APIService is
// Available=False or deleted, a local document it hid showing again.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { APIService } from '../../apis/apiregistration/v1/types.js';
import { apiGroups } from '../../generated/index.js';
import { wardleGroup } from '../../generated/registry/wardle.js';
import { AggregatedOpenAPIController } from '../../runtime/aggregator/openapi-controller.js';
import type { PKI } from '../../runtime/controlplane/certs.js';
import { openAPIFromGroupDefinition, OpenAPIService, type OpenAPIV3Document } from '../../runtime/server/openapi/index.js';
import { apiService, renamedGroup, serviceObjects, startBackend, startRegistration, testPKI, until, type Backend, type Registration } from './discovery-fixtures.js';

const REMOTE = 'wardle.backend.io';
const sha512 = (b: Buffer): string => createHash('sha512').update(b).digest('hex').toUpperCase();

interface SwaggerV2 {
  paths: Record<string, Record<string, unknown>>;
  definitions: Record<string, unknown>;
}

describe('aggregated OpenAPI controller', () => {
  let dir: string;
  let pki: PKI;
  let remote: Backend;
  let wardle: Backend;
  let services: object[];
  const svc = (name: string, service: string): APIService => apiService(name, pki, { service, available: 'True' });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aggregator-openapi-'));
    pki = await testPKI(dir);
    remote = await startBackend({ pki, group: renamedGroup(wardleGroup, REMOTE) });
    wardle = await startBackend({ pki, group: wardleGroup });
    services = [...serviceObjects('remote', remote.port), ...serviceObjects('wardle', wardle.port)];
  });
  after(async () => {
    await wardle.stop();
    await remote.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Env {
    readonly cs: Registration['cs'];
    readonly openapi: OpenAPIService;
    readonly controller: AggregatedOpenAPIController;
    close(): Promise<void>;
  }

  async function startEnv(apiServices: APIService[]): Promise<Env> {
    const registration = await startRegistration(pki, [...apiServices, ...services]);
    const openapi = new OpenAPIService();
    for (const def of apiGroups) for (const gv of openAPIFromGroupDefinition(def)) openapi.setGroupVersion(gv.group, gv.version, gv.document);
    const controller = new AggregatedOpenAPIController({
      apiServices: registration.registry,
      openapi,
      resyncPeriodMs: 3_600_000,
      onError: () => {},
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    return {
      cs: registration.cs,
      openapi,
      controller,
      async close() {
        stop.abort();
        await running;
        await registration.close();
      },
    };
  }

  const rootPaths = (s: OpenAPIService): Record<string, { serverRelativeURL: string }> => (JSON.parse(s.root().body.toString()) as { paths: Record<string, { serverRelativeURL: string }> }).paths;
  const v2 = (s: OpenAPIService): SwaggerV2 => JSON.parse(s.swaggerV2().body.toString()) as SwaggerV2;
  const backendRootURL = (key: string): string => rootPaths(remote.openapi)[key]!.serverRelativeURL;

  it("serves the backend's v3 document of the APIService's group version as ours, listed with the backend's hash", async () => {
    const env = await startEnv([svc(`v1alpha1.${REMOTE}`, 'remote')]);
    try {
      const key = `apis/${REMOTE}/v1alpha1`;
      await until('listed', () => rootPaths(env.openapi)[key]);
      assert.equal(rootPaths(env.openapi)[key]!.serverRelativeURL, backendRootURL(key));
      const ours = env.openapi.groupVersion(key)!;
      const theirs = remote.openapi.groupVersion(key)!;
      assert.deepEqual(ours.body, theirs.body);
      assert.equal(ours.hash, sha512(theirs.body));
      // Only what an APIService names.
      assert.equal(rootPaths(env.openapi)[`apis/${REMOTE}/v1beta1`], undefined);
      // Local documents stay.
      assert.ok(rootPaths(env.openapi)['api/v1'] !== undefined);
      // Downloaded as the aggregator.
      const fetched = remote.requestsFor(`/openapi/v3/${key}`);
      assert.equal(fetched.at(-1)!.user, 'system:kube-aggregator');
    } finally {
      await env.close();
    }
  });

  it("merges the backend's /openapi/v2 paths of that group version into ours, renaming a conflicting definition and its references", async () => {
    const env = await startEnv([svc(`v1alpha1.${REMOTE}`, 'remote')]);
    try {
      const collection = `/apis/${REMOTE}/v1alpha1/namespaces/{namespace}/flunders`;
      await until('v2 merged', () => v2(env.openapi).paths[collection]);
      const doc = v2(env.openapi);
      assert.equal(Object.keys(doc.paths).filter((p) => p.startsWith(`/apis/${REMOTE}/v1beta1/`)).length, 0);
      // The local wardle.example.com Flunder and the backend's differ (their GVK): the backend's is renamed.
      const local = 'com.example.wardle.v1alpha1.Flunder';
      assert.ok(doc.definitions[local] !== undefined);
      assert.ok(doc.definitions[`${local}_v2`] !== undefined);
      const gvkGroups = (name: string): string[] => (doc.definitions[name] as { 'x-kubernetes-group-version-kind': { group: string }[] })['x-kubernetes-group-version-kind'].map((g) => g.group);
      assert.ok(gvkGroups(`${local}_v2`).includes(REMOTE));
      assert.ok(!gvkGroups(local).includes(REMOTE));
      const get = doc.paths[`${collection}/{name}`]!['get'] as { responses: { '200': { schema: { $ref: string } } } };
      assert.equal(get.responses['200'].schema.$ref, `#/definitions/${local}_v2`);
      const localGet = doc.paths['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}']!['get'] as { responses: { '200': { schema: { $ref: string } } } };
      assert.equal(localGet.responses['200'].schema.$ref, `#/definitions/${local}`);
      // Equal definitions are shared, not copied.
      assert.equal(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2'], undefined);
    } finally {
      await env.close();
    }
  });

  it('asks again with ETags and hashes: nothing is downloaded while the backend has not changed, one document when it has', async () => {
    const env = await startEnv([svc(`v1alpha1.${REMOTE}`, 'remote')]);
    const key = `apis/${REMOTE}/v1alpha1`;
    const original = remote.openapi.groupVersion(key)!;
    try {
      await until('listed', () => rootPaths(env.openapi)[key]);
      const seen = remote.requests.length;
      env.controller.resync();
      const root = await until('root asked again', () => remote.requests.slice(seen).find((r) => r.path === '/openapi/v3'));
      const swagger = await until('v2 asked again', () => remote.requests.slice(seen).find((r) => r.path === '/openapi/v2'));
      assert.equal(root.status, 304);
      assert.equal(root.ifNoneMatch, `"${remote.openapi.root().hash}"`);
      assert.equal(swagger.status, 304);
      assert.deepEqual(
        remote.requests.slice(seen).filter((r) => r.path.startsWith('/openapi/v3/')),
        [],
      );

      // A new document on the backend: a new hash in its root, fetched once.
      const changed = JSON.parse(original.body.toString()) as OpenAPIV3Document & { info: { title: string; version: string } };
      remote.openapi.setGroupVersion(REMOTE, 'v1alpha1', { ...changed, info: { ...changed.info, title: 'Wardle backend' } });
      const before = remote.requests.length;
      env.controller.resync();
      await until('new hash listed', () => (rootPaths(env.openapi)[key]!.serverRelativeURL === backendRootURL(key) ? true : undefined));
      assert.equal(JSON.parse(env.openapi.groupVersion(key)!.body.toString()).info.title, 'Wardle backend');
      const downloads = remote.requests.slice(before).filter((r) => r.path.startsWith(`/openapi/v3/${key}`));
      assert.equal(downloads.length, 1);
      assert.equal(downloads[0]!.status, 200);
    } finally {
      remote.openapi.setGroupVersion(REMOTE, 'v1alpha1', JSON.parse(original.body.toString()) as OpenAPIV3Document);
      await env.close();
    }
  });

  it('keeps the last documents while the backend is down, removes them once the APIService is Available=False or deleted', async () => {
    const env = await startEnv([svc(`v1alpha1.${REMOTE}`, 'remote')]);
    const key = `apis/${REMOTE}/v1alpha1`;
    const path = `/apis/${REMOTE}/v1alpha1/namespaces/{namespace}/flunders`;
    try {
      await until('listed', () => (rootPaths(env.openapi)[key] !== undefined && v2(env.openapi).paths[path] !== undefined ? true : undefined));
      await remote.stop();
      env.controller.resync();
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(rootPaths(env.openapi)[key] !== undefined);
      assert.ok(v2(env.openapi).paths[path] !== undefined);

      const apis = env.cs.apiregistrationV1().apiservices();
      const svc = await apis.get(`v1alpha1.${REMOTE}`);
      await apis.updateStatus({ ...svc, status: { conditions: [{ type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: 'down' }] } });
      await until('removed', () => (rootPaths(env.openapi)[key] === undefined && v2(env.openapi).paths[path] === undefined ? true : undefined));
      assert.equal(v2(env.openapi).definitions['com.example.wardle.v1alpha1.Flunder_v2'], undefined);

      await remote.start();
      const back = await apis.get(`v1alpha1.${REMOTE}`);
      await apis.updateStatus({ ...back, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Passed' }] } });
      await until('back', () => (rootPaths(env.openapi)[key] !== undefined && v2(env.openapi).paths[path] !== undefined ? true : undefined));

      await apis.delete(`v1alpha1.${REMOTE}`);
      await until('gone', () => (rootPaths(env.openapi)[key] === undefined && v2(env.openapi).paths[path] === undefined ? true : undefined));
    } finally {
      await env.close();
    }
  });

  it('hides the document of a group version also served in process while an APIService points it at a backend', async () => {
    const backend = wardle;
    const key = 'apis/wardle.example.com/v1alpha1';
    const original = backend.openapi.groupVersion(key)!;
    const changed = JSON.parse(original.body.toString()) as OpenAPIV3Document & { info: { title: string; version: string } };
    backend.openapi.setGroupVersion('wardle.example.com', 'v1alpha1', { ...changed, info: { ...changed.info, title: 'Remote wardle' } });
    const env = await startEnv([svc('v1alpha1.wardle.example.com', 'wardle')]);
    const localHash = env.openapi.groupVersion(key)!.hash;
    try {
      await until('remote document', () => (env.openapi.groupVersion(key)!.hash !== localHash ? true : undefined));
      assert.equal(JSON.parse(env.openapi.groupVersion(key)!.body.toString()).info.title, 'Remote wardle');
      assert.equal(rootPaths(env.openapi)[key]!.serverRelativeURL, rootPaths(backend.openapi)[key]!.serverRelativeURL);
      // In /openapi/v2 the group version's paths are the backend's, its definitions unrenamed (equal to the hidden local ones).
      assert.equal(v2(env.openapi).definitions['com.example.wardle.v1alpha1.Flunder_v2'], undefined);
      assert.ok(v2(env.openapi).paths['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders'] !== undefined);

      await env.cs.apiregistrationV1().apiservices().delete('v1alpha1.wardle.example.com');
      await until('local document back', () => (env.openapi.groupVersion(key)!.hash === localHash ? true : undefined));
      assert.ok(v2(env.openapi).paths['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders'] !== undefined);
    } finally {
      backend.openapi.setGroupVersion('wardle.example.com', 'v1alpha1', JSON.parse(original.body.toString()) as OpenAPIV3Document);
      await env.close();
    }
  });
});
