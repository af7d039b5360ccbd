import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { isNotFound } from '../../runtime/apimachinery/errors/index.js';
import { metaNamespaceKeyFunc, newSharedInformerFactoryCore } from '../../runtime/client/index.js';
import { RateLimitingQueue, runController } from '../../runtime/client/workqueue/index.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function until(cond: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (await cond()) return;
    await settle();
  }
  assert.fail('condition never became true');
}

describe('fake clientset: informers and a controller on it', () => {
  test('a shared informer lists and watches through the fake; handlers and listers see every change', async () => {
    const cs = newSimpleClientset({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'seed', namespace: 'ns' } });
    const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore());
    const flunders = factory.wardle().v1alpha1().flunders();
    const seen: string[] = [];
    flunders.informer().addEventHandler({
      onAdd: (obj) => {
        seen.push(`add ${obj.metadata?.name}`);
      },
      onUpdate: (_old, obj) => {
        seen.push(`update ${obj.metadata?.name}`);
      },
      onDelete: (obj) => {
        seen.push(`delete ${'key' in obj ? obj.key : obj.metadata?.name}`);
      },
    });
    factory.start();
    const synced = await factory.waitForCacheSync();
    assert.deepEqual([...synced.values()], [true]);
    const client = cs.wardleV1alpha1().flunders('ns');
    const a = await client.create({ metadata: { name: 'a' } });
    await client.update({ ...a, spec: { reference: 'x' } });
    await client.delete('seed');
    await until(() => seen.length === 4);
    assert.deepEqual(seen, ['add seed', 'add a', 'update a', 'delete seed']);
    assert.deepEqual(
      flunders
        .lister()
        .list()
        .map((f) => f.metadata?.name),
      ['a'],
    );
    assert.equal(flunders.lister().namespace('ns').get('a').spec?.reference, 'x');
    await factory.shutdown();
    assert.equal(cs.tracker().watcherCount(), 0);
  });

  test('a reconcile loop over an informer and a work queue, with a failure retried', async () => {
    const cs = newSimpleClientset();
    const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore());
    const informer = factory.wardle().v1alpha1().flunders();
    const queue = new RateLimitingQueue<string>();
    const enqueue = (obj: unknown): void => queue.add(metaNamespaceKeyFunc(obj as Flunder));
    informer.informer().addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
    let failOnce = true;
    cs.fake.prependReactor('update', 'flunders', () => {
      if (!failOnce) return { handled: false };
      failOnce = false;
      return { handled: true, error: new Error('transient') };
    });
    const ac = new AbortController();
    factory.start();
    await factory.waitForCacheSync();
    const errors: string[] = [];
    const run = runController({
      queue,
      workers: 2,
      signal: ac.signal,
      onError: (key, err) => errors.push(`${key}: ${(err as Error).message}`),
      // Marks every Flunder as reconciled with a label, read from the cache and written through the client.
      reconcile: async (key) => {
        const [ns = '', name = ''] = key.split('/');
        let cached;
        try {
          cached = informer.lister().namespace(ns).get(name);
        } catch (err) {
          if (isNotFound(err)) return;
          throw err;
        }
        if (cached.metadata?.labels?.['reconciled'] === 'true') return;
        const copy = structuredClone(cached) as Flunder;
        copy.metadata = { ...copy.metadata, labels: { ...copy.metadata?.labels, reconciled: 'true' } };
        await cs.wardleV1alpha1().flunders(ns).update(copy);
      },
    });
    await cs
      .wardleV1alpha1()
      .flunders('ns')
      .create({ metadata: { name: 'x' } });
    await cs
      .wardleV1alpha1()
      .flunders('ns')
      .create({ metadata: { name: 'y' } });
    await until(async () => (await cs.wardleV1alpha1().flunders('ns').list({ labelSelector: 'reconciled=true' })).items.length === 2);
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', /^ns\/[xy]: transient$/);
    ac.abort();
    await run;
    await factory.shutdown();
    assert.equal(queue.waitingLen(), 0);
  });
});
