import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { discoveryFromGroupDefinition, DiscoveryManager, discoveryRoutes, newDiscoveryHandler } from '../../runtime/server/discovery/index.js';
import type { APIGroupDiscoveryList } from '../../apis/apidiscovery/v2/types.js';
import type { APIGroupList, APIResourceList } from '../../apis/meta/v1/discovery.js';
import type { Handler } from '../../runtime/apimachinery/request/http.js';
import { serveHandler, type TestServer } from './serve-handler.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const KUBECTL_130 = `${V2},${V2BETA1},application/json`;
const KUBECTL_127 = `${V2BETA1},application/json`;
const CLIENT_GO_LEGACY = 'application/json, */*';

describe('discovery handlers', () => {
  const manager = new DiscoveryManager();
  let server: TestServer;

  before(async () => {
    for (const def of apiGroups) for (const gv of discoveryFromGroupDefinition(def)) manager.setGroupVersion(gv.group, gv.version, gv.resources, gv);
    const fallThrough: Handler = async (_req, res) => res.writeBytes(418, 'delegate', 'text/plain');
    server = await serveHandler(newDiscoveryHandler(manager, { notFound: fallThrough }));
  });
  after(() => server.close());

  const negotiation: readonly { name: string; accept: string | undefined; status: number; contentType: string; apiVersion?: string; kind: string }[] = [
    { name: 'kubectl 1.30+ (v2 first)', accept: KUBECTL_130, status: 200, contentType: V2, apiVersion: 'apidiscovery.k8s.io/v2', kind: 'APIGroupDiscoveryList' },
    { name: 'kubectl 1.27-1.29 (v2beta1 only)', accept: KUBECTL_127, status: 200, contentType: V2BETA1, apiVersion: 'apidiscovery.k8s.io/v2beta1', kind: 'APIGroupDiscoveryList' },
    { name: 'parameters in any order', accept: 'application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io', status: 200, contentType: V2, kind: 'APIGroupDiscoveryList' },
    { name: 'q weights honoured', accept: `${V2};q=0.5,${V2BETA1};q=0.9,application/json;q=0.1`, status: 200, contentType: V2BETA1, kind: 'APIGroupDiscoveryList' },
    { name: 'q=0 excludes a clause', accept: `${V2};q=0,application/json`, status: 200, contentType: 'application/json', kind: 'APIGroupList' },
    { name: 'client-go legacy', accept: CLIENT_GO_LEGACY, status: 200, contentType: 'application/json', kind: 'APIGroupList' },
    { name: 'no Accept', accept: undefined, status: 200, contentType: 'application/json', kind: 'APIGroupList' },
    {
      name: 'unknown aggregated version falls to the next clause',
      accept: 'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json',
      status: 200,
      contentType: 'application/json',
      kind: 'APIGroupList',
    },
    { name: 'Table request is not discovery', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io', status: 406, contentType: 'application/json', kind: 'Status' },
    { name: 'protobuf only', accept: 'application/vnd.kubernetes.protobuf', status: 406, contentType: 'application/json', kind: 'Status' },
    { name: 'garbage', accept: 'garbage', status: 406, contentType: 'application/json', kind: 'Status' },
  ];
  for (const c of negotiation) {
    it(`negotiates /apis: ${c.name}`, async () => {
      const r = await server.get('/apis', c.accept === undefined ? {} : { accept: c.accept });
      assert.equal(r.status, c.status);
      assert.equal(r.headers.get('content-type'), c.contentType);
      const body = r.json() as { kind: string; apiVersion?: string; reason?: string };
      assert.equal(body.kind, c.kind);
      if (c.apiVersion) assert.equal(body.apiVersion, c.apiVersion);
      if (c.status === 406) assert.equal(body.reason, 'NotAcceptable');
    });
  }

  it('serves aggregated /api with only the core group and cache headers', async () => {
    const r = await server.get('/api', { accept: KUBECTL_130 });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), V2);
    assert.equal(r.headers.get('vary'), 'Accept');
    assert.equal(r.headers.get('cache-control'), 'public');
    assert.match(r.headers.get('etag') ?? '', /^"[0-9A-F]{128}"$/);
    const body = r.json() as APIGroupDiscoveryList;
    assert.equal(body.items?.length, 1);
    assert.deepEqual(body.items?.[0]?.metadata, { creationTimestamp: null });
    assert.deepEqual(
      body.items?.[0]?.versions?.[0]?.resources?.map((x) => x.resource),
      ['configmaps', 'endpoints', 'events', 'namespaces', 'secrets', 'serviceaccounts', 'services'],
    );
  });

  it('serves legacy /api as APIVersions with the address the client used', async () => {
    const r = await server.get('/api', { accept: CLIENT_GO_LEGACY });
    assert.deepEqual(r.json(), { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${server.port}` }] });
    assert.equal(r.headers.get('etag'), null);
  });

  // kube-aggregator's priorities: apiregistration first, then events (17750), authentication (17700),
  // authorization (17600), rbac (17000), apiextensions (16700), coordination (16500), then groups
  // without one (1000). The control plane's /apis lists them so (through the aggregator's APIServices).
  it('orders /apis groups by priority: apiregistration, events, authentication, authorization, rbac, apiextensions, coordination, then wardle', async () => {
    const body = (await server.get('/apis', { accept: KUBECTL_130 })).json() as APIGroupDiscoveryList;
    assert.deepEqual(
      body.items?.map((i) => i.metadata?.name),
      ['apiregistration.k8s.io', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'rbac.authorization.k8s.io', 'apiextensions.k8s.io', 'coordination.k8s.io', 'wardle.example.com'],
    );
    assert.deepEqual(
      body.items?.[7]?.versions?.map((v) => v.version),
      ['v1beta1', 'v1alpha1'],
    );
  });

  it('serves /apis/<g> and /apis/<g>/<v> and /api/v1 as legacy documents whatever the discovery Accept', async () => {
    const group = await server.get('/apis/wardle.example.com', { accept: KUBECTL_130 });
    assert.equal(group.headers.get('content-type'), 'application/json');
    assert.deepEqual(group.json(), {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'wardle.example.com',
      versions: [
        { groupVersion: 'wardle.example.com/v1beta1', version: 'v1beta1' },
        { groupVersion: 'wardle.example.com/v1alpha1', version: 'v1alpha1' },
      ],
      preferredVersion: { groupVersion: 'wardle.example.com/v1beta1', version: 'v1beta1' },
    });
    const rl = (await server.get('/apis/wardle.example.com/v1alpha1?timeout=32s', { accept: CLIENT_GO_LEGACY })).json() as APIResourceList;
    assert.equal(rl.groupVersion, 'wardle.example.com/v1alpha1');
    assert.deepEqual(
      rl.resources.map((r) => r.name),
      ['fischers', 'flunders', 'flunders/status'],
    );
    const core = (await server.get('/api/v1/')).json() as APIResourceList;
    assert.equal(core.groupVersion, 'v1');
    assert.equal(core.resources.find((r) => r.name === 'namespaces')?.namespaced, false);
  });

  it('hands unknown groups, versions, deeper paths and other methods to the delegate', async () => {
    for (const path of ['/apis/nope.example.com', '/apis/wardle.example.com/v9', '/apis/wardle.example.com/v1alpha1/flunders', '/api/v2', '/apisx']) {
      assert.equal((await server.get(path)).status, 418, path);
    }
    assert.equal((await server.request('POST', '/apis')).status, 418);
  });

  it('answers If-None-Match with 304 and changes the ETag when a group version disappears', async () => {
    const first = await server.get('/apis', { accept: KUBECTL_130 });
    const etag = first.headers.get('etag')!;
    const again = await server.get('/apis', { accept: KUBECTL_130, 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal(again.headers.get('etag'), etag);

    manager.removeGroupVersion('wardle.example.com', 'v1alpha1');
    try {
      const changed = await server.get('/apis', { accept: KUBECTL_130, 'if-none-match': etag });
      assert.equal(changed.status, 200);
      assert.notEqual(changed.headers.get('etag'), etag);
      assert.ok(!changed.text.includes('"v1alpha1"'));
      assert.equal((await server.get('/apis/wardle.example.com/v1alpha1')).status, 418);
      const legacy = (await server.get('/apis')).json() as APIGroupList;
      assert.deepEqual(
        legacy.groups.find((g) => g.name === 'wardle.example.com')?.versions.map((v) => v.version),
        ['v1beta1'],
      );
      manager.removeGroup('wardle.example.com');
      assert.equal((await server.get('/apis/wardle.example.com')).status, 418);
    } finally {
      for (const gv of discoveryFromGroupDefinition(apiGroups.find((g) => g.name === 'wardle.example.com')!)) manager.setGroupVersion(gv.group, gv.version, gv.resources, gv);
    }
    const restored = await server.get('/apis', { accept: KUBECTL_130 });
    assert.equal(restored.headers.get('etag'), etag, 'the same content gives the same ETag');
  });

  it('ETags differ between v2 and v2beta1 bodies and are stable across requests', async () => {
    const a = await server.get('/apis', { accept: V2 });
    const b = await server.get('/apis', { accept: V2BETA1 });
    const c = await server.get('/apis', { accept: V2 });
    assert.notEqual(a.headers.get('etag'), b.headers.get('etag'));
    assert.equal(a.headers.get('etag'), c.headers.get('etag'));
  });

  it('answers with a 404 NotFound Status by default and lists four routes', async () => {
    const routes = discoveryRoutes(manager);
    assert.deepEqual(
      routes.map((r) => [r.path, r.prefix]),
      [
        ['/api', false],
        ['/api/', true],
        ['/apis', false],
        ['/apis/', true],
      ],
    );
    const plain = await serveHandler(routes[3]!.handler);
    try {
      const r = await plain.get('/apis/nope.example.com');
      assert.equal(r.status, 404);
      assert.deepEqual(r.json(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server could not find the requested resource',
        reason: 'NotFound',
        details: {},
        code: 404,
      });
    } finally {
      await plain.close();
    }
  });
});
