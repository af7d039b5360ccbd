// Ports of client-go's restmapper tests (discovery_test.go, shortcut_test.go, category_expansion_test.go)
// and apimachinery's meta/restmapper_test.go and errors texts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { APIGroup, APIResource, APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { ErrGroupDiscoveryFailed } from '../../../runtime/client/discovery/index.js';
import {
  AmbiguousResourceError,
  asyncMapper,
  DefaultRESTMapper,
  DeferredDiscoveryRESTMapper,
  DiscoveryCategoryExpander,
  getAPIGroupResources,
  newDiscoveryRESTMapper,
  NoKindMatchError,
  NoResourceMatchError,
  ShortcutExpander,
  SimpleCategoryExpander,
  UnionCategoryExpander,
  type APIGroupResources,
} from '../../../runtime/client/restmapper/index.js';
import { FakeDiscovery, listsOnly } from './fake-discovery.js';

const res = (name: string, kind: string, extra: Partial<APIResource> = {}): APIResource => ({ name, singularName: '', namespaced: true, kind, verbs: [], ...extra });
const group = (name: string, versions: string[], preferred = versions[0] ?? ''): APIGroup => ({
  name,
  versions: versions.map((v) => ({ groupVersion: name === '' ? v : `${name}/${v}`, version: v })),
  preferredVersion: { groupVersion: name === '' ? preferred : `${name}/${preferred}`, version: preferred },
});
const gr = (g: APIGroup, byVersion: Record<string, APIResource[]>): APIGroupResources => ({ group: g, versionedResources: new Map(Object.entries(byVersion)) });

describe('restmapper (client-go restmapper/discovery_test.go)', () => {
  it('TestRESTMapper', () => {
    const mapper = newDiscoveryRESTMapper([
      gr(group('extensions', ['v1beta']), { v1beta: [res('jobs', 'Job'), res('pods', 'Pod')] }),
      gr(group('', ['v1', 'v2'], 'v1'), { v1: [res('pods', 'Pod')], v2: [res('pods', 'Pod')] }),
      // Resources that exist only in non-preferred versions are found and prioritised.
      gr(group('unpreferred', ['v1', 'v2beta1', 'v2alpha1'], 'v1'), {
        v1: [res('broccoli', 'Broccoli')],
        v2beta1: [res('broccoli', 'Broccoli'), res('peas', 'Pea')],
        v2alpha1: [res('broccoli', 'Broccoli'), res('peas', 'Pea')],
      }),
    ]);
    const kinds: [Partial<Record<'group' | 'version' | 'resource', string>>, { group: string; version: string; kind: string }][] = [
      [{ resource: 'pods' }, { group: '', version: 'v1', kind: 'Pod' }],
      [
        { version: 'v1', resource: 'pods' },
        { group: '', version: 'v1', kind: 'Pod' },
      ],
      [
        { version: 'v2', resource: 'pods' },
        { group: '', version: 'v2', kind: 'Pod' },
      ],
      [{ resource: 'jobs' }, { group: 'extensions', version: 'v1beta', kind: 'Job' }],
      [{ resource: 'peas' }, { group: 'unpreferred', version: 'v2beta1', kind: 'Pea' }],
    ];
    for (const [input, want] of kinds) assert.deepEqual(mapper.kindFor({ group: '', version: '', resource: '', ...input }), want, JSON.stringify(input));
    const resources: [Partial<Record<'group' | 'version' | 'resource', string>>, { group: string; version: string; resource: string }][] = [
      [{ resource: 'pods' }, { group: '', version: 'v1', resource: 'pods' }],
      [
        { version: 'v1', resource: 'pods' },
        { group: '', version: 'v1', resource: 'pods' },
      ],
      [
        { version: 'v2', resource: 'pods' },
        { group: '', version: 'v2', resource: 'pods' },
      ],
      [{ resource: 'jobs' }, { group: 'extensions', version: 'v1beta', resource: 'jobs' }],
    ];
    for (const [input, want] of resources) assert.deepEqual(mapper.resourceFor({ group: '', version: '', resource: '', ...input }), want, JSON.stringify(input));
  });

  it('TestDeferredDiscoveryRESTMapper_CacheMiss', async () => {
    const aGroup = group('a', ['v1']);
    const cdc = new FakeDiscovery([], new Map());
    cdc.isFresh = false;
    cdc.onInvalidate = () => {
      cdc.groups = [aGroup];
      cdc.lists = new Map([['a/v1', { groupVersion: 'a/v1', resources: [res('foo', 'Foo')] }]]);
    };
    const m = new DeferredDiscoveryRESTMapper(cdc);
    assert.equal(cdc.invalidateCalls, 0, 'should not have called invalidate()');
    const gvk = await m.kindFor({ group: 'a', version: 'v1', resource: 'foo' });
    assert.equal(cdc.isFresh, true, 'should be fresh after a cache miss');
    assert.equal(cdc.invalidateCalls, 1, 'should have called invalidate() once');
    assert.equal(gvk.kind, 'Foo');
    await m.kindFor({ group: 'a', version: 'v1', resource: 'foo' });
    assert.equal(cdc.invalidateCalls, 1, 'should NOT have called invalidate() again');
    await assert.rejects(m.kindFor({ group: 'a', version: 'v1', resource: 'bar' }), NoResourceMatchError);
    assert.equal(cdc.invalidateCalls, 1, 'a miss with fresh==true does not invalidate');
    cdc.isFresh = false;
    await assert.rejects(m.kindFor({ group: 'a', version: 'v1', resource: 'bar' }), NoResourceMatchError);
    assert.equal(cdc.invalidateCalls, 2, 'a miss with fresh==false invalidates');
  });

  it('a cache that never becomes fresh is reset once per question, not forever', async () => {
    const cdc = new FakeDiscovery([], new Map());
    cdc.isFresh = false;
    cdc.onInvalidate = () => {
      cdc.isFresh = false;
    };
    const m = new DeferredDiscoveryRESTMapper(cdc);
    await assert.rejects(m.kindFor({ group: 'a', version: 'v1', resource: 'foo' }), NoResourceMatchError);
    assert.equal(cdc.invalidateCalls, 1);
    await assert.rejects(m.resourcesFor({ group: '', version: '', resource: 'foo' }), NoResourceMatchError);
    assert.equal(cdc.invalidateCalls, 2);
  });

  it('TestGetAPIGroupResources: a failed group version is left out, the rest kept', async () => {
    const aGroup = group('a', ['v1']);
    const bGroup = group('b', ['v1']);
    const d = new FakeDiscovery([aGroup, bGroup], new Map([['b/v1', { groupVersion: 'b/v1', resources: [res('bar', 'Bar')] }]]));
    await assert.rejects(d.serverGroupsAndResources(), ErrGroupDiscoveryFailed);
    const got = await getAPIGroupResources(d);
    assert.deepEqual(
      got.map((g) => [g.group.name, [...g.versionedResources.keys()]]),
      [
        ['a', []],
        ['b', ['v1']],
      ],
    );
  });
});

describe('shortcut expander (client-go restmapper/shortcut_test.go)', () => {
  const none = asyncMapper(new DefaultRESTMapper());
  const cases: { name: string; arg: string; expected: { group: string; version: string; resource: string }; srvRes: APIResourceList[] }[] = [
    { name: 'storageclasses-no-replacement', arg: 'storageclasses', expected: { group: '', version: '', resource: 'storageclasses' }, srvRes: [] },
    {
      name: 'hpa-priority',
      arg: 'hpa',
      expected: { group: 'autoscaling', version: '', resource: 'superhorizontalpodautoscalers' },
      srvRes: [
        { groupVersion: 'autoscaling/v1', resources: [res('superhorizontalpodautoscalers', '', { shortNames: ['hpa'] })] },
        { groupVersion: 'autoscaling/v1', resources: [res('horizontalpodautoscalers', '', { shortNames: ['hpa'] })] },
      ],
    },
    {
      name: 'resource-override',
      arg: 'dpl',
      expected: { group: 'foo', version: '', resource: 'deployments' },
      srvRes: [
        { groupVersion: 'foo/v1', resources: [res('deployments', '', { shortNames: ['dpl'] })] },
        { groupVersion: 'extension/v1beta1', resources: [res('deployments', '', { shortNames: ['deploy'] })] },
      ],
    },
    {
      name: 'resource-match-preferred',
      arg: 'pods',
      expected: { group: '', version: '', resource: 'pods' },
      srvRes: [
        { groupVersion: 'v1', resources: [res('pods', '', { singularName: 'pod' })] },
        { groupVersion: 'acme.com/v1', resources: [res('poddlers', '', { shortNames: ['pods', 'pod'] })] },
      ],
    },
    {
      name: 'resource-match-singular-preferred',
      arg: 'pod',
      expected: { group: '', version: '', resource: 'pod' },
      srvRes: [
        { groupVersion: 'v1', resources: [res('pods', '', { singularName: 'pod' })] },
        { groupVersion: 'acme.com/v1', resources: [res('poddlers', '', { shortNames: ['pods', 'pod'] })] },
      ],
    },
  ];
  for (const c of cases) {
    it(`TestReplaceAliases/${c.name}`, async () => {
      const mapper = new ShortcutExpander(none, listsOnly(c.srvRes));
      assert.deepEqual(await mapper.expandResourceShortcut({ group: '', version: '', resource: c.arg }), c.expected);
    });
  }

  it('TestWarnAmbigious: a short name of two resources warns once per lower-priority resource', async () => {
    const warnings: string[] = [];
    const d = listsOnly([
      { groupVersion: 'a/v1', resources: [res('foos', '', { shortNames: ['f'] })] },
      { groupVersion: 'a/v2', resources: [res('foos', '', { shortNames: ['f'] })] },
      { groupVersion: 'b/v1', resources: [res('fizzes', '', { shortNames: ['f'] })] },
      { groupVersion: 'b/v2', resources: [res('fizzes', '', { shortNames: ['f'] })] },
    ]);
    const mapper = new ShortcutExpander(none, d, (w) => warnings.push(w));
    assert.deepEqual(await mapper.expandResourceShortcut({ group: '', version: '', resource: 'f' }), { group: 'a', version: '', resource: 'foos' });
    assert.deepEqual(warnings, ['short name "f" could also match lower priority resource fizzes.b']);
  });

  it('TestKindFor: the expanded short name is mapped by the delegate', async () => {
    const d = new FakeDiscovery([group('', ['v1'])], new Map([['v1', { groupVersion: 'v1', resources: [res('configmaps', 'ConfigMap', { singularName: 'configmap', shortNames: ['cm'] })] }]]));
    const mapper = new ShortcutExpander(new DeferredDiscoveryRESTMapper(d), d);
    assert.deepEqual(await mapper.kindFor({ group: '', version: '', resource: 'cm' }), { group: '', version: 'v1', kind: 'ConfigMap' });
  });
});

describe('category expansion (client-go restmapper/category_expansion_test.go)', () => {
  it('TestDiscoveryCategoryExpander', async () => {
    const d = listsOnly([
      { groupVersion: 'v1', resources: [res('pods', 'Pod', { categories: ['all'] })] },
      { groupVersion: 'apps/v1', resources: [res('deployments', 'Deployment', { categories: ['all', 'workloads'] }), res('controllerrevisions', 'ControllerRevision')] },
    ]);
    const e = new DiscoveryCategoryExpander(d);
    assert.deepEqual(await e.expand('all'), {
      found: true,
      resources: [
        { group: '', resource: 'pods' },
        { group: 'apps', resource: 'deployments' },
      ],
    });
    assert.deepEqual(await e.expand('missing'), { found: false, resources: [] });
    const union = new UnionCategoryExpander([
      e,
      new SimpleCategoryExpander(
        new Map([
          [
            'all',
            [
              { group: '', resource: 'pods' },
              { group: 'x', resource: 'ys' },
            ],
          ],
        ]),
      ),
    ]);
    assert.deepEqual((await union.expand('all')).resources, [
      { group: '', resource: 'pods' },
      { group: 'apps', resource: 'deployments' },
      { group: 'x', resource: 'ys' },
    ]);
  });
});

describe('DefaultRESTMapper (apimachinery meta/restmapper_test.go)', () => {
  const gv = { group: 'tgroup', version: 'test' };
  it('TestRESTMapperVersionAndKindForResource', () => {
    const m = new DefaultRESTMapper([gv]);
    m.add({ ...gv, kind: 'InternalObject' }, 'namespace');
    for (const resource of ['internalobjects', 'internalobject', 'InternalObjects']) {
      assert.deepEqual(m.kindFor({ group: '', version: '', resource }), { ...gv, kind: 'InternalObject' }, resource);
    }
    assert.throws(() => m.kindFor({ group: '', version: '', resource: 'other' }), NoResourceMatchError);
  });

  it('TestKindToResource: guessed plurals', () => {
    const m = new DefaultRESTMapper([gv]);
    for (const [kind, plural] of [
      ['Pod', 'pods'],
      ['ReplicationController', 'replicationcontrollers'],
      ['ImageRepository', 'imagerepositories'],
      ['miss', 'misses'],
      ['Endpoints', 'endpoints'],
    ] as const) {
      m.add({ ...gv, kind }, 'namespace');
      assert.equal(m.restMapping({ group: gv.group, kind }).resource.resource, plural, kind);
    }
  });

  it('TestRESTMapperResourceSingularizer', () => {
    const m = new DefaultRESTMapper([gv]);
    m.add({ ...gv, kind: 'Policy' }, 'namespace');
    assert.equal(m.resourceSingularizer('policies'), 'policy');
    assert.throws(() => m.resourceSingularizer('nothing'), NoResourceMatchError);
  });

  it('TestRESTMapperRESTMapping: versions, scope and the no-match texts', () => {
    const m = new DefaultRESTMapper([gv]);
    m.add({ ...gv, kind: 'InternalObject' }, 'namespace');
    assert.deepEqual(m.restMapping({ group: 'tgroup', kind: 'InternalObject' }), {
      resource: { ...gv, resource: 'internalobjects' },
      groupVersionKind: { ...gv, kind: 'InternalObject' },
      scope: 'namespace',
    });
    assert.throws(() => m.restMapping({ group: 'tgroup', kind: 'InternalObject' }, 'v2'), { message: 'no matches for kind "InternalObject" in version "tgroup/v2"' });
    assert.throws(() => m.restMapping({ group: 'tgroup', kind: 'InternalObject' }, 'v2', 'v3'), { message: 'no matches for kind "InternalObject" in versions ["tgroup/v2" "tgroup/v3"]' });
    assert.throws(() => m.restMapping({ group: 'other', kind: 'InternalObject' }), { message: 'no matches for kind "InternalObject" in group "other"' });
  });

  it('AmbiguousResourceError and NoResourceMatchError texts', () => {
    const m = new DefaultRESTMapper([]);
    m.add({ group: 'a', version: 'v1', kind: 'Foo' }, 'namespace');
    m.add({ group: 'b', version: 'v1', kind: 'Foo' }, 'namespace');
    assert.throws(() => m.resourceFor({ group: '', version: '', resource: 'foos' }), AmbiguousResourceError);
    assert.throws(() => m.kindFor({ group: '', version: '', resource: 'foos' }), { message: '/, Resource=foos matches multiple kinds [a/v1, Kind=Foo b/v1, Kind=Foo]' });
    assert.throws(() => m.resourceFor({ group: '', version: '', resource: 'bars' }), { message: 'no matches for /, Resource=bars' });
    assert.throws(() => m.restMapping({ group: 'a', kind: 'Bar' }, 'v1'), NoKindMatchError);
  });
});
