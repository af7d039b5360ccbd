import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newResourceExpired } from '../../runtime/apimachinery/errors/index.js';
import { selectorFromSet } from '../../runtime/apimachinery/labels/index.js';
import { isDeletedFinalStateUnknown, type ResourceEventHandler } from '../../runtime/client/cache.js';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX, newSharedIndexInformer, type SharedIndexInformerImpl, silentLogger } from '../../runtime/client/cache/index.js';
import { ListerNotFoundError, NamespacedLister } from '../../runtime/client/lister.js';
import type { DeepReadonly, ResourceDescriptor } from '../../runtime/client/types.js';
import { FakeAPI, type Obj } from './cache-fake-api.js';
import { FakeClock } from './cache-fake-clock.js';
import { Recorder, settle, until } from './cache-testing.js';

function setup(api: FakeAPI, options: { defaultResyncMs?: number } = {}) {
  const clock = new FakeClock();
  const errors: unknown[] = [];
  const logged: string[] = [];
  const informer = newSharedIndexInformer<Obj>({
    name: 'things',
    listWatch: api.listWatch(),
    defaultResyncMs: options.defaultResyncMs ?? 0,
    indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
    tuning: { clock, random: () => 0, logger: { ...silentLogger, error: (m) => logged.push(m) } },
  });
  informer.setWatchErrorHandler((_name, err) => errors.push(err));
  const stop = new AbortController();
  let done: Promise<void> | undefined;
  return {
    clock,
    informer,
    errors,
    logged,
    run: () => {
      done = informer.run(stop.signal);
    },
    shutdown: async () => {
      stop.abort();
      await done;
      assert.equal(informer.isStopped(), true);
      assert.equal(api.openWatches(), 0);
      assert.equal(clock.pending(), 0);
    },
  };
}

const seeded = (): FakeAPI => {
  const api = new FakeAPI();
  api.create('a', 'ns1');
  api.create('b', 'ns1');
  api.create('c', 'ns2');
  return api;
};

const cachedState = (informer: SharedIndexInformerImpl<Obj>): string[] =>
  informer
    .getIndexer()
    .list()
    .map((o) => `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`)
    .sort();
const serverState = (api: FakeAPI): string[] => [...api.current().values()].map((o) => `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`).sort();

describe('SharedIndexInformer', () => {
  it('delivers the initial list as adds marked initial, then watch events in order', async () => {
    const api = seeded();
    const t = setup(api);
    const rec = new Recorder();
    const reg = t.informer.addEventHandler(rec);
    assert.equal(t.informer.hasSynced(), false);
    assert.equal(t.informer.lastSyncResourceVersion(), '');
    t.run();
    await until(() => reg.hasSynced(), 'handler synced');
    assert.equal(t.informer.hasSynced(), true);
    assert.equal(t.informer.lastSyncResourceVersion(), '103');
    assert.deepEqual(rec.events, ['add ns1/a@101 initial', 'add ns1/b@102 initial', 'add ns2/c@103 initial']);
    api.update('a', 'ns1', { v: '2' });
    api.delete('b', 'ns1');
    api.create('d', 'ns2');
    await until(() => rec.events.length === 6, 'watch events');
    assert.deepEqual(rec.events.slice(3), ['update ns1/a@101->ns1/a@104', 'delete ns1/b@105', 'add ns2/d@106']);
    assert.deepEqual(cachedState(t.informer), serverState(api));
    assert.equal(t.informer.lastSyncResourceVersion(), '106');
    await t.shutdown();
  });

  it('after a 410, relists and reports what it missed: updates, adds, and tombstones for deletions', async () => {
    const api = seeded();
    const t = setup(api);
    const rec = new Recorder();
    t.informer.addEventHandler(rec);
    t.run();
    await until(() => t.informer.hasSynced() && api.openWatches() === 1, 'synced');
    api.partition();
    api.update('a', 'ns1', { v: '2' }); // 104
    api.delete('c', 'ns2'); // 105
    api.create('e', 'ns2'); // 106
    api.compact();
    t.clock.advance(60_000);
    api.heal();
    await until(() => rec.events.length === 7, 'relist delivered', t.clock);
    assert.deepEqual(rec.events.slice(3), [
      'update ns1/a@101->ns1/a@104',
      'update ns1/b@102->ns1/b@102', // unchanged: a relist tells every handler not yet sorted out by a resync check, as client-go does
      'add ns2/e@106',
      'delete? ns2/c ns2/c@103',
    ]);
    assert.equal((t.errors[0] as { reason?: string }).reason, 'Expired');
    assert.deepEqual(cachedState(t.informer), serverState(api));
    await t.shutdown();
  });

  it('resyncs only the handlers whose period is due, as updates of an object to itself', async () => {
    const api = seeded();
    const t = setup(api);
    const resyncing = new Recorder();
    const quiet = new Recorder();
    t.informer.addEventHandler(resyncing, { resyncPeriodMs: 10_000 });
    t.informer.addEventHandler(quiet);
    t.run();
    await until(() => resyncing.events.length === 3 && quiet.events.length === 3, 'initial adds');
    t.clock.advance(10_000);
    await until(() => resyncing.events.length === 6, 'resync');
    assert.deepEqual(resyncing.events.slice(3), ['update ns1/a@101->ns1/a@101', 'update ns1/b@102->ns1/b@102', 'update ns2/c@103->ns2/c@103']);
    await settle();
    assert.equal(quiet.events.length, 3);
    // A relist's unchanged objects now reach only the handlers due for a resync, i.e. none.
    api.failWatches.push(newResourceExpired('too old'));
    t.clock.advance(5000);
    api.drop('close');
    await until(() => api.callsOf('list').length === 2 && api.openWatches() === 1, 'relisted', t.clock);
    await settle();
    assert.equal(quiet.events.length, 3);
    await t.shutdown();
  });

  it('gives a handler added after sync the cache as initial adds, and is synced for it once it processed them', async () => {
    const api = seeded();
    const t = setup(api);
    t.run();
    await until(() => t.informer.hasSynced(), 'synced');
    const late = new Recorder();
    const reg = t.informer.addEventHandler(late);
    assert.equal(reg.hasSynced(), false, 'not before it saw the initial adds');
    await until(() => reg.hasSynced(), 'late handler synced');
    assert.deepEqual(late.events, ['add ns1/a@101 initial', 'add ns1/b@102 initial', 'add ns2/c@103 initial']);
    api.create('d', 'ns1');
    await until(() => late.events.length === 4, 'later event');
    assert.equal(late.events[3], 'add ns1/d@104');
    await t.shutdown();
  });

  it('a slow handler delays only itself: others, the cache and the reflector go on', async () => {
    const api = seeded();
    const t = setup(api);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowSeen: string[] = [];
    const slow: ResourceEventHandler<Obj> = {
      async onAdd(obj) {
        slowSeen.push(obj.metadata.name);
        await gate;
      },
    };
    const fast = new Recorder();
    const slowReg = t.informer.addEventHandler(slow);
    const fastReg = t.informer.addEventHandler(fast);
    t.run();
    await until(() => fastReg.hasSynced(), 'fast handler synced');
    for (let i = 0; i < 50; i++) api.create(`n${i}`, 'ns3');
    await until(() => fast.events.length === 53, 'fast handler saw everything');
    assert.equal(t.informer.getIndexer().list().length, 53);
    assert.deepEqual(slowSeen, ['a']);
    assert.equal(slowReg.hasSynced(), false);
    release();
    await until(() => slowSeen.length === 53, 'slow handler caught up');
    assert.deepEqual(slowSeen.slice(0, 5), ['a', 'b', 'c', 'n0', 'n1']);
    assert.equal(slowReg.hasSynced(), true);
    await t.shutdown();
  });

  it('hands out frozen objects: neither handlers nor listers can change the cache', async () => {
    const api = seeded();
    const t = setup(api);
    const failures: unknown[] = [];
    const after = new Recorder();
    t.informer.addEventHandler({
      onAdd(obj) {
        try {
          (obj as Obj).metadata.name = 'hijacked';
        } catch (err) {
          failures.push(err);
        }
        throw new Error('handler bug'); // must not stop the notifications that follow
      },
    });
    t.informer.addEventHandler(after);
    t.run();
    await until(() => failures.length === 3 && after.events.length === 3, 'adds delivered');
    assert.ok(failures.every((e) => e instanceof TypeError));
    assert.equal(t.logged.filter((m) => m === 'event handler failed').length, 3);
    const cached = t.informer.getIndexer().getByKey('ns1/a') as DeepReadonly<Obj>;
    assert.equal(cached.metadata.name, 'a');
    assert.throws(() => {
      (cached.metadata as { labels?: Record<string, string> }).labels = {};
    }, TypeError);
    assert.throws(() => {
      (cached.data as Record<string, string>)['x'] = 'y';
    }, TypeError);
    api.create('d', 'ns1');
    await until(() => after.events.length === 4, 'the faulty handler did not stop the others');
    await t.shutdown();
  });

  it('accepts indexers before and after start, not after stop; listers read through them', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns1', {}, { app: 'web' });
    api.create('b', 'ns1', {}, { app: 'db' });
    api.create('c', 'ns2', {}, { app: 'web' });
    const t = setup(api);
    t.informer.addIndexers({ app: (o) => [o.metadata.labels?.['app'] ?? ''] });
    t.run();
    await until(() => t.informer.hasSynced(), 'synced');
    assert.deepEqual(t.informer.getIndexer().indexKeys('app', 'web'), ['ns1/a', 'ns2/c']);
    t.informer.addIndexers({ byName: (o) => [o.metadata.name] });
    assert.deepEqual(t.informer.getIndexer().indexKeys('byName', 'b'), ['ns1/b']);
    assert.deepEqual(t.informer.getIndexer().listIndexFuncValues(NAMESPACE_INDEX), ['ns1', 'ns2']);

    const resource: ResourceDescriptor = { group: 'example.com', version: 'v1', resource: 'things', kind: 'Thing', namespaced: true };
    const lister = new NamespacedLister<Obj>(t.informer.getIndexer(), resource);
    assert.deepEqual(
      lister.list(selectorFromSet({ app: 'web' })).map((o) => o.metadata.name),
      ['a', 'c'],
    );
    assert.equal(lister.namespace('ns1').get('b').metadata.labels?.['app'], 'db');
    assert.deepEqual(
      lister
        .namespace('ns1')
        .list()
        .map((o) => o.metadata.name),
      ['a', 'b'],
    );
    assert.throws(
      () => lister.namespace('ns2').get('a'),
      (e: unknown) => e instanceof ListerNotFoundError && e.message === 'things.example.com "a" not found',
    );

    assert.throws(() => t.informer.setWatchErrorHandler(() => {}), /already started/);
    await t.shutdown();
    assert.throws(() => t.informer.addIndexers({ late: () => [] }), /has stopped/);
    assert.throws(() => t.informer.addEventHandler(new Recorder()), /has stopped/);
  });

  it('stops notifying a removed handler; a second run does nothing', async () => {
    const api = seeded();
    const t = setup(api);
    const kept = new Recorder();
    const removed = new Recorder();
    t.informer.addEventHandler(kept);
    const reg = t.informer.addEventHandler(removed);
    t.run();
    await until(() => removed.events.length === 3, 'initial adds');
    reg.remove();
    api.create('d', 'ns1');
    await until(() => kept.events.length === 4, 'kept handler notified');
    await settle();
    assert.equal(removed.events.length, 3);
    await t.informer.run(new AbortController().signal); // returns at once: already running
    assert.equal(api.callsOf('list').length, 1);
    await t.shutdown();
  });

  it('whenSynced resolves false when the informer stops before syncing', async () => {
    const api = seeded();
    api.partition(); // the list hangs
    const t = setup(api);
    t.run();
    const synced = t.informer.whenSynced();
    await settle();
    await Promise.all([t.shutdown().catch(() => {}), synced.then((v) => assert.equal(v, false))]);
    api.heal();
  });

  it("a handler's view ends equal to the server after 2,000 changes under drops, resets and expiries", async () => {
    const api = seeded();
    const t = setup(api);
    const view = new Map<string, string>();
    const keyOf = (o: DeepReadonly<Obj>): string => `${o.metadata.namespace}/${o.metadata.name}`;
    t.informer.addEventHandler({
      onAdd: (o) => {
        view.set(keyOf(o), o.metadata.resourceVersion ?? '');
      },
      onUpdate: (_old, o) => {
        view.set(keyOf(o), o.metadata.resourceVersion ?? '');
      },
      onDelete: (o) => {
        view.delete(isDeletedFinalStateUnknown(o) ? o.key : keyOf(o));
      },
    });
    t.run();
    await until(() => t.informer.hasSynced() && api.openWatches() === 1, 'synced');
    let seed = 42; // mulberry32: deterministic and well mixed in the low bits
    const random = (n: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((((x ^ (x >>> 14)) >>> 0) / 4294967296) * n) | 0;
    };
    for (let i = 0; i < 2000; i++) {
      const name = `o${random(60)}`;
      const exists = api.current().has(`ns/${name}`);
      const op = random(10);
      if (!exists) api.create(name, 'ns');
      else if (op < 6) api.update(name, 'ns', { i: String(i) });
      else api.delete(name, 'ns');
      const chaos = random(100);
      if (chaos < 3) api.drop('close');
      else if (chaos < 5) api.drop('reset');
      else if (chaos === 5) {
        api.partition();
        api.create(`p${i}`, 'ns');
        api.compact();
        t.clock.advance(60_000);
        api.heal();
      }
      if (i % 50 === 0) await settle(2);
    }
    const server = (): string[] => [...api.current().entries()].map(([k, o]) => `${k}@${o.metadata.resourceVersion}`).sort();
    const seen = (): string[] => [...view.entries()].map(([k, rv]) => `${k}@${rv}`).sort();
    await until(() => JSON.stringify(seen()) === JSON.stringify(server()), 'handler view equal to the server', t.clock);
    assert.deepEqual(cachedState(t.informer), serverState(api));
    assert.ok(api.callsOf('list').length > 1, 'some expiries forced relists');
    await t.shutdown();
  });
});
