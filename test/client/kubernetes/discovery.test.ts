// The discovery client, REST mapper and dynamic client (runtime/client/{discovery,restmapper,
// dynamic}) against kube-apiserver 1.32's recorded discovery (test/fixtures/kube-1.32/discovery):
// aggregated discovery first with kubectl's Accept header and two requests, the legacy fallback
// (client-go's discovery_client_test.go TestGetServerGroupsWithV1Server / aggregated tests), the
// recorded groups, preferred versions, short names and subresources as a mapper reads them
// (restmapper's TestDeferredDiscoveryRESTMapper_CacheMiss, shortcut_test.go), and the recorded
// discovery agreeing with the typed clients generated from kube's OpenAPI.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { discovery, dynamic, restmapper, type ResourceDescriptor } from '../../../runtime/client/index.js';
import { restClientForConfig } from '../../../runtime/client/rest/index.js';
import { recordedObjects } from './recorded.js';
import { ReplayServer } from './replay-server.js';

/** kubectl 1.32's Accept of /api and /apis (client-go's acceptDiscoveryFormats). */
const KUBECTL_DISCOVERY_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const NS = 'namespaceValue';

let server: ReplayServer;
let legacyServer: ReplayServer;

before(async () => {
  server = await ReplayServer.start();
  legacyServer = await ReplayServer.start({ coreAggregated: false });
});
after(async () => {
  await server.close();
  await legacyServer.close();
});

/** Every ResourceDescriptor the generated Kubernetes clientset exports. */
async function generatedDescriptors(): Promise<ResourceDescriptor[]> {
  const root = fileURLToPath(new URL('../../../generated/kubernetes/clientset/', import.meta.url));
  const out: ResourceDescriptor[] = [];
  // Each group's directory holds one directory per version; `fake/` is the fake clientset, not a group.
  for (const group of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'fake')) {
    for (const version of readdirSync(`${root}${group.name}`)) {
      const mod = (await import(`${root}${group.name}/${version}/index.ts`)) as Record<string, unknown>;
      for (const v of Object.values(mod)) if (typeof v === 'object' && v !== null && 'resource' in v && 'namespaced' in v) out.push(v as ResourceDescriptor);
    }
  }
  return out;
}

describe('recorded discovery', () => {
  it('lists every resource of generated/kubernetes with its kind and scope, and nothing more in those group versions', async () => {
    const descriptors = await generatedDescriptors();
    assert.ok(descriptors.length >= 49);
    const served = server.resources;
    for (const d of descriptors) {
      const r = served.find((s) => s.group === d.group && s.version === d.version && s.resource === d.resource);
      assert.ok(r, `${d.group}/${d.version} ${d.resource} is not in the recorded discovery`);
      assert.equal(r.kind, d.kind);
      assert.equal(r.namespaced, d.namespaced);
    }
    const generatedGVs = new Set(descriptors.map((d) => `${d.group}/${d.version}`));
    const clientless = served.filter((s) => generatedGVs.has(`${s.group}/${s.version}`) && !descriptors.some((d) => d.group === s.group && d.version === s.version && d.resource === s.resource));
    assert.deepEqual(clientless, []);
  });

  it('the discovery client reads /api and /apis aggregated, with kubectl’s Accept, in two requests', async () => {
    assert.equal(discovery.ACCEPT_AGGREGATED, KUBECTL_DISCOVERY_ACCEPT);
    const before = server.requests.length;
    const dc = new discovery.DiscoveryClient(restClientForConfig({ host: server.url }));
    const { groups, resources } = await dc.serverGroupsAndResources();
    const sent = server.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => [r.path, r.headers.accept]),
      [
        ['/api', KUBECTL_DISCOVERY_ACCEPT],
        ['/apis', KUBECTL_DISCOVERY_ACCEPT],
      ],
    );
    const autoscaling = groups.find((g) => g.name === 'autoscaling')!;
    assert.deepEqual(autoscaling.preferredVersion, { groupVersion: 'autoscaling/v2', version: 'v2' });
    assert.deepEqual(
      autoscaling.versions.map((v) => v.version),
      ['v2', 'v1'],
    );
    assert.equal(groups[0]!.name, '', 'the core group comes first');
    const apps = resources.find((l) => l.groupVersion === 'apps/v1')!;
    const deployments = apps.resources.find((r) => r.name === 'deployments')!;
    assert.deepEqual(deployments.shortNames, ['deploy']);
    assert.deepEqual(deployments.categories, ['all']);
    assert.equal(deployments.namespaced, true);
    const scale = apps.resources.find((r) => r.name === 'deployments/scale')!;
    assert.deepEqual([scale.group, scale.version, scale.kind, scale.verbs], ['autoscaling', 'v1', 'Scale', ['get', 'patch', 'update']]);
    const core = resources.find((l) => l.groupVersion === 'v1')!;
    assert.deepEqual(core.resources.find((r) => r.name === 'pods')!.shortNames, ['po']);
    assert.equal(core.resources.find((r) => r.name === 'pods/eviction')!.group, 'policy');
  });

  it('falls back to the legacy documents when /api is not aggregated: every group version is asked for', async () => {
    const dc = new discovery.DiscoveryClient(restClientForConfig({ host: legacyServer.url }));
    const { resources } = await dc.serverGroupsAndResources();
    const paths = new Set(legacyServer.requests.map((r) => r.path));
    for (const p of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/apis/autoscaling/v2', '/apis/autoscaling/v1']) assert.ok(paths.has(p), p);
    const apps = resources.find((l) => l.groupVersion === 'apps/v1')!;
    assert.deepEqual(apps.resources.find((r) => r.name === 'deployments')!.shortNames, ['deploy']);
    assert.equal(apps.resources.find((r) => r.name === 'statefulsets/scale')!.kind, 'Scale');
  });

  it('withLegacy() asks for plain JSON only', async () => {
    const before = server.requests.length;
    await new discovery.DiscoveryClient(restClientForConfig({ host: server.url })).withLegacy().serverGroups();
    assert.deepEqual(
      server.requests.slice(before, before + 2).map((r) => [r.path, r.headers.accept]),
      [
        ['/api', 'application/json'],
        ['/apis', 'application/json'],
      ],
    );
  });
});

describe('REST mapping over the recorded discovery', () => {
  let mapper: restmapper.RESTMapper;
  let dc: discovery.DiscoveryClient;

  before(async () => {
    dc = new discovery.DiscoveryClient(restClientForConfig({ host: server.url }));
    const base = restmapper.asyncMapper(restmapper.newDiscoveryRESTMapper(await restmapper.getAPIGroupResources(dc)));
    mapper = new restmapper.ShortcutExpander(base, dc);
  });

  it('maps kinds to resources and scopes', async () => {
    const m = await mapper.restMapping({ group: 'apps', kind: 'Deployment' });
    assert.deepEqual(m.resource, { group: 'apps', version: 'v1', resource: 'deployments' });
    assert.equal(m.scope, 'namespace');
    const csr = await mapper.restMapping({ group: 'certificates.k8s.io', kind: 'CertificateSigningRequest' });
    assert.equal(csr.scope, 'root');
    assert.deepEqual(await mapper.kindFor({ group: '', version: '', resource: 'pods' }), { group: '', version: 'v1', kind: 'Pod' });
  });

  it('prefers the preferred version: autoscaling/v2 over v1', async () => {
    const m = await mapper.restMapping({ group: 'autoscaling', kind: 'HorizontalPodAutoscaler' });
    assert.deepEqual(m.resource, { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' });
    const v1 = await mapper.restMapping({ group: 'autoscaling', kind: 'HorizontalPodAutoscaler' }, 'v1');
    assert.equal(v1.resource.version, 'v1');
  });

  it('expands recorded short names: deploy, hpa, po, csr, netpol', async () => {
    const cases: [string, string, string][] = [
      ['deploy', 'apps', 'deployments'],
      ['hpa', 'autoscaling', 'horizontalpodautoscalers'],
      ['po', '', 'pods'],
      ['csr', 'certificates.k8s.io', 'certificatesigningrequests'],
      ['netpol', 'networking.k8s.io', 'networkpolicies'],
    ];
    for (const [short, group, resource] of cases) {
      const r = await mapper.resourceFor({ group: '', version: '', resource: short });
      assert.deepEqual([r.group, r.resource], [group, resource], short);
    }
  });

  it('expands the recorded category "all"', async () => {
    const { resources, found } = await new restmapper.DiscoveryCategoryExpander(dc).expand('all');
    assert.ok(found);
    const names = resources.map((r) => (r.group === '' ? r.resource : `${r.resource}.${r.group}`));
    for (const n of ['pods', 'services', 'replicationcontrollers', 'deployments.apps', 'statefulsets.apps', 'jobs.batch', 'cronjobs.batch', 'horizontalpodautoscalers.autoscaling'])
      assert.ok(names.includes(n), n);
    assert.ok(!names.includes('configmaps'));
  });
});

describe('the dynamic client against recorded objects', () => {
  it('gets and lists an unstructured Deployment as recorded, from client-go’s paths', async () => {
    const recorded = recordedObjects().find((o) => o.file === 'apps.v1.Deployment.json')!;
    const client = new dynamic.DynamicClient(restClientForConfig({ host: server.url })).resource({ group: 'apps', version: 'v1', resource: 'deployments' });
    assert.deepEqual(await client.namespace(NS).get('nameValue'), recorded.object);
    assert.equal(server.requests.at(-1)!.path, `/apis/apps/v1/namespaces/${NS}/deployments/nameValue`);
    const list = await client.list();
    assert.equal(server.requests.at(-1)!.path, '/apis/apps/v1/deployments');
    assert.equal(list.kind, 'DeploymentList');
    assert.deepEqual(list.items, [recorded.object]);
  });
});
