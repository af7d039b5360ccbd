// The REST mapper kubectl builds (a deferred discovery mapper over the disk cache, behind the
// short name expander) against the control plane on SQLite: `cm`, `flunders`, `fl` and the
// kind Flunder map as kubectl maps them, and a CRD created after the cache was written is found
// by resetting on the miss.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { newCachedDiscoveryClient } from '../../../runtime/client/discovery/index.js';
import { DynamicClient } from '../../../runtime/client/dynamic/index.js';
import { restClientFromKubeconfig, type HTTPRESTClient } from '../../../runtime/client/index.js';
import { DeferredDiscoveryRESTMapper, DiscoveryCategoryExpander, NoResourceMatchError, ShortcutExpander } from '../../../runtime/client/restmapper/index.js';
import { describeBackends } from '../../integration/harness.js';

const any = (resource: string): { group: string; version: string; resource: string } => ({ group: '', version: '', resource });

describeBackends(
  'REST mapper from discovery',
  (cp) => {
    let rest: HTTPRESTClient;
    const cacheDir = mkdtempSync(join(tmpdir(), 'restmapper-cache-'));
    const kubectlMapper = (): { mapper: ShortcutExpander; deferred: DeferredDiscoveryRESTMapper } => {
      const discovery = newCachedDiscoveryClient({ rest, cacheDir, host: cp().url, ttlMs: 6 * 60 * 60 * 1000 });
      const deferred = new DeferredDiscoveryRESTMapper(discovery);
      return { mapper: new ShortcutExpander(deferred, discovery), deferred };
    };
    before(() => {
      rest = restClientFromKubeconfig({ path: cp().kubeconfigPath }).rest;
    });
    after(() => {
      rest.close();
      rmSync(cacheDir, { recursive: true, force: true });
    });

    it('cm, configmaps, configmap, flunders, fl and the kind Flunder', async () => {
      const { mapper } = kubectlMapper();
      assert.deepEqual(await mapper.resourceFor(any('cm')), { group: '', version: 'v1', resource: 'configmaps' });
      assert.deepEqual(await mapper.kindFor(any('cm')), { group: '', version: 'v1', kind: 'ConfigMap' });
      assert.deepEqual(await mapper.kindFor(any('configmap')), { group: '', version: 'v1', kind: 'ConfigMap' });
      // The group's preferred version wins, as `kubectl get flunders` picks it.
      assert.deepEqual(await mapper.resourceFor(any('flunders')), { group: 'wardle.example.com', version: 'v1beta1', resource: 'flunders' });
      assert.deepEqual(await mapper.resourceFor(any('fl')), { group: 'wardle.example.com', version: 'v1beta1', resource: 'flunders' });
      assert.deepEqual(await mapper.resourceFor({ group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders' }), {
        group: 'wardle.example.com',
        version: 'v1alpha1',
        resource: 'flunders',
      });
      assert.deepEqual(await mapper.resourcesFor(any('flunders')), [
        { group: 'wardle.example.com', version: 'v1beta1', resource: 'flunders' },
        { group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders' },
      ]);
      const m = await mapper.restMapping({ group: 'wardle.example.com', kind: 'Flunder' });
      assert.deepEqual(m, {
        resource: { group: 'wardle.example.com', version: 'v1beta1', resource: 'flunders' },
        groupVersionKind: { group: 'wardle.example.com', version: 'v1beta1', kind: 'Flunder' },
        scope: 'namespace',
      });
      assert.equal((await mapper.restMapping({ group: 'wardle.example.com', kind: 'Flunder' }, 'v1alpha1')).resource.version, 'v1alpha1');
      assert.equal((await mapper.restMapping({ group: '', kind: 'Namespace' })).scope, 'root');
      assert.equal(await mapper.resourceSingularizer('flunders'), 'flunder');
      await assert.rejects(mapper.resourceFor(any('nothings')), { message: 'no matches for /, Resource=nothings' });
      await assert.rejects(mapper.restMapping({ group: 'wardle.example.com', kind: 'Nothing' }), { message: 'no matches for kind "Nothing" in group "wardle.example.com"' });
      const all = await new DiscoveryCategoryExpander(newCachedDiscoveryClient({ rest, cacheDir, host: cp().url })).expand('all');
      assert.ok(all.resources.some((r) => r.group === 'wardle.example.com' && r.resource === 'flunders'));
    });

    it('a CRD created after the cache was written: the miss resets the mapper and finds it (TestDeferredDiscoveryRESTMapper_CacheMiss)', async () => {
      const dyn = new DynamicClient(rest);
      await dyn.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }).create({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'gizmos.example.dev' },
        spec: {
          group: 'example.dev',
          scope: 'Namespaced',
          names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', shortNames: ['gz'] },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
        },
      });
      // Wait until discovery serves it.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const r = await rest.request<{ resources?: unknown[] }>({ method: 'GET', path: '/apis/example.dev/v1' }).catch(() => undefined);
        if ((r?.resources?.length ?? 0) > 0) break;
        if (Date.now() > deadline) throw new Error('gizmos never appeared in discovery');
        await new Promise((res) => setTimeout(res, 200));
      }
      // A new mapper over the files the first test wrote: not fresh, so the miss resets it.
      const { mapper } = kubectlMapper();
      assert.deepEqual(await mapper.kindFor(any('gz')), { group: 'example.dev', version: 'v1', kind: 'Gizmo' });
      assert.deepEqual(await mapper.resourceFor(any('gizmos')), { group: 'example.dev', version: 'v1', resource: 'gizmos' });
      // Once fresh, a miss is final.
      await assert.rejects(mapper.kindFor(any('nothings')), NoResourceMatchError);
    });
  },
  { only: ['sqlite'] },
);
