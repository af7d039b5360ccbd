// The change feed of SQLite's shared mode, with two SqliteKV instances (two connections) in this
// process so that notifications can be withheld or driven by hand: the notify file and an
// injected notifier wake the other instance without polling; a lost notification only delays
// (polling fallback); own writes reach own watchers from the commit path, after any earlier
// write of another process; progress covers every write committed before it was requested (what
// kube's watch cache needs for consistent reads, cacher.go's waitUntilWatchCacheFreshAndForceAllEvents);
// a feed left behind a compaction that removed events ends its watchers with 410, and only then.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { newStorageFactory } from '../../runtime/storage/factory.js';
import type { KVEvent, KVWatchHandler } from '../../runtime/storage/kv.js';
import type { FeedNotifier } from '../../runtime/storage/sqlite/notifier.js';
import { SqliteKV, type SqliteSharedOptions } from '../../runtime/storage/sqlite/kv.js';
import { until } from './sqlite-multiprocess.peer.js';

const dir = mkdtempSync(join(tmpdir(), 'storage-sqlite-feed-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** Never polls within a test's lifetime: only a notification (or a progress request) wakes the feed. */
const noPolling = 3_600_000;
const silent: FeedNotifier = { notify: () => undefined, subscribe: () => () => undefined };

async function pair(a: SqliteSharedOptions, b: SqliteSharedOptions, body: (a: SqliteKV, b: SqliteKV) => Promise<void>): Promise<void> {
  const path = join(dir, `feed-${n++}.db`);
  const kvA = new SqliteKV({ path, shared: a });
  const kvB = new SqliteKV({ path, shared: b });
  try {
    await body(kvA, kvB);
  } finally {
    await kvA.close();
    await kvB.close();
  }
}

/** A watch that records what it gets. */
function record(kv: SqliteKV, key: string, startRevision: number, progressNotify = false) {
  const got: { events: KVEvent[]; progress: number[]; error?: Error; order: string[] } = { events: [], progress: [], order: [] };
  const handler: KVWatchHandler = {
    onEvents: (events) => {
      got.events.push(...events);
      for (const e of events) got.order.push(`event ${e.type === 'PUT' ? e.kv.modRevision : e.modRevision}`);
    },
    onProgress: (rev) => {
      got.progress.push(rev);
      got.order.push(`progress ${rev}`);
    },
    onError: (e) => (got.error = e),
  };
  const w = kv.watch({ key, rangeEnd: `${key}\xff`, startRevision, progressNotify }, handler);
  return { got, w };
}

const revOf = (e: KVEvent): number => (e.type === 'PUT' ? e.kv.modRevision : e.modRevision);
const put = async (kv: SqliteKV, key: string, value: string): Promise<number> => {
  const cur = await kv.get(key);
  const r = await kv.optimisticPut(key, Buffer.from(value), cur.kv?.modRevision ?? 0);
  assert.ok(r.succeeded);
  return r.revision;
};
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('SQLite shared mode: the change feed', () => {
  test('the default notifier (a file written after each commit, watched by all) wakes the other instance without polling, every time', () =>
    pair({ pollIntervalMs: noPolling }, { pollIntervalMs: noPolling }, async (a, b) => {
      const { got } = record(b, '/file/', a.revision() + 1);
      // One at a time: a wake-up that came before its commit was visible would leave the write undelivered.
      for (let i = 0; i < 20; i++) {
        const rev = await put(a, `/file/x${i}`, 'one');
        await until(
          () => got.events.length === i + 1,
          30_000,
          () => `write ${i} (revision ${rev}) never woke the feed`,
        );
      }
    }));

  test('an injected notifier (a supervisor relaying commits) wakes the other instance', () => {
    const bus = new EventEmitter();
    const relayed: number[] = [];
    const relay: FeedNotifier = {
      notify: (rev) => {
        relayed.push(rev);
        bus.emit('commit');
      },
      subscribe: (onNotified) => {
        bus.on('commit', onNotified);
        return () => bus.off('commit', onNotified);
      },
    };
    return pair({ notifier: relay, pollIntervalMs: noPolling }, { notifier: relay, pollIntervalMs: noPolling }, async (a, b) => {
      const { got } = record(b, '/relay/', a.revision() + 1);
      const rev = await put(a, '/relay/x', 'one');
      assert.deepEqual(relayed, [rev], 'notify is called once per commit with its revision');
      await until(
        () => got.events.length === 1,
        30_000,
        () => 'the relayed notification never woke the feed',
      );
    });
  });

  test('a lost notification only delays: the feed polls', () =>
    pair({ notifier: silent, pollIntervalMs: 50 }, { notifier: silent, pollIntervalMs: 50 }, async (a, b) => {
      const { got } = record(b, '/poll/', a.revision() + 1);
      await put(a, '/poll/x', 'one');
      await until(
        () => got.events.length === 1,
        30_000,
        () => 'polling never delivered the write',
      );
    }));

  test('own writes reach own watchers from the commit path; after an earlier write of another process, in order', () =>
    pair({ notifier: silent, pollIntervalMs: noPolling }, { notifier: silent, pollIntervalMs: noPolling }, async (a, b) => {
      const { got } = record(b, '/own/', b.revision() + 1);
      await turn();
      const mine = await put(b, '/own/b', 'b1');
      assert.deepEqual(got.events.map(revOf), [mine], 'delivered by the time the write resolves');
      const theirs = await put(a, '/own/a', 'a1');
      const mineAgain = await put(b, '/own/b', 'b2');
      assert.ok(theirs < mineAgain);
      // Not published from the commit path (the feed had not read the other write yet): the tail reads both.
      await until(
        () => got.events.length === 3,
        30_000,
        () => `got ${got.events.map(revOf).join(', ')}`,
      );
      assert.deepEqual(got.events.map(revOf), [mine, theirs, mineAgain]);
      const last = got.events[2]!;
      assert.equal(last.prevKv?.value.toString(), 'b1', 'previous value read from the log');
    }));

  test('progress requested after another process committed covers that write, after its event', () =>
    pair({ notifier: silent, pollIntervalMs: noPolling }, { notifier: silent, pollIntervalMs: noPolling }, async (a, b) => {
      const { got } = record(b, '/progress/', b.revision() + 1, true);
      await turn();
      const rev = await put(a, '/progress/x', 'one');
      await b.requestProgress();
      await until(
        () => got.progress.some((p) => p >= rev),
        30_000,
        () => `progress ${got.progress.join(', ')} never reached ${rev}`,
      );
      assert.equal(got.order[0], `event ${rev}`);
    }));

  test('a feed left behind a compaction that removed events ends its watchers with 410; one that removed none does not', () =>
    pair({ notifier: silent, pollIntervalMs: noPolling }, { notifier: silent, pollIntervalMs: noPolling }, async (a, b) => {
      const intact = record(b, '/intact/', b.revision() + 1);
      await turn();
      // Distinct keys: compaction supersedes nothing, every event is still in the log.
      for (let i = 0; i < 3; i++) await put(a, `/intact/k${i}`, 'v');
      await a.compact(a.revision());
      await b.requestProgress();
      await until(
        () => intact.got.events.length === 3,
        30_000,
        () => `got ${intact.got.events.length} of 3`,
      );
      assert.equal(intact.got.error, undefined);

      const behind = record(b, '/lost/', b.revision() + 1);
      await turn();
      // One key written three times: compaction removes the first two rows before b read them.
      for (let i = 0; i < 3; i++) await put(a, '/lost/k', `v${i}`);
      await a.compact(a.revision());
      await b.requestProgress();
      await until(
        () => behind.got.error !== undefined,
        30_000,
        () => 'the watcher behind the compaction must end',
      );
      assert.equal(behind.got.error?.name, 'CompactedError');
      assert.equal(behind.got.events.length, 0, 'no partial history');
    }));

  test('periodic compaction running in both instances: one compacted revision, the retained history, for both', async () => {
    const path = join(dir, `periodic-${n++}.db`);
    const compaction = { intervalMs: 50, retainRevisions: 5 };
    const a = new SqliteKV({ path, shared: true, compaction });
    const b = new SqliteKV({ path, shared: true, compaction });
    try {
      for (let i = 0; i < 30; i++) await put(i % 2 ? a : b, `/periodic/k${i % 3}`, `v${i}`);
      const head = a.revision();
      await until(
        () => a.compactRevision() === head - 5 && b.compactRevision() === head - 5,
        30_000,
        () => `compacted to ${a.compactRevision()} / ${b.compactRevision()}, want ${head - 5}`,
      );
      await assert.rejects(b.get('/periodic/k0', { revision: head - 6 }), { name: 'CompactedError' });
      assert.equal((await a.list({ key: '/periodic/', rangeEnd: '/periodic0', revision: head - 5 })).kvs.length, 3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('the modes do not mix: an exclusive owner refuses a shared opener, shared users refuse an exclusive one', async () => {
    const owned = join(dir, `owned-${n++}.db`);
    const owner = new SqliteKV({ path: owned });
    try {
      await owner.optimisticPut('/x', Buffer.from('1'), 0);
      assert.throws(() => new SqliteKV({ path: owned, shared: { busyTimeoutMs: 100 } }), { code: 'SQLITE_BUSY' });
    } finally {
      await owner.close();
    }
    const sharedPath = join(dir, `shared-${n++}.db`);
    const user = new SqliteKV({ path: sharedPath, shared: true });
    try {
      await user.optimisticPut('/x', Buffer.from('1'), 0);
      assert.throws(() => new SqliteKV({ path: sharedPath }), { code: 'SQLITE_BUSY' });
      assert.equal((await user.get('/x')).kv?.value.toString(), '1');
    } finally {
      await user.close();
    }
  });

  test('two storage factories on one file: a consistent list through one watch cache sees the other’s create at once', async () => {
    const path = join(dir, `factory-${n++}.db`);
    const one = newStorageFactory({ backend: { backend: 'sqlite', path, shared: true } });
    const two = newStorageFactory({ backend: { backend: 'sqlite', path, shared: true } });
    try {
      const s1 = await one.forResource({ resourcePrefix: '/configmaps/' });
      const s2 = await two.forResource({ resourcePrefix: '/configmaps/' });
      for (let i = 0; i < 20; i++) {
        const created = await s1.create(`/configmaps/default/c${i}`, { metadata: { name: `c${i}`, namespace: 'default' } });
        const list = await s2.getList('/configmaps/', { recursive: true, resourceVersion: '' });
        assert.ok(
          list.items.some((o) => o.metadata?.name === `c${i}`),
          `c${i} (rv ${created.metadata?.resourceVersion}) missing from a consistent list at ${list.resourceVersion}`,
        );
      }
    } finally {
      await one.close();
      await two.close();
    }
  });
});
