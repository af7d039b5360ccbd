import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newBadRequest, newInternalError, newResourceExpired } from '../../runtime/apimachinery/errors/index.js';
import { type ReflectorStore, Reflector, type ReflectorTuning, silentLogger, VeryShortWatchError } from '../../runtime/client/cache/index.js';
import type { DeepReadonly } from '../../runtime/client/types.js';
import { connectionError, FakeAPI, type Obj, throttled } from './cache-fake-api.js';
import { FakeClock } from './cache-fake-clock.js';
import { settle, until } from './cache-testing.js';

/** A store that applies what it is given to a map and records the calls. */
class RecordingStore implements ReflectorStore<Obj> {
  readonly ops: string[] = [];
  readonly state = new Map<string, DeepReadonly<Obj>>();
  add(o: DeepReadonly<Obj>): void {
    this.put('add', o);
  }
  update(o: DeepReadonly<Obj>): void {
    this.put('update', o);
  }
  delete(o: DeepReadonly<Obj>): void {
    this.ops.push(`delete ${o.metadata.name}@${o.metadata.resourceVersion}`);
    this.state.delete(keyOf(o));
  }
  replace(objs: readonly DeepReadonly<Obj>[], rv: string): void {
    this.ops.push(`replace ${objs.length}@${rv}`);
    this.state.clear();
    for (const o of objs) this.state.set(keyOf(o), o);
  }
  resync(): void {
    this.ops.push('resync');
  }
  private put(op: string, o: DeepReadonly<Obj>): void {
    this.ops.push(`${op} ${o.metadata.name}@${o.metadata.resourceVersion}`);
    this.state.set(keyOf(o), o);
  }
}

const keyOf = (o: DeepReadonly<Obj>): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function sameState(store: RecordingStore, api: FakeAPI): boolean {
  const server = [...api.current().values()].map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
  const cached = [...store.state.values()].map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
  return JSON.stringify(server) === JSON.stringify(cached);
}

function start(api: FakeAPI, tuning: ReflectorTuning = {}, extra: { resyncPeriodMs?: number } = {}) {
  const clock = new FakeClock();
  const store = new RecordingStore();
  const errors: unknown[] = [];
  const reflector = new Reflector<Obj>({
    name: 'things',
    listWatch: api.listWatch(),
    store,
    clock,
    random: () => 0,
    logger: silentLogger,
    watchErrorHandler: (_name, err) => errors.push(err),
    ...tuning,
    ...extra,
  });
  const stop = new AbortController();
  const done = reflector.run(stop.signal);
  const shutdown = async (): Promise<void> => {
    stop.abort();
    await done;
    assert.equal(api.openWatches(), 0, 'no watch left open');
    assert.equal(clock.pending(), 0, 'no sleep left pending');
  };
  return { clock, store, errors, reflector, shutdown };
}

const listRVs = (api: FakeAPI): (string | undefined)[] => api.callsOf('list').map((c) => c.options.resourceVersion);
const watchRVs = (api: FakeAPI): (string | undefined)[] => api.callsOf('watch').map((c) => c.options.resourceVersion);

describe('Reflector', () => {
  it('lists at resourceVersion 0, then watches from the list with bookmarks and a randomised timeout', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    api.create('b', 'ns');
    const r = start(api, { minWatchTimeoutMs: 10_000 });
    await until(() => api.openWatches() === 1, 'watch open');
    assert.deepEqual(
      api.callsOf('list').map((c) => c.options),
      [{ resourceVersion: '0', limit: 500 }],
    );
    const [watch] = api.callsOf('watch');
    assert.equal(watch?.options.resourceVersion, '102');
    assert.equal(watch?.options.allowWatchBookmarks, true);
    assert.equal(watch?.options.timeoutSeconds, 10); // min * (1 + random()), random() = 0 here
    assert.deepEqual(r.store.ops, ['replace 2@102']);
    assert.equal(r.reflector.lastSyncResourceVersion(), '102');

    api.update('a', 'ns', { v: '2' });
    api.create('c', 'ns');
    api.delete('b', 'ns');
    await until(() => r.store.ops.length === 4, 'events applied');
    assert.deepEqual(r.store.ops.slice(1), ['update a@103', 'add c@104', 'delete b@105']);
    assert.equal(r.reflector.lastSyncResourceVersion(), '105');
    api.bookmark();
    await until(() => r.reflector.lastSyncResourceVersion() === '105', 'bookmark seen');
    assert.ok(sameState(r.store, api));
    assert.deepEqual(r.errors, []);
    await r.shutdown();
  });

  it('spreads watch timeouts over [min, 2 min) as client-go does', async () => {
    const api = new FakeAPI();
    const r = start(api, { minWatchTimeoutMs: 300_000, random: () => 0.999 });
    await until(() => api.openWatches() === 1, 'watch open');
    assert.equal(api.callsOf('watch')[0]?.options.timeoutSeconds, 599);
    await r.shutdown();
  });

  for (const how of ['close', 'reset'] as const) {
    it(`resumes from the last resourceVersion (bookmarks included) after a ${how === 'close' ? 'clean close' : 'connection reset'}, without relisting`, async () => {
      const api = new FakeAPI();
      api.create('a', 'ns');
      const r = start(api);
      await until(() => api.openWatches() === 1, 'watch open');
      api.create('b', 'ns');
      api.update('a', 'ns', { v: '2' }); // rv 103
      await until(() => r.reflector.lastSyncResourceVersion() === '103', 'events seen');
      api.drop(how);
      await until(() => api.openWatches() === 1 && api.callsOf('watch').length === 2, 'second watch');
      api.create('c', 'ns'); // 104
      api.bookmark();
      await until(() => r.reflector.lastSyncResourceVersion() === '104', 'event after resume');
      api.drop(how);
      await until(() => api.callsOf('watch').length === 3 && api.openWatches() === 1, 'third watch');
      assert.deepEqual(watchRVs(api), ['101', '103', '104']);
      assert.deepEqual(listRVs(api), ['0']);
      assert.deepEqual(r.errors, []);
      assert.ok(sameState(r.store, api));
      await r.shutdown();
    });
  }

  for (const as of ['event', 'http'] as const) {
    it(`relists after a 410 on the watch (${as === 'event' ? 'ERROR event' : 'HTTP error'}), at the last resourceVersion, after a backoff`, async () => {
      const api = new FakeAPI();
      api.expiredWatchAs = as;
      api.create('a', 'ns');
      api.create('b', 'ns');
      const r = start(api);
      await until(() => api.openWatches() === 1, 'watch open');
      api.partition();
      api.update('a', 'ns', { v: '2' });
      api.delete('b', 'ns');
      api.create('c', 'ns');
      api.compact();
      r.clock.advance(60_000); // the watch has been open for a while
      api.heal();
      await until(() => api.callsOf('list').length === 2 && api.openWatches() === 1, 'relisted and watching', r.clock);
      assert.equal(r.errors.length, 1);
      assert.equal((r.errors[0] as { reason?: string }).reason, 'Expired');
      assert.deepEqual(listRVs(api), ['0', '102']);
      assert.deepEqual(watchRVs(api), ['102', '102', '105']);
      assert.deepEqual(r.clock.sleeps, [800]);
      assert.ok(sameState(r.store, api));
      await r.shutdown();
    });
  }

  it('falls back to a consistent paginated list when the list at resourceVersion 0 fails with 410 or a too-large resourceVersion', async () => {
    for (const failure of [newResourceExpired('too old'), 'too-large'] as const) {
      const api = new FakeAPI();
      for (let i = 0; i < 3; i++) api.create(`o${i}`, 'ns');
      if (failure === 'too-large') api.failLists.push(await api.list({ resourceVersion: '999' }).catch((e: unknown) => e));
      else api.failLists.push(failure);
      api.calls.length = 0;
      const r = start(api, { pageSize: 2 });
      await until(() => api.openWatches() === 1, 'watch open');
      assert.deepEqual(
        api.callsOf('list').map((c) => [c.options.resourceVersion, c.options.limit, c.options.continue !== undefined]),
        [
          ['0', 2, false],
          ['', 2, false],
          [undefined, 2, true],
        ],
      );
      assert.deepEqual(r.store.ops, ['replace 3@103']);
      assert.deepEqual(r.errors, [], 'an unavailable resourceVersion is retried at once, not reported');
      await r.shutdown();
    }
  });

  it('relists consistently when the list at the last resourceVersion has expired too', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    const r = start(api);
    await until(() => api.openWatches() === 1, 'watch open');
    api.failWatches.push(newResourceExpired('too old'));
    api.failLists.push(newResourceExpired('too old'));
    r.clock.advance(60_000);
    api.drop('close');
    await until(() => api.callsOf('list').length === 3 && api.openWatches() === 1, 'relisted', r.clock);
    assert.deepEqual(listRVs(api), ['0', '101', '']);
    await r.shutdown();
  });

  it('keeps paginating relists once the first list came back paginated (no watch cache)', async () => {
    const api = new FakeAPI();
    api.paginateAtZero = true;
    for (let i = 0; i < 501; i++) api.create(`o${i}`, 'ns');
    const r = start(api, {});
    await until(() => api.openWatches() === 1, 'watch open');
    api.failWatches.push(newResourceExpired('too old'));
    r.clock.advance(60_000);
    api.drop('close');
    await until(() => api.callsOf('list').length === 4 && api.openWatches() === 1, 'relisted', r.clock);
    assert.deepEqual(
      api.callsOf('list').map((c) => [c.options.resourceVersion, c.options.limit]),
      [
        ['0', 500],
        [undefined, 500],
        ['601', 500],
        [undefined, 500],
      ],
    );
    await r.shutdown();
  });

  it('never stops on list failures: each goes to the error handler, with growing backoff up to the cap', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    for (let i = 0; i < 8; i++) api.failLists.push(newInternalError('etcd is down'));
    const r = start(api);
    await until(() => api.openWatches() === 1, 'eventually watching', r.clock);
    assert.equal(r.errors.length, 8);
    assert.match(String(r.errors[0]), /things: failed to list: Internal error occurred: etcd is down/);
    assert.deepEqual(r.clock.sleeps, [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    assert.deepEqual(listRVs(api), Array(9).fill('0'));
    await r.shutdown();
  });

  it('starts the backoff over after a quiet period', async () => {
    const api = new FakeAPI();
    api.failLists.push(newInternalError('1'), newInternalError('2'));
    const r = start(api);
    await until(() => api.openWatches() === 1, 'watching', r.clock);
    assert.deepEqual(r.clock.sleeps, [800, 1600]);
    r.clock.advance(121_000);
    api.failWatches.push(newInternalError('3'));
    api.drop('close');
    await until(() => api.callsOf('list').length === 4 && api.openWatches() === 1, 'relisted', r.clock);
    assert.deepEqual(r.clock.sleeps, [800, 1600, 800]);
    await r.shutdown();
  });

  it('backs off and re-watches from the same resourceVersion when the watch is refused or throttled', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    const r = start(api);
    await until(() => api.openWatches() === 1, 'watch open');
    api.failWatches.push(connectionError('ECONNREFUSED'), throttled(), connectionError('ECONNREFUSED'));
    api.drop('reset');
    await until(() => api.callsOf('watch').length === 5 && api.openWatches() === 1, 'watching again', r.clock);
    assert.deepEqual(watchRVs(api), ['101', '101', '101', '101', '101']);
    assert.deepEqual(listRVs(api), ['0']);
    assert.deepEqual(r.clock.sleeps, [800, 1600, 3200]);
    assert.deepEqual(r.errors, []);
    await r.shutdown();
  });

  it('reports a watch that closes at once without events, and relists', async () => {
    const api = new FakeAPI();
    const r = start(api);
    await until(() => api.openWatches() === 1, 'watch open');
    api.drop('close'); // no events on it, and the fake clock has not moved: under a second
    await until(() => api.callsOf('list').length === 2, 'relisted', r.clock);
    assert.ok(r.errors[0] instanceof VeryShortWatchError);
    await r.shutdown();
  });

  it('relists on any other watch failure after reporting it', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    const r = start(api);
    await until(() => api.openWatches() === 1, 'watch open');
    api.failWatches.push(newBadRequest('no watch for you'));
    api.create('b', 'ns');
    await until(() => r.store.ops.length === 2, 'event seen');
    api.drop('close');
    await until(() => api.callsOf('list').length === 2 && api.openWatches() === 1, 'relisted', r.clock);
    assert.match(String(r.errors[0]), /no watch for you/);
    await r.shutdown();
  });

  it('resyncs the store at its period when shouldResync agrees', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    let allow = false;
    const r = start(api, {}, { resyncPeriodMs: 5000 });
    await r.shutdown();
    const clock = new FakeClock();
    const store = new RecordingStore();
    const stop = new AbortController();
    const done = new Reflector<Obj>({
      name: 'things',
      listWatch: api.listWatch(),
      store,
      clock,
      logger: silentLogger,
      resyncPeriodMs: 5000,
      shouldResync: () => allow,
    }).run(stop.signal);
    await until(() => api.openWatches() === 1, 'watch open');
    clock.advance(5000);
    await settle();
    assert.deepEqual(store.ops, ['replace 1@101']);
    allow = true;
    clock.advance(5000);
    await until(() => store.ops.includes('resync'), 'resynced');
    clock.advance(5000);
    await until(() => store.ops.filter((o) => o === 'resync').length === 2, 'resynced twice');
    stop.abort();
    await done;
    assert.equal(clock.pending(), 0);
  });

  it('with watch-list, streams the initial state and goes on with the same watch', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    api.create('b', 'ns');
    const r = start(api, { useWatchList: true });
    await until(() => r.store.ops.length === 1, 'replaced');
    assert.deepEqual(r.store.ops, ['replace 2@102']);
    const [w] = api.callsOf('watch');
    assert.equal(w?.options.sendInitialEvents, true);
    assert.equal(w?.options.resourceVersionMatch, 'NotOlderThan');
    assert.equal(w?.options.resourceVersion, '');
    api.create('c', 'ns');
    await until(() => r.store.ops.length === 2, 'event on the same watch');
    assert.deepEqual(r.store.ops, ['replace 2@102', 'add c@103']);
    assert.equal(api.callsOf('list').length, 0);
    assert.equal(api.callsOf('watch').length, 1);
    await r.shutdown();
  });

  it('with watch-list, falls back to list and watch when the server refuses it', async () => {
    const api = new FakeAPI();
    api.create('a', 'ns');
    api.failWatches.push(newBadRequest('sendInitialEvents is forbidden'));
    const r = start(api, { useWatchList: true });
    await until(() => api.openWatches() === 1, 'watching');
    assert.deepEqual(listRVs(api), ['0']);
    assert.deepEqual(r.store.ops, ['replace 1@101']);
    await r.shutdown();
  });

  it('stops promptly while waiting in a backoff, leaving nothing behind', async () => {
    const api = new FakeAPI();
    api.failLists.push(newInternalError('down'));
    const r = start(api);
    await until(() => r.clock.pending() === 1, 'backing off');
    await r.shutdown();
    await settle();
    assert.equal(api.callsOf('list').length, 1);
  });
});
