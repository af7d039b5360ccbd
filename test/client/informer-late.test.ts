// The lazy-informer trap is closed: a generated accessor registers its informer when asked for
// (not when its informer() or lister() is first called), and a started factory starts an
// informer asked for later at once, with waitForCacheSync waiting for it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { newSharedInformerFactoryCore } from '../../runtime/client/index.js';
import { until } from '../integration/assertions.js';

const flunder = (name: string): Flunder => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, namespace: 'ns' } });

describe('generated informers on a started factory', () => {
  test('an accessor asked for before start runs with start(), even when its lister is first used after the wait', async () => {
    const cs = newSimpleClientset(flunder('seed'));
    const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore());
    const flunders = factory.wardle().v1alpha1().flunders(); // informer() and lister() not called yet
    factory.start();
    assert.deepEqual(await factory.waitForCacheSync(), new Map([['flunders.v1alpha1.wardle.example.com', true]]));
    assert.deepEqual(
      flunders
        .lister()
        .namespace('ns')
        .list()
        .map((f) => f.metadata?.name),
      ['seed'],
    );
    await factory.shutdown();
  });

  test('an informer obtained after start() syncs and delivers events without a second start()', async () => {
    const cs = newSimpleClientset(flunder('seed'), { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'f' }, disallowedFlunders: [] });
    const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore());
    factory.wardle().v1alpha1().fischers();
    factory.start();
    await factory.waitForCacheSync();

    const late = factory.wardle().v1alpha1().flunders();
    const seen: string[] = [];
    late.informer().addEventHandler({ onAdd: (f) => void seen.push(`add ${f.metadata?.name}`) });
    const synced = await factory.waitForCacheSync();
    assert.equal(synced.get('flunders.v1alpha1.wardle.example.com'), true);
    assert.equal(late.informer().hasSynced(), true);
    assert.deepEqual(
      late
        .lister()
        .list()
        .map((f) => f.metadata?.name),
      ['seed'],
    );
    await cs.wardleV1alpha1().flunders('ns').create(flunder('later'));
    await until('the watch event of the late informer', () => (seen.length === 2 ? true : undefined));
    assert.deepEqual(seen, ['add seed', 'add later']);
    await factory.shutdown();
    assert.equal(cs.tracker().watcherCount(), 0);
  });
});
