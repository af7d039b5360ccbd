// The dynamic client against the control plane on SQLite: create, get, list, update, status,
// patch, apply, watch and delete of a Flunder (an aggregated-style group of this server) and a
// ConfigMap (core), with kube's errors as StatusErrors.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { isAlreadyExists, isConflict, isNotFound, StatusError } from '../../../runtime/apimachinery/errors/index.js';
import { DynamicClient, nestedString, type Unstructured } from '../../../runtime/client/dynamic/index.js';
import { restClientFromKubeconfig, type HTTPRESTClient, type Watch, type WatchEvent } from '../../../runtime/client/index.js';
import { describeBackends } from '../../integration/harness.js';

const NS = 'dynamic';
const flunders = { group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders' };
const configmaps = { group: '', version: 'v1', resource: 'configmaps' };

/** The next event of a watch that is not a bookmark, within 10 s. */
async function next(w: Watch<Unstructured>, it: AsyncIterator<WatchEvent<Unstructured>>): Promise<WatchEvent<Unstructured>> {
  const timer = setTimeout(() => w.stop(), 10_000);
  try {
    for (;;) {
      const r = await it.next();
      if (r.done === true) throw new Error('watch ended');
      if (r.value.type !== 'BOOKMARK') return r.value;
    }
  } finally {
    clearTimeout(timer);
  }
}

describeBackends(
  'dynamic client',
  (cp) => {
    let rest: HTTPRESTClient;
    let dyn: DynamicClient;
    before(async () => {
      rest = restClientFromKubeconfig({ path: cp().kubeconfigPath }).rest;
      dyn = new DynamicClient(rest);
      await dyn.resource({ group: '', version: 'v1', resource: 'namespaces' }).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    });
    after(() => rest.close());

    it('a Flunder: create, get, list, update, updateStatus, patch, apply, delete, with a watch seeing each', async () => {
      const c = dyn.resource(flunders).namespace(NS);
      const w = await c.watch({ allowWatchBookmarks: true });
      const events = w[Symbol.asyncIterator]();
      try {
        const created = await c.create(
          { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f1', labels: { app: 'x' } }, spec: { reference: 'a', referenceType: 'Flunder' } },
          { fieldManager: 'dyn' },
        );
        assert.equal(created.kind, 'Flunder');
        assert.equal(nestedString(created, 'spec', 'reference'), 'a');
        let e = await next(w, events);
        assert.deepEqual([e.type, (e.object as Unstructured).metadata?.name], ['ADDED', 'f1']);

        const dup = await c.create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f1' } }).catch((x: unknown) => x);
        assert.ok(isAlreadyExists(dup), String(dup));
        assert.equal((dup as StatusError).status.message, 'flunders.wardle.example.com "f1" already exists');

        const got = await c.get('f1');
        assert.equal(got.metadata?.uid, created.metadata?.uid);
        const list = await c.list({ labelSelector: 'app=x' });
        assert.deepEqual(
          list.items.map((i) => i.metadata?.name),
          ['f1'],
        );
        assert.equal(list.kind, 'FlunderList');

        const updated = await c.update({ ...got, spec: { reference: 'b', referenceType: 'Flunder' } });
        assert.equal(nestedString(updated, 'spec', 'reference'), 'b');
        e = await next(w, events);
        assert.equal(e.type, 'MODIFIED');
        const stale = await c.update({ ...got, spec: { reference: 'c' } }).catch((x: unknown) => x);
        assert.ok(isConflict(stale), String(stale));

        const withStatus = await c.updateStatus({
          ...updated,
          status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Done', message: 'ok', lastTransitionTime: '2026-11-26T00:00:00Z' }] },
        });
        assert.equal(nestedString(withStatus, 'spec', 'reference'), 'b');
        assert.equal((withStatus['status'] as { conditions: { type: string }[] }).conditions[0]?.type, 'Ready');
        await next(w, events);

        const patched = await c.patch('f1', 'application/merge-patch+json', { metadata: { labels: { patched: 'yes' } } });
        assert.equal(patched.metadata?.labels?.['patched'], 'yes');
        await next(w, events);
        const viaSubresource = await c.get('f1', {}, 'status');
        assert.equal(viaSubresource.metadata?.name, 'f1');

        const applied = await c.apply(
          'f1',
          { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f1' }, spec: { reference: 'z' } },
          { fieldManager: 'applier', force: true },
        );
        assert.equal(nestedString(applied, 'spec', 'reference'), 'z');
        assert.ok(applied.metadata?.managedFields?.some((m) => m.manager === 'applier'));
        await next(w, events);

        await c.delete('f1');
        e = await next(w, events);
        assert.deepEqual([e.type, (e.object as Unstructured).metadata?.name], ['DELETED', 'f1']);
        const gone = await c.get('f1').catch((x: unknown) => x);
        assert.ok(isNotFound(gone));
        assert.equal((gone as StatusError).status.message, 'flunders.wardle.example.com "f1" not found');
      } finally {
        w.stop();
      }
    });

    it('a ConfigMap: create, watch, patch, deleteCollection; all namespaces and dry run', async () => {
      const c = dyn.resource(configmaps).namespace(NS);
      const cm = (name: string): Unstructured => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { set: 'dyn' } }, data: { k: name } });
      const dry = await c.create(cm('dry'), { dryRun: true });
      assert.equal(dry.metadata?.name, 'dry');
      assert.ok(isNotFound(await c.get('dry').catch((x: unknown) => x)));
      const first = await c.create(cm('one'));
      const w = await c.watch({ resourceVersion: first.metadata?.resourceVersion ?? '' });
      const events = w[Symbol.asyncIterator]();
      try {
        await c.create(cm('two'));
        const e = await next(w, events);
        assert.deepEqual([e.type, (e.object as Unstructured).metadata?.name, (e.object as Unstructured)['data']], ['ADDED', 'two', { k: 'two' }]);
        const p = await c.patch('two', 'application/json-patch+json', [{ op: 'replace', path: '/data/k', value: 'changed' }]);
        assert.deepEqual(p['data'], { k: 'changed' });
        const m = await next(w, events);
        assert.equal(m.type, 'MODIFIED');
        const everywhere = await dyn.resource(configmaps).list({ labelSelector: 'set=dyn' });
        assert.deepEqual(everywhere.items.map((i) => i.metadata?.name).sort(), ['one', 'two']);
        await c.deleteCollection({}, { labelSelector: 'set=dyn' });
        const d1 = await next(w, events);
        const d2 = await next(w, events);
        assert.deepEqual([d1.type, d2.type], ['DELETED', 'DELETED']);
        assert.deepEqual((await c.list({ labelSelector: 'set=dyn' })).items, []);
      } finally {
        w.stop();
      }
      const invalid = await c.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } }).catch((x: unknown) => x);
      assert.ok(invalid instanceof StatusError);
      assert.equal(invalid.status.reason, 'Invalid');
    });
  },
  { only: ['sqlite'] },
);
