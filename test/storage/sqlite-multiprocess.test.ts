// SQLite in shared mode across real processes (sqlite-multiprocess.child.ts): every process's
// watchers see every process's writes exactly once, in revision order, with previous values;
// revisions, compaction and TTL expiry are global; a process killed with SIGKILL (even while it
// holds the write lock) loses no acknowledged write and wedges nobody. No kube test ports this
// directly: it is the guarantee kube's watch cache needs from etcd (watch_test.go's ordering and
// prevKV checks), asked of several processes sharing one file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { WireAck } from './sqlite-multiprocess.child.js';
import { assertExactStream, assertGaplessStream, Peer, until, type RemoteWatch } from './sqlite-multiprocess.peer.js';

const dir = mkdtempSync(join(tmpdir(), 'storage-sqlite-mp-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Generous: the machine is shared with other test runs. */
const settleMs = 60_000;

async function withPeers(db: string, n: number, body: (peers: Peer[]) => Promise<void>, openAt?: number): Promise<void> {
  const started = await Promise.allSettled(Array.from({ length: n }, (_, i) => Peer.start(join(dir, db), `p${i}`, openAt)));
  const peers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    // Close the others, or their open pipes keep the test running.
    await Promise.all(peers.map((p) => p.close()));
    throw failed.reason;
  }
  try {
    await body(peers);
  } finally {
    await Promise.all(peers.map((p) => p.close()));
  }
}

const head = async (p: Peer): Promise<{ revision: number; compactRevision: number }> => p.call({ cmd: 'revision' });

function waitForAll(watches: readonly RemoteWatch[], count: number, what: string): Promise<void> {
  return until(
    () => watches.every((w) => w.error !== undefined || w.events.length >= count),
    settleMs,
    () => `${what}: got ${watches.map((w) => w.events.length).join(', ')} of ${count} events`,
  );
}

describe('SQLite shared by several processes', () => {
  // SQLite refuses the loser of two processes turning a fresh file to WAL with SQLITE_BUSY at
  // once (no busy handler); the open tries again. Before, about 1 open in 40 here failed.
  test('processes opening one fresh file at the same instant all open it', async () => {
    for (const round of [1, 2]) {
      await withPeers(
        `fresh-${round}.db`,
        6,
        async (peers) => {
          await Promise.all(peers.map(async (p) => assert.equal((await head(p)).compactRevision, 0)));
        },
        Date.now() + 2000,
      );
    }
  });

  for (const n of [2, 3]) {
    test(`${n} processes write the same keys concurrently while each watches: every watcher gets every write once, in order, with its previous value`, () =>
      withPeers(`union-${n}.db`, n, async (peers) => {
        const start = (await head(peers[0]!)).revision;
        const watches = await Promise.all(peers.map((p) => p.watch('/union/', '/union0', start + 1)));
        const acks = (await Promise.all(peers.map((p) => p.write({ prefix: '/union/', keys: 10, count: 300, concurrency: 8 })))).flat();
        assert.equal(acks.length, 300 * n);
        // Revisions are global: every write has its own, and together they leave no hole.
        const revs = acks.map((a) => a.rev).sort((a, b) => a - b);
        assert.deepEqual(
          revs,
          revs.map((_, i) => start + 1 + i),
        );
        await waitForAll(watches, acks.length, 'union');
        await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up
        watches.forEach((w, i) => {
          assert.equal(w.error, undefined, `${peers[i]!.name}: watch ended`);
          assertExactStream(w.events, acks, peers[i]!.name);
        });
      }));
  }

  test('a watch from a past revision replays another process’s writes, then follows them live', () =>
    withPeers('past.db', 2, async ([a, b]) => {
      const start = (await head(a!)).revision;
      const first = await a!.write({ prefix: '/past/', keys: 5, count: 200, concurrency: 4 });
      const mid = start + 100;
      const fromStart = await b!.watch('/past/', '/past0', start + 1);
      const fromMid = await b!.watch('/past/', '/past0', mid);
      const more = await a!.write({ prefix: '/past/', keys: 5, count: 100, concurrency: 4 });
      const all = [...first, ...more];
      await waitForAll([fromStart], all.length, 'from the start');
      await waitForAll([fromMid], all.length - 99, 'from the middle');
      assertExactStream(fromStart.events, all, 'from the start');
      assertExactStream(fromMid.events, all, 'from the middle', mid);
    }));

  test('compaction by one process: reads and watches below it get 410 in the other, live watches go on', () =>
    withPeers('compact.db', 2, async ([a, b]) => {
      const start = (await head(a!)).revision;
      const live = await b!.watch('/c/', '/c0', start + 1);
      const acks = await a!.write({ prefix: '/c/', keys: 3, count: 60, concurrency: 4 });
      await waitForAll([live], acks.length, 'before compaction');
      const r = (await head(a!)).revision;
      assert.equal(await a!.call({ cmd: 'compact', revision: r }), r);
      assert.equal((await head(b!)).compactRevision, r, 'the other process reads the compacted revision from the file');
      await assert.rejects(b!.call({ cmd: 'get', key: '/c/k0', revision: r - 1 }), { name: 'CompactedError' });
      await assert.rejects(b!.call({ cmd: 'list', key: '/c/', rangeEnd: '/c0', revision: r - 1 }), { name: 'CompactedError' });
      const below = await b!.watch('/c/', '/c0', r - 1);
      await until(
        () => below.error !== undefined,
        settleMs,
        () => 'a watch below the compacted revision must end',
      );
      assert.equal(below.error?.name, 'CompactedError');
      // Compacting again, from either process, at or below it, is a no-op.
      assert.equal(await b!.call({ cmd: 'compact', revision: r }), r);
      assert.equal(await b!.call({ cmd: 'compact', revision: r - 10 }), r);
      const later = await a!.write({ prefix: '/c/', keys: 3, count: 20, concurrency: 2 });
      await waitForAll([live], acks.length + later.length, 'after compaction');
      assert.equal(live.error, undefined);
      assertExactStream(live.events, [...acks, ...later], 'live watch');
      const atR = await b!.call<{ keys: string[] }>({ cmd: 'list', key: '/c/', rangeEnd: '/c0', revision: r });
      assert.ok(atR.keys.length > 0);
    }));

  test('a key with a TTL written by one process expires for all, deleted once', () =>
    withPeers('ttl.db', 3, async (peers) => {
      const start = (await head(peers[0]!)).revision;
      const watches = await Promise.all(peers.map((p) => p.watch('/ttl/', '/ttl0', start + 1)));
      await peers[0]!.call({ cmd: 'put', key: '/ttl/lease', value: 'held', ttlSeconds: 1 });
      await waitForAll(watches, 2, 'expiry');
      await new Promise((r) => setTimeout(r, 1000)); // every process sweeps every 100 ms
      for (const [i, w] of watches.entries()) {
        assert.deepEqual(
          w.events.map((e) => e.type),
          ['PUT', 'DELETE'],
          `${peers[i]!.name}: one PUT, one DELETE`,
        );
        assert.equal((await peers[i]!.call<{ value?: string }>({ cmd: 'get', key: '/ttl/lease' })).value, undefined);
      }
    }));

  test('kill -9 of a writer loses no acknowledged write and leaves the others working', () =>
    withPeers('kill.db', 2, async ([victim, survivor]) => {
      const start = (await head(survivor!)).revision;
      const watch = await survivor!.watch('/kill/', '/kill0', start + 1);
      const run = victim!.startWrite({ prefix: '/kill/', keys: 20, count: 1e9, concurrency: 16 });
      const mine = survivor!.write({ prefix: '/kill/', keys: 20, count: 200, concurrency: 4 });
      await until(
        () => run.acks.length >= 300,
        settleMs,
        () => `victim acknowledged ${run.acks.length} writes`,
      );
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 200)));
      victim!.kill();
      await victim!.exited;
      assert.equal(victim!.signal, 'SIGKILL');
      run.done.catch(() => undefined);
      const acks: WireAck[] = [...run.acks, ...(await mine), ...(await survivor!.write({ prefix: '/kill/', keys: 20, count: 100, concurrency: 4 }))];
      const end = (await head(survivor!)).revision;
      await waitForAll([watch], end - start, 'after the kill');
      assertGaplessStream(watch.events, acks, 'survivor', start + 1);
      const check = new Database(join(dir, 'kill.db'), { readonly: true });
      try {
        assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
      } finally {
        check.close();
      }
    }));

  test('a process killed while it holds the write lock mid-transaction wedges nobody; its write never happened', () =>
    withPeers('held.db', 2, async ([holder, writer]) => {
      assert.equal(await holder!.call({ cmd: 'hold' }), 'holding');
      // The writer's first transaction waits for the lock the holder will never release itself.
      const writing = writer!.write({ prefix: '/held/', keys: 2, count: 10, concurrency: 2 });
      await new Promise((r) => setTimeout(r, 300));
      holder!.kill();
      await holder!.exited;
      const acks = await writing;
      assert.equal(acks.length, 10);
      const check = new Database(join(dir, 'held.db'), { readonly: true });
      try {
        assert.deepEqual(check.prepare("SELECT COUNT(*) AS n FROM meta WHERE name = 'uncommitted'").get(), { n: 0 });
      } finally {
        check.close();
      }
    }));
});
