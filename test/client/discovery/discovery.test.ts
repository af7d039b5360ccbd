// Ports of client-go's discovery/discovery_client_test.go, aggregated_discovery_test.go and the
// memory cache's behaviour, against an in-memory server that negotiates on Accept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { APIGroupDiscoveryList } from '../../../apis/apidiscovery/v2/types.js';
import { newInternalError } from '../../../runtime/apimachinery/errors/index.js';
import { ACCEPT_AGGREGATED, DiscoveryClient, ErrGroupDiscoveryFailed, MemCacheClient, splitGroupsAndResources } from '../../../runtime/client/discovery/index.js';
import { FakeServer, wantsAggregated } from './fake-server.js';

const v1Resources = { kind: 'APIResourceList', groupVersion: 'v1', resources: [{ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'] }] };

/** The aggregated document of a server with core v1 (pods), apps v1 and v1beta1 (deployments), and a stale group. */
function aggregated(stale = false): { api: APIGroupDiscoveryList; apis: APIGroupDiscoveryList } {
  const resource = (r: string, kind: string, version: string, group = '') => ({
    resource: r,
    responseKind: { group, version, kind },
    scope: 'Namespaced' as const,
    singularResource: r.slice(0, -1),
    verbs: ['get', 'list'],
    subresources: [{ subresource: 'status', responseKind: { group, version, kind }, verbs: ['get', 'patch'] }],
  });
  return {
    api: { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', items: [{ metadata: { name: '' }, versions: [{ version: 'v1', resources: [resource('pods', 'Pod', 'v1')] }] }] },
    apis: {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      items: [
        {
          metadata: { name: 'apps' },
          versions: [
            { version: 'v1', resources: [resource('deployments', 'Deployment', 'v1', 'apps')] },
            { version: 'v1beta1', resources: [resource('deployments', 'Deployment', 'v1beta1', 'apps'), resource('olds', 'Old', 'v1beta1', 'apps')] },
          ],
        },
        ...(stale ? [{ metadata: { name: 'wardle.example.com' }, versions: [{ version: 'v1alpha1', freshness: 'Stale' as const }] }] : []),
      ],
    },
  };
}

function aggregatedServer(stale = false): FakeServer {
  const doc = aggregated(stale);
  return new FakeServer({
    '/api': ({ accept }) => (wantsAggregated(accept) ? doc.api : { kind: 'APIVersions', versions: ['v1'] }),
    '/apis': ({ accept }) => (wantsAggregated(accept) ? doc.apis : { kind: 'APIGroupList', groups: [] }),
  });
}

describe('discovery client (client-go discovery/discovery_client_test.go)', () => {
  it('TestGetServerGroupsWithV1Server', async () => {
    const server = new FakeServer({
      '/api': () => ({ kind: 'APIVersions', versions: ['v1'] }),
      '/apis': () => ({ kind: 'APIGroupList', groups: [{ name: 'extensions', versions: [{ groupVersion: 'extensions/v1beta1', version: 'v1beta1' }] }] }),
    });
    const groups = await new DiscoveryClient(server).serverGroups();
    assert.deepEqual(
      groups.groups.flatMap((g) => g.versions.map((v) => v.groupVersion)),
      ['v1', 'extensions/v1beta1'],
    );
    assert.equal(server.requests[0]?.accept, ACCEPT_AGGREGATED);
    assert.equal(ACCEPT_AGGREGATED, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json');
  });

  it('TestDiscoveryToleratesMissingCoreGroup', async () => {
    const server = new FakeServer({ '/apis': () => ({ kind: 'APIGroupList', groups: [{ name: 'extensions', versions: [{ groupVersion: 'extensions/v1beta1', version: 'v1beta1' }] }] }) });
    const groups = await new DiscoveryClient(server).serverGroups();
    assert.deepEqual(
      groups.groups.map((g) => g.name),
      ['extensions'],
    );
  });

  it('TestDiscoveryFailsWhenNonCoreGroupsMissing', async () => {
    const server = new FakeServer({ '/api': () => ({ kind: 'APIVersions', versions: ['v1'] }) });
    await assert.rejects(new DiscoveryClient(server).serverGroups(), { name: 'StatusError' });
  });

  it('TestGetServerGroupsWithBrokenServer', async () => {
    const server = new FakeServer({});
    await assert.rejects(new DiscoveryClient(server).serverGroups(), (e: Error) => /could not find the requested resource|not found/.test(e.message));
  });

  it('TestGetServerResourcesForGroupVersion: v1 tolerates a 404, other group versions do not', async () => {
    const server = new FakeServer({ '/apis/apps/v1': () => ({ kind: 'APIResourceList', groupVersion: 'apps/v1', resources: [] }) });
    const d = new DiscoveryClient(server);
    assert.deepEqual(await d.serverResourcesForGroupVersion('v1'), { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'v1', resources: [] });
    assert.equal((await d.serverResourcesForGroupVersion('apps/v1')).groupVersion, 'apps/v1');
    await assert.rejects(d.serverResourcesForGroupVersion('batch/v1'), { name: 'StatusError' });
    await assert.rejects(d.serverResourcesForGroupVersion(''), { message: "groupVersion shouldn't be empty" });
  });

  it('TestServerPreferredResources (legacy): the preferred version wins, resources only there stay in theirs', async () => {
    const server = new FakeServer({
      '/api': () => ({ kind: 'APIVersions', versions: ['v1'] }),
      '/apis': () => ({
        kind: 'APIGroupList',
        groups: [
          {
            name: 'apps',
            versions: [
              { groupVersion: 'apps/v1', version: 'v1' },
              { groupVersion: 'apps/v1beta1', version: 'v1beta1' },
            ],
            preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
          },
        ],
      }),
      '/api/v1': () => v1Resources,
      '/apis/apps/v1': () => ({ groupVersion: 'apps/v1', resources: [{ name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment', verbs: [] }] }),
      '/apis/apps/v1beta1': () => ({
        groupVersion: 'apps/v1beta1',
        resources: [
          { name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment', verbs: [] },
          { name: 'deployments/status', singularName: '', namespaced: true, kind: 'Deployment', verbs: [] },
          { name: 'olds', singularName: 'old', namespaced: false, kind: 'Old', verbs: [] },
        ],
      }),
    });
    const d = new DiscoveryClient(server);
    const preferred = await d.serverPreferredResources();
    assert.deepEqual(
      preferred.map((l) => [l.groupVersion, l.resources.map((r) => r.name)]),
      [
        ['v1', ['pods']],
        ['apps/v1', ['deployments']],
        ['apps/v1beta1', ['olds']],
      ],
    );
    const namespaced = await d.serverPreferredNamespacedResources();
    assert.deepEqual(
      namespaced.map((l) => l.groupVersion),
      ['v1', 'apps/v1'],
    );
  });

  it('TestServerPreferredResourcesRetries: a failed group version is asked again, then reported', async () => {
    let calls = 0;
    const server = new FakeServer({
      '/api': () => ({ kind: 'APIVersions', versions: ['v1'] }),
      '/apis': () => ({ kind: 'APIGroupList', groups: [] }),
      '/api/v1': () => (++calls === 1 ? newInternalError(new Error('boom')) : v1Resources),
    });
    const lists = await new DiscoveryClient(server).serverPreferredResources();
    assert.equal(calls, 2);
    assert.equal(lists[0]?.resources[0]?.name, 'pods');
  });

  it('TestAggregatedServerGroups: one request each to /api and /apis', async () => {
    const server = aggregatedServer();
    const d = new DiscoveryClient(server);
    const groups = await d.serverGroups();
    assert.deepEqual(
      groups.groups.map((g) => [g.name, g.preferredVersion?.groupVersion, g.versions.map((v) => v.version)]),
      [
        ['', 'v1', ['v1']],
        ['apps', 'apps/v1', ['v1', 'v1beta1']],
      ],
    );
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/api', '/apis'],
    );
  });

  it('TestAggregatedServerGroupsAndResources: subresources become resource/subresource entries, no per-version requests', async () => {
    const server = aggregatedServer();
    const { groups, resources } = await new DiscoveryClient(server).serverGroupsAndResources();
    assert.equal(groups.length, 2);
    assert.deepEqual(
      resources.map((l) => [l.groupVersion, l.resources.map((r) => r.name)]),
      [
        ['v1', ['pods', 'pods/status']],
        ['apps/v1', ['deployments', 'deployments/status']],
        ['apps/v1beta1', ['deployments', 'deployments/status', 'olds', 'olds/status']],
      ],
    );
    assert.deepEqual(resources[1]?.resources[1], {
      name: 'deployments/status',
      singularName: 'deployment',
      namespaced: true,
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      verbs: ['get', 'patch'],
    });
    assert.equal(server.requests.length, 2);
  });

  it('TestAggregatedServerGroupsAndResourcesWithErrors: a Stale group version is ErrGroupDiscoveryFailed with the rest', async () => {
    const d = new DiscoveryClient(aggregatedServer(true));
    const err = await d.serverGroupsAndResources().then(
      () => assert.fail('expected ErrGroupDiscoveryFailed'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ErrGroupDiscoveryFailed);
    assert.equal(err.message, 'unable to retrieve the complete list of server APIs: wardle.example.com/v1alpha1: stale GroupVersion discovery: wardle.example.com/v1alpha1');
    assert.equal(err.partial?.resources.length, 3);
    assert.deepEqual(
      err.partial?.groups.map((g) => [g.name, g.versions.length]),
      [
        ['', 1],
        ['apps', 2],
        ['wardle.example.com', 0],
      ],
    );
  });

  it('TestAggregatedServerPreferredResources', async () => {
    const lists = await new DiscoveryClient(aggregatedServer()).serverPreferredResources();
    assert.deepEqual(
      lists.map((l) => [l.groupVersion, l.resources.map((r) => r.name)]),
      [
        ['v1', ['pods']],
        ['apps/v1', ['deployments']],
        ['apps/v1beta1', ['olds']],
      ],
    );
  });

  it('TestUseLegacyDiscovery: Accept is plain JSON and resources are fetched per group version', async () => {
    const server = aggregatedServer();
    server.routes['/api/v1'] = () => v1Resources;
    const d = new DiscoveryClient(server).withLegacy();
    const { resources } = await d.serverGroupsAndResources();
    assert.deepEqual(
      resources.map((l) => l.groupVersion),
      ['v1'],
    );
    assert.ok(server.requests.every((r) => r.accept === undefined || r.accept === 'application/json'));
    assert.ok(server.count('/api/v1') === 1);
  });

  it('TestGetServerVersion and OpenAPI v3 paths', async () => {
    const server = new FakeServer({
      '/version': () => ({ major: '1', minor: '32', gitVersion: 'v1.32.0' }),
      // A `__proto__` key is data: one more path, not a prototype.
      '/openapi/v3': () => JSON.parse('{"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=ABC"},"__proto__":{"serverRelativeURL":"/openapi/v3/x"}}}') as unknown,
      '/openapi/v3/api/v1': () => ({ openapi: '3.0.0' }),
    });
    const d = new DiscoveryClient(server);
    assert.equal((await d.serverVersion()).gitVersion, 'v1.32.0');
    const paths = await d.openAPIV3().paths();
    assert.deepEqual([...paths.keys()].sort(), ['__proto__', 'api/v1']);
    assert.equal(paths.get('__proto__')?.serverRelativeURL, '/openapi/v3/x');
    assert.deepEqual(await paths.get('api/v1')?.schema(), { openapi: '3.0.0' });
  });

  it('splitGroupsAndResources leaves out resources without a response kind (convertAPIResource)', () => {
    const { resources } = splitGroupsAndResources({
      items: [
        {
          metadata: { name: 'g' },
          versions: [
            {
              version: 'v1',
              resources: [
                { resource: 'xs', scope: 'Cluster', singularResource: 'x', verbs: [], subresources: [{ subresource: 's', responseKind: { group: 'g', version: 'v1', kind: 'S' }, verbs: [] }] },
              ],
            },
          ],
        },
      ],
    });
    assert.deepEqual(
      resources.get('g/v1')?.resources.map((r) => r.name),
      ['xs/s'],
    );
  });
});

describe('memory cache (client-go discovery/cached/memory/memcache_test.go)', () => {
  it('TestClient: answers from memory until invalidate(); fresh() follows', async () => {
    const server = aggregatedServer();
    const mem = new MemCacheClient(new DiscoveryClient(server));
    assert.equal(mem.fresh(), false);
    await mem.serverGroupsAndResources();
    await mem.serverResourcesForGroupVersion('apps/v1');
    assert.equal(mem.fresh(), true);
    assert.equal(server.requests.length, 2);
    mem.invalidate();
    assert.equal(mem.fresh(), false);
    await mem.serverGroups();
    assert.equal(server.requests.length, 4);
    await assert.rejects(mem.serverResourcesForGroupVersion('batch/v1'), { message: 'not found' });
  });

  it('TestServerResourcesForGroupVersion: a transient failure is asked again, a permanent one is not', async () => {
    let failures = 1;
    const server = new FakeServer({
      '/api': () => ({ kind: 'APIVersions', versions: ['v1'] }),
      '/apis': () => ({ kind: 'APIGroupList', groups: [{ name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }] }] }),
      '/api/v1': () => (failures-- > 0 ? newInternalError(new Error('down')) : v1Resources),
    });
    const mem = new MemCacheClient(new DiscoveryClient(server));
    await assert.rejects(mem.serverGroupsAndResources(), ErrGroupDiscoveryFailed);
    assert.equal((await mem.serverResourcesForGroupVersion('v1')).resources[0]?.name, 'pods');
    await assert.rejects(mem.serverResourcesForGroupVersion('apps/v1'), { name: 'StatusError' });
    assert.equal(server.count('/apis/apps/v1'), 1);
  });
});
