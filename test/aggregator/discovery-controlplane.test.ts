// Merged discovery and OpenAPI in the real control plane (in process, SQLite): an aggregated
// server registered the way a user does it (Service, Endpoints, APIService with caBundle)
// appears in /apis at its priority, in aggregated discovery with its resources, under
// /openapi/v3 with its own document and hash and in /openapi/v2; when it dies its group version
// turns Stale and its OpenAPI goes once the APIService is Available=False; it comes back with
// the server, and leaves with the APIService. Legacy /apis/<group>/<version> is the backend's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Clientset } from '../../generated/clientset/index.js';
import { wardleGroup } from '../../generated/registry/wardle.js';
import { apiGroups } from '../../generated/index.js';
import { startControlPlane, type ControlPlane } from '../../runtime/controlplane/controlplane.js';
import type { PKI } from '../../runtime/controlplane/certs.js';
import { readCredentials } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { apiService, renamedGroup, serviceObjects, startBackend, testPKI, until, type Backend } from './discovery-fixtures.js';

const GROUP = 'wardle.backend.io';
const KEY = `apis/${GROUP}/v1alpha1`;
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface AggregatedList {
  items: { metadata: { name: string }; versions: { version: string; freshness: string; resources?: { resource: string }[] }[] }[];
}

describe('merged discovery and OpenAPI in the control plane', () => {
  let dir: string;
  let pki: PKI;
  let backend: Backend;
  let plane: ControlPlane;
  let https: HttpsClient;
  let cs: Clientset;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aggregator-controlplane-'));
    // The control plane's own PKI, made first: the backend serves with a certificate of its CA
    // naming the service, and trusts its front-proxy CA.
    pki = await testPKI(dir);
    backend = await startBackend({ pki, group: renamedGroup(wardleGroup, GROUP) });
    plane = await startControlPlane({
      groups: apiGroups,
      dataDir: dir,
      securePort: 0,
      bindAddress: '127.0.0.1',
      storageBackend: 'sqlite',
      aggregator: { availabilityCheckPeriodMs: 500, discoveryCheckTimeoutMs: 2_000, connectTimeoutMs: 2_000, discoveryResyncPeriodMs: 500, openAPIResyncPeriodMs: 500 },
    });
    https = new HttpsClient(readCredentials(plane.kubeconfigPath));
    cs = new Clientset(plane.loopback);
    const [service, endpoints] = serviceObjects('remote', backend.port);
    await cs
      .coreV1()
      .services('default')
      .create(service as never);
    await cs
      .coreV1()
      .endpoints('default')
      .create(endpoints as never);
    await cs
      .apiregistrationV1()
      .apiservices()
      .create(apiService(`v1alpha1.${GROUP}`, pki, { service: 'remote', groupPriorityMinimum: 20000, versionPriority: 15 }));
  });
  after(async () => {
    https?.close();
    await plane?.stop();
    await backend?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const aggregated = async (): Promise<AggregatedList> => {
    const r = await https.request({ path: '/apis', headers: { Accept: AGGREGATED } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], AGGREGATED);
    return JSON.parse(r.text) as AggregatedList;
  };
  const version = async (): Promise<AggregatedList['items'][number]['versions'][number] | undefined> =>
    (await aggregated()).items.find((i) => i.metadata.name === GROUP)?.versions.find((v) => v.version === 'v1alpha1');
  const openapiRoot = async (): Promise<Record<string, { serverRelativeURL: string }>> => (await https.json('GET', '/openapi/v3')).body['paths'] as Record<string, { serverRelativeURL: string }>;
  const swaggerPaths = async (): Promise<Record<string, unknown>> => (await https.json('GET', '/openapi/v2')).body['paths'] as Record<string, unknown>;
  const available = async (): Promise<string | undefined> => (await cs.apiregistrationV1().apiservices().get(`v1alpha1.${GROUP}`)).status?.conditions?.find((c) => c.type === 'Available')?.status;

  it("lists the backend's group first after apiregistration (groupPriorityMinimum 20000), with its resources, Current", async () => {
    const v = await until('backend discovery published', async () => {
      const found = await version();
      return found?.freshness === 'Current' && (found.resources?.length ?? 0) > 0 ? found : undefined;
    });
    assert.deepEqual(
      v.resources!.map((r) => r.resource),
      ['fischers', 'flunders'],
    );
    const list = (await https.json('GET', '/apis')).body as { groups: { name: string }[] };
    assert.deepEqual(
      list.groups.slice(0, 2).map((g) => g.name),
      ['apiregistration.k8s.io', GROUP],
    );
    const items = (await aggregated()).items.map((i) => i.metadata.name);
    assert.deepEqual(items.slice(0, 2), ['apiregistration.k8s.io', GROUP]);
    // Local groups keep kube's APIService order behind it: the core group aside, apiextensions (16700) before wardle (1000).
    assert.ok(items.indexOf('apiextensions.k8s.io') < items.indexOf('wardle.example.com'));
    // The backend was asked as the aggregator, with the front-proxy certificate.
    const fetched = backend.requestsFor('/apis');
    assert.ok(fetched.some((r) => r.user === 'system:kube-aggregator' && r.clientCN === 'front-proxy-client'));
  });

  it('answers /apis/<group>/<version> from the backend itself (proxied)', async () => {
    const before = backend.requestsFor(`/apis/${GROUP}/v1alpha1`).length;
    const r = await https.json('GET', `/apis/${GROUP}/v1alpha1`);
    assert.equal(r.status, 200);
    assert.equal(r.body['groupVersion'], `${GROUP}/v1alpha1`);
    const proxied = backend.requestsFor(`/apis/${GROUP}/v1alpha1`).slice(before);
    assert.ok(
      proxied.some((p) => p.user === 'system:admin'),
      JSON.stringify(proxied),
    );
  });

  it("serves the backend's OpenAPI v3 document with its hash, and its paths in /openapi/v2", async () => {
    const url = await until('listed in /openapi/v3', async () => (await openapiRoot())[KEY]?.serverRelativeURL);
    const theirs = backend.openapi.groupVersion(KEY)!;
    assert.equal(url, `/openapi/v3/${KEY}?hash=${theirs.hash}`);
    const doc = await https.request({ path: url, headers: { Accept: 'application/json' } });
    assert.equal(doc.status, 200);
    assert.deepEqual(doc.body, theirs.body);
    const paths = await until('merged into /openapi/v2', async () => {
      const p = await swaggerPaths();
      return p[`/apis/${GROUP}/v1alpha1/namespaces/{namespace}/flunders`] !== undefined ? p : undefined;
    });
    assert.ok(paths['/api/v1/namespaces'] !== undefined);
  });

  it('turns Stale when the backend dies, loses its OpenAPI once unavailable, and recovers with the backend', async () => {
    await until('Available=True', async () => ((await available()) === 'True' ? true : undefined));
    await backend.stop();
    await until('Stale', async () => ((await version())?.freshness === 'Stale' ? true : undefined));
    assert.deepEqual(
      (await version())!.resources!.map((r) => r.resource),
      ['fischers', 'flunders'],
    );
    await until('Available=False', async () => ((await available()) === 'False' ? true : undefined));
    await until('OpenAPI removed', async () =>
      (await openapiRoot())[KEY] === undefined && (await swaggerPaths())[`/apis/${GROUP}/v1alpha1/namespaces/{namespace}/flunders`] === undefined ? true : undefined,
    );

    await backend.start();
    await until('Current again', async () => ((await version())?.freshness === 'Current' ? true : undefined));
    await until('OpenAPI back', async () => ((await openapiRoot())[KEY] !== undefined ? true : undefined));
  });

  it('drops the group with its APIService', async () => {
    await cs.apiregistrationV1().apiservices().delete(`v1alpha1.${GROUP}`);
    await until('gone from discovery', async () => ((await aggregated()).items.some((i) => i.metadata.name === GROUP) ? undefined : true));
    const list = (await https.json('GET', '/apis')).body as { groups: { name: string }[] };
    assert.ok(!list.groups.some((g) => g.name === GROUP));
    await until('gone from OpenAPI', async () => ((await openapiRoot())[KEY] === undefined ? true : undefined));
  });
});
