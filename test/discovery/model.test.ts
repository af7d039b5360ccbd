import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { compareVersionsForDiscovery, discoveryFromGroupDefinition, DiscoveryManager, storageVersionHash, type ResourceDescription } from '../../runtime/server/discovery/index.js';
import type { APIGroupDiscoveryList } from '../../apis/apidiscovery/v2/types.js';
import type { APIGroup, APIGroupList, APIResourceList } from '../../apis/meta/v1/discovery.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';

const wardle = apiGroups.find((g) => g.name === 'wardle.example.com') as APIGroupDefinition;

const crontab: ResourceDescription = {
  name: 'crontabs',
  singularName: 'crontab',
  namespaced: true,
  kind: 'CronTab',
  verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
  shortNames: ['ct'],
  categories: ['all'],
  subresources: [
    { name: 'status', verbs: ['get', 'patch', 'update'] },
    { name: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
  ],
};

/** A document the test knows the type of (the assertions check its content). */
function json<T>(buf: Buffer | undefined): T {
  assert.ok(buf);
  return JSON.parse(buf.toString()) as T;
}

describe('storageVersionHash', () => {
  it('matches kube-apiserver for core ConfigMap and Namespace', () => {
    assert.equal(storageVersionHash('', 'v1', 'ConfigMap'), 'qFsyl6wFWjQ=');
    assert.equal(storageVersionHash('', 'v1', 'Namespace'), 'Q3oi5N2YM8M=');
  });
});

describe('compareVersionsForDiscovery', () => {
  it('sorts GA > beta > alpha, then major and minor descending, non-kube versions last ascending', () => {
    const input = ['foo10', 'v1alpha1', 'v1', 'v12alpha1', 'v1beta1', 'foo1', 'v2', 'v11beta2', 'v10', 'v1beta2', 'v3beta1'];
    assert.deepEqual(input.sort(compareVersionsForDiscovery), ['v10', 'v2', 'v1', 'v11beta2', 'v3beta1', 'v1beta2', 'v1beta1', 'v12alpha1', 'v1alpha1', 'foo1', 'foo10']);
  });
});

describe('discoveryFromGroupDefinition', () => {
  it('describes every served version with sorted verbs, the storage version hash and status', () => {
    const gvs = discoveryFromGroupDefinition(wardle);
    assert.deepEqual(
      gvs.map((g) => g.version),
      ['v1beta1', 'v1alpha1'],
    );
    assert.ok(gvs[0]!.versionPriority > gvs[1]!.versionPriority);
    const alpha = gvs[1]!;
    assert.deepEqual(
      alpha.resources.map((r) => r.name),
      ['fischers', 'flunders'],
    );
    const flunders = alpha.resources[1]!;
    assert.deepEqual(flunders.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    const hash = storageVersionHash('wardle.example.com', 'v1alpha1', 'Flunder');
    assert.equal(flunders.storageVersionHash, hash);
    assert.equal(gvs[0]!.resources.find((r) => r.name === 'flunders')!.storageVersionHash, hash, 'every version hashes the storage version');
    assert.deepEqual(flunders.subresources, [{ name: 'status', verbs: ['get', 'patch', 'update'] }]);
  });

  it('declares scale with the autoscaling/v1 Scale response kind, before status', () => {
    const v = wardle.versions[1]!;
    const withScale: APIGroupDefinition = {
      ...wardle,
      versions: [{ ...v, resources: v.resources.map((r) => ({ ...r, subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } })) }],
    };
    const [gv] = discoveryFromGroupDefinition(withScale, { groupPriorityMinimum: 100 });
    assert.equal(gv!.groupPriorityMinimum, 100);
    assert.deepEqual(
      gv!.resources[0]!.subresources!.map((s) => s.name),
      ['scale', 'status'],
    );
    assert.deepEqual(gv!.resources[0]!.subresources![0]!.responseKind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });
});

describe('DiscoveryManager', () => {
  it('orders groups by priority then name, versions by priority then kube-aware order', () => {
    const m = new DiscoveryManager();
    m.setGroupVersion('b.example.com', 'v1', [crontab], { groupPriorityMinimum: 1000, versionPriority: 100 });
    m.setGroupVersion('a.example.com', 'v1', [crontab], { groupPriorityMinimum: 1000, versionPriority: 100 });
    m.setGroupVersion('z.example.com', 'v1alpha1', [crontab], { groupPriorityMinimum: 2000, versionPriority: 100 });
    m.setGroupVersion('z.example.com', 'v1', [crontab], { groupPriorityMinimum: 100, versionPriority: 100 });
    m.setGroupVersion('z.example.com', 'v2beta1', [crontab], { groupPriorityMinimum: 100, versionPriority: 100 });
    m.setGroupVersion('z.example.com', 'v1beta1', [crontab], { groupPriorityMinimum: 100, versionPriority: 200 });
    const s = m.snapshot();
    assert.deepEqual(
      s.groups.map((g) => g.name),
      ['z.example.com', 'a.example.com', 'b.example.com'],
    );
    assert.deepEqual(
      s.groups[0]!.versions.map((v) => v.version),
      ['v1beta1', 'v1', 'v2beta1', 'v1alpha1'],
    );
    assert.equal(json<APIGroup>(s.apiGroup('z.example.com')?.body).preferredVersion?.version, 'v1beta1');
  });

  it('lets the aggregator source win over builtin and builtin over crd for one group version', () => {
    const m = new DiscoveryManager();
    m.forSource('crd').setGroupVersion('x.io', 'v1', [{ ...crontab, kind: 'FromCRD' }], { groupPriorityMinimum: 1000, versionPriority: 100 });
    m.setGroupVersion('x.io', 'v1', [{ ...crontab, kind: 'FromBuiltin' }], { groupPriorityMinimum: 1000, versionPriority: 15 });
    assert.equal(m.snapshot().version('x.io', 'v1')!.resources[0]!.kind, 'FromBuiltin');
    const agg = m.forSource('aggregator');
    agg.setGroupVersion('x.io', 'v1', [{ ...crontab, kind: 'Remote' }], { groupPriorityMinimum: 1000, versionPriority: 15, freshness: 'Stale' });
    assert.equal(m.snapshot().version('x.io', 'v1')!.resources[0]!.kind, 'Remote');
    assert.equal(m.snapshot().version('x.io', 'v1')!.freshness, 'Stale');
    agg.removeGroup('x.io');
    m.removeGroupVersion('x.io', 'v1');
    assert.equal(m.snapshot().version('x.io', 'v1')!.resources[0]!.kind, 'FromCRD');
    m.forSource('crd').setGroupVersions([]);
    assert.equal(m.snapshot().group('x.io'), undefined);
  });

  it('keeps the snapshot (and ETags) when an identical description is set again', () => {
    const m = new DiscoveryManager();
    m.setGroupVersion('x.io', 'v1', [crontab], { groupPriorityMinimum: 1000, versionPriority: 100 });
    const before = m.snapshot();
    m.setGroupVersion('x.io', 'v1', structuredClone([crontab]), { groupPriorityMinimum: 1000, versionPriority: 100, freshness: 'Current' });
    assert.equal(m.snapshot(), before);
    m.removeGroupVersion('x.io', 'v9');
    assert.equal(m.snapshot(), before);
    m.setGroupVersion('x.io', 'v1', [crontab], { groupPriorityMinimum: 1000, versionPriority: 101 });
    assert.notEqual(m.snapshot(), before);
  });

  it('builds the legacy APIResourceList with kube field rules', () => {
    const m = new DiscoveryManager();
    m.setGroupVersion(
      'stable.example.com',
      'v1',
      [
        { ...crontab, storageVersionHash: 'EdX2FP+L0js=' },
        { ...crontab, name: 'plain', singularName: 'plain', shortNames: [], categories: [], subresources: [] },
      ],
      {
        groupPriorityMinimum: 1000,
        versionPriority: 100,
      },
    );
    const list = json<APIResourceList>(m.snapshot().apiResourceList('stable.example.com', 'v1')?.body);
    assert.deepEqual(list, {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'stable.example.com/v1',
      resources: [
        {
          name: 'crontabs',
          singularName: 'crontab',
          namespaced: true,
          kind: 'CronTab',
          verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
          shortNames: ['ct'],
          categories: ['all'],
          storageVersionHash: 'EdX2FP+L0js=',
        },
        { name: 'crontabs/status', singularName: '', namespaced: true, kind: 'CronTab', verbs: ['get', 'patch', 'update'] },
        { name: 'crontabs/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
        { name: 'plain', singularName: 'plain', namespaced: true, kind: 'CronTab', verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'] },
      ],
    });
    assert.deepEqual(Object.keys(list.resources[2] as object), ['name', 'singularName', 'namespaced', 'group', 'version', 'kind', 'verbs']);
  });

  it('builds the aggregated list (v2 and v2beta1) with responseKind everywhere and no storageVersionHash', () => {
    const m = new DiscoveryManager();
    m.setGroupVersion('stable.example.com', 'v1', [{ ...crontab, storageVersionHash: 'EdX2FP+L0js=' }], { groupPriorityMinimum: 1000, versionPriority: 100 });
    m.setGroupVersion('', 'v1', [{ ...crontab, name: 'configmaps', singularName: 'configmap', kind: 'ConfigMap', subresources: [] }], { groupPriorityMinimum: 18000, versionPriority: 1 });
    const s = m.snapshot();
    const apis = json<APIGroupDiscoveryList>(s.aggregated('apis', 'v2').body);
    assert.deepEqual(apis, {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: [
        {
          metadata: { name: 'stable.example.com', creationTimestamp: null },
          versions: [
            {
              version: 'v1',
              resources: [
                {
                  resource: 'crontabs',
                  responseKind: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' },
                  scope: 'Namespaced',
                  singularResource: 'crontab',
                  verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
                  shortNames: ['ct'],
                  categories: ['all'],
                  subresources: [
                    { subresource: 'status', responseKind: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' }, verbs: ['get', 'patch', 'update'] },
                    { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
                  ],
                },
              ],
              freshness: 'Current',
            },
          ],
        },
      ],
    });
    const beta = json<APIGroupDiscoveryList>(s.aggregated('apis', 'v2beta1').body);
    assert.equal(beta.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    assert.deepEqual(beta.items, apis.items);
    const api = json<APIGroupDiscoveryList>(s.aggregated('api', 'v2').body);
    assert.deepEqual(
      api.items?.map((i) => i.metadata),
      [{ creationTimestamp: null }],
    );
    assert.equal(api.items?.[0]?.versions?.[0]?.resources?.[0]?.responseKind?.group, '');
    assert.deepEqual(
      json<APIGroupList>(s.apiGroupList().body).groups.map((g) => g.name),
      ['stable.example.com'],
      'core is not a named group',
    );
  });
});
