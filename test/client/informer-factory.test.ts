import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ListWatch } from '../../runtime/client/cache.js';
import { informerKey, newSharedInformerFactoryCore, silentLogger } from '../../runtime/client/cache/index.js';
import type { ResourceDescriptor } from '../../runtime/client/types.js';
import { FakeAPI, type Obj } from './cache-fake-api.js';
import { FakeClock } from './cache-fake-clock.js';
import { Recorder, settle, until } from './cache-testing.js';

const things: ResourceDescriptor = { group: 'example.com', version: 'v1', resource: 'things', kind: 'Thing', namespaced: true };
const widgets: ResourceDescriptor = { group: '', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: false };

/** What a generated informer passes: a ListWatch for the namespace it is asked for. */
const lwOf =
  (api: FakeAPI, namespaces: (string | undefined)[] = []) =>
  (namespace: string | undefined): ListWatch<Obj> => {
    namespaces.push(namespace);
    return api.listWatch();
  };

describe('SharedInformerFactoryCore', () => {
  it('shares one informer, one list and one watch between consumers of a resource', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    const factory = newSharedInformerFactoryCore({ tuning: { clock: new FakeClock(), logger: silentLogger } });
    const first = factory.informerFor(things, lwOf(api));
    const second = factory.informerFor(things, lwOf(api));
    assert.equal(first, second);
    const r1 = new Recorder();
    const r2 = new Recorder();
    first.addEventHandler(r1);
    second.addEventHandler(r2);
    factory.start();
    factory.start(); // idempotent
    assert.deepEqual(await factory.waitForCacheSync(), new Map([['things.v1.example.com', true]]));
    api.create('b', 'ns');
    await until(() => r1.events.length === 2 && r2.events.length === 2, 'both consumers notified');
    assert.deepEqual(r1.events, r2.events);
    assert.equal(api.callsOf('list').length, 1);
    assert.equal(api.callsOf('watch').length, 1);
    assert.deepEqual(
      first
        .getIndexer()
        .byIndex('namespace', 'ns')
        .map((o) => o.metadata.name),
      ['a', 'b'],
    );
    await factory.shutdown();
    assert.equal(api.openWatches(), 0);
  });

  it('starts an informer asked for after start at once, and waitForCacheSync waits for it', async () => {
    const thingsAPI = new FakeAPI();
    const widgetsAPI = new FakeAPI();
    widgetsAPI.create('w');
    const factory = newSharedInformerFactoryCore({ tuning: { clock: new FakeClock(), logger: silentLogger } });
    factory.informerFor(things, lwOf(thingsAPI));
    factory.start();
    assert.deepEqual(await factory.waitForCacheSync(), new Map([['things.v1.example.com', true]]));
    // Asked for after start (and after a wait): it runs without a second start, and the next wait includes it.
    const late = factory.informerFor(widgets, lwOf(widgetsAPI));
    const rec = new Recorder();
    late.addEventHandler(rec);
    assert.deepEqual(
      await factory.waitForCacheSync(),
      new Map([
        ['things.v1.example.com', true],
        ['widgets.v1', true],
      ]),
    );
    assert.equal(late.getIndexer().getByKey('w')?.metadata.name, 'w');
    widgetsAPI.create('v');
    await until(() => rec.events.length === 2, 'the late informer delivers the initial add and the watch event');
    factory.start(); // idempotent: no second list
    assert.equal(widgetsAPI.callsOf('list').length, 1);
    await factory.shutdown();
    assert.equal(widgetsAPI.openWatches(), 0);
  });

  it('starts nothing asked for after shutdown', async () => {
    const api = new FakeAPI();
    const factory = newSharedInformerFactoryCore({ tuning: { clock: new FakeClock(), logger: silentLogger } });
    factory.start();
    await factory.shutdown();
    const informer = factory.informerFor(things, lwOf(api));
    assert.deepEqual(await factory.waitForCacheSync(), new Map());
    assert.equal(informer.hasSynced(), false);
    assert.equal(api.calls.length, 0);
  });

  it('applies the factory namespace and list option tweak to every list and watch', async () => {
    const api = new FakeAPI();
    const namespaces: (string | undefined)[] = [];
    const factory = newSharedInformerFactoryCore({
      namespace: 'team-a',
      tweakListOptions: (o) => ({ ...o, labelSelector: 'app=web' }),
      tuning: { clock: new FakeClock(), logger: silentLogger },
    });
    factory.informerFor(things, lwOf(api, namespaces));
    factory.informerFor(widgets, lwOf(new FakeAPI(), namespaces));
    factory.start();
    await factory.waitForCacheSync();
    await until(() => api.openWatches() === 1, 'watching');
    assert.deepEqual(namespaces, ['team-a', undefined]); // cluster-scoped resources ignore the namespace
    assert.deepEqual(
      api.calls.map((c) => [c.verb, c.options.labelSelector]),
      [
        ['list', 'app=web'],
        ['watch', 'app=web'],
      ],
    );
    assert.equal(factory.options.namespace, 'team-a');
    await factory.shutdown();
  });

  it('waitForCacheSync reports false for informers not synced when its signal aborts', async () => {
    const api = new FakeAPI();
    api.partition(); // lists hang
    const factory = newSharedInformerFactoryCore({ tuning: { clock: new FakeClock(), logger: silentLogger } });
    factory.informerFor(things, lwOf(api));
    factory.start();
    const abort = new AbortController();
    const waiting = factory.waitForCacheSync(abort.signal);
    await settle();
    abort.abort();
    assert.deepEqual(await waiting, new Map([['things.v1.example.com', false]]));
    await factory.shutdown();
    assert.deepEqual(await factory.waitForCacheSync(), new Map([['things.v1.example.com', false]]));
  });

  it('shutdown ends every loop and leaves no timer or watch behind (real clock, resync on)', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const api = new FakeAPI();
    api.create('a', 'ns');
    const factory = newSharedInformerFactoryCore({ defaultResyncMs: 1000, tuning: { logger: silentLogger } });
    const informer = factory.informerFor(things, lwOf(api));
    const rec = new Recorder();
    informer.addEventHandler(rec);
    factory.start();
    await factory.waitForCacheSync();
    assert.ok(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length > before, 'the resync timer runs');
    await factory.shutdown();
    assert.equal(informer.isStopped(), true);
    assert.equal(api.openWatches(), 0);
    assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, before);
    factory.start(); // after shutdown: nothing starts again
    assert.equal(api.callsOf('list').length, 1);
  });

  it('names informers by resource.version.group', () => {
    assert.equal(informerKey(things), 'things.v1.example.com');
    assert.equal(informerKey(widgets), 'widgets.v1');
  });
});
