import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { KVEvent } from '../../runtime/storage/kv.js';
import { Store } from '../../runtime/storage/kvstore/store.js';
import { SqliteKV } from '../../runtime/storage/sqlite/kv.js';

const dir = mkdtempSync(join(tmpdir(), 'storage-sqlite-kv-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (opts: Partial<ConstructorParameters<typeof SqliteKV>[0]> = {}): SqliteKV => new SqliteKV({ path: join(dir, `db${n++}.sqlite`), ...opts });
const obj = (name: string) => ({ metadata: { name, namespace: 'default' }, data: { v: 'x'.repeat(100) } });

describe('SQLite backend', () => {
  test('concurrent writes share transactions (group commit), each with its own revision', async () => {
    const kv = fresh();
    try {
      const store = new Store({ kv, resourcePrefix: '/cm/' });
      const before = kv.commitBatches;
      const outs = await Promise.all(Array.from({ length: 64 }, (_, i) => store.create(`/cm/default/o${i}`, obj(`o${i}`))));
      const revs = outs.map((o) => Number(o.metadata?.resourceVersion)).sort((a, b) => a - b);
      assert.equal(new Set(revs).size, 64, 'every write has its own revision');
      assert.equal((revs[63] ?? 0) - (revs[0] ?? 0), 63, 'revisions are consecutive');
      assert.ok(kv.commitBatches - before <= 2, `64 concurrent creates took ${kv.commitBatches - before} transactions`);
    } finally {
      await kv.close();
    }
  });

  test("currentRevision is a get's revision, alone and with a second client on the file", async () => {
    const path = join(dir, `db${n++}.sqlite`);
    const alone = new SqliteKV({ path });
    try {
      const store = new Store({ kv: alone, resourcePrefix: '/cm/' });
      assert.equal(await alone.currentRevision(), (await alone.get('/cm/')).revision);
      await store.create('/cm/default/a', obj('a'));
      assert.equal(await alone.currentRevision(), (await alone.get('/cm/')).revision);
      assert.equal(await store.getCurrentResourceVersion(), (await alone.get('/cm/')).revision);
    } finally {
      await alone.close();
    }
    const a = new SqliteKV({ path, shared: true });
    const b = new SqliteKV({ path, shared: true });
    try {
      // b learns a's write from the file, not from a feed it may not have read yet
      await new Store({ kv: a, resourcePrefix: '/cm/' }).create('/cm/default/b', obj('b'));
      const head = (await a.get('/cm/')).revision;
      assert.equal(await b.currentRevision(), head);
      assert.equal(await new Store({ kv: b, resourcePrefix: '/cm/' }).getCurrentResourceVersion(), head);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('sharing the file, the calls of one turn share one read of the head, taken after all of them', async () => {
    const path = join(dir, `db${n++}.sqlite`);
    const a = new SqliteKV({ path, shared: true });
    const b = new SqliteKV({ path, shared: true });
    try {
      const storeA = new Store({ kv: a, resourcePrefix: '/cm/' });
      await storeA.create('/cm/default/a', obj('a'));
      // a's write is committed in its next turn, after these calls began and before the read:
      // the shared read sees it, as a read taken when the last call was made would have
      const writing = storeA.create('/cm/default/b', obj('b'));
      const first = b.currentRevision();
      const second = b.currentRevision();
      assert.equal(first, second, 'calls of one turn wait for the same read');
      await writing;
      const head = (await a.get('/cm/')).revision;
      assert.equal(await first, head);
      // a call after that read was taken reads again
      await storeA.create('/cm/default/c', obj('c'));
      const later = b.currentRevision();
      assert.notEqual(later, first);
      assert.equal(await later, head + 1);
    } finally {
      await a.close();
      await b.close();
    }
    await assert.rejects(b.currentRevision(), /sqlite storage is closed/);
  });

  test('large lists are read in slices: the event loop runs between them', async () => {
    const kv = fresh({ listPageSize: 100 });
    try {
      const store = new Store({ kv, resourcePrefix: '/cm/' });
      await Promise.all(Array.from({ length: 1000 }, (_, i) => store.create(`/cm/default/o${String(i).padStart(4, '0')}`, obj(`o${i}`))));
      let ranMeanwhile = false;
      setImmediate(() => (ranMeanwhile = true));
      const list = await store.getList('/cm/', { recursive: true });
      assert.equal(list.items.length, 1000);
      assert.ok(ranMeanwhile, 'a callback queued during the list ran before it finished');
    } finally {
      await kv.close();
    }
  });

  test('writes during a sliced list do not leak into its snapshot', async () => {
    const kv = fresh({ listPageSize: 50 });
    try {
      const store = new Store({ kv, resourcePrefix: '/cm/' });
      for (let i = 0; i < 200; i++) await store.create(`/cm/default/o${String(i).padStart(4, '0')}`, obj(`o${i}`));
      const listing = store.getList('/cm/', { recursive: true });
      const writes = Promise.all([store.create('/cm/default/o9999', obj('o9999')), store.delete('/cm/default/o0199')]);
      const list = await listing;
      await writes;
      assert.equal(list.items.length, 200);
      assert.ok(list.items.some((o) => o.metadata?.name === 'o199'));
      assert.ok(!list.items.some((o) => o.metadata?.name === 'o9999'));
    } finally {
      await kv.close();
    }
  });

  test('one process owns the file: a second writer is refused', async () => {
    const path = join(dir, 'owned.sqlite');
    const kv = new SqliteKV({ path });
    try {
      await kv.optimisticPut('/x', Buffer.from('1'), 0);
      assert.throws(() => new SqliteKV({ path }), /locked/);
    } finally {
      await kv.close();
    }
  });

  test('history survives a restart: revisions continue and watches replay with previous values', async () => {
    const path = join(dir, 'restart.sqlite');
    let kv = new SqliteKV({ path });
    const first = await kv.optimisticPut('/k', Buffer.from('a'), 0);
    const second = await kv.optimisticPut('/k', Buffer.from('b'), first.revision);
    await kv.optimisticDelete('/k', second.revision);
    await kv.close();
    kv = new SqliteKV({ path });
    try {
      const events: KVEvent[] = [];
      const done = new Promise<void>((resolve, reject) => {
        const w = kv.watch(
          { key: '/k', startRevision: first.revision },
          {
            onEvents: (evs) => {
              events.push(...evs);
              if (events.length === 3) {
                w.cancel();
                resolve();
              }
            },
            onError: reject,
          },
        );
      });
      await done;
      assert.deepEqual(
        events.map((e) => (e.type === 'PUT' ? ['PUT', e.kv.value.toString(), e.prevKv?.value.toString()] : ['DELETE', e.prevKv?.value.toString()])),
        [
          ['PUT', 'a', undefined],
          ['PUT', 'b', 'a'],
          ['DELETE', 'b'],
        ],
      );
      const next = await kv.optimisticPut('/k', Buffer.from('c'), 0);
      assert.equal(next.revision, second.revision + 2, 'revisions are never reused');
    } finally {
      await kv.close();
    }
  });
});
