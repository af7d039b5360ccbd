// A consistent get the watch cache cannot serve (a backend without ordered progress reports,
// etcd before 3.4.31) reads the backend, and answers with the cache's object when the backend
// has the key at the cache's revision: the same bytes, decoded once. These tests pin that the
// read stays the backend's: a write the cache has not seen yet is what the get returns, and a
// value the transformer can no longer read fails the get.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Cacher } from '../../runtime/storage/cacher/cacher.js';
import { Store } from '../../runtime/storage/kvstore/store.js';
import { SqliteKV } from '../../runtime/storage/sqlite/kv.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';

const dir = mkdtempSync(join(tmpdir(), 'cacher-held-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function withCacher(fn: (store: Store<StoredObject>, cacher: Cacher<StoredObject>) => Promise<void>): Promise<void> {
  const kv = new SqliteKV({ path: join(dir, `db${n++}.sqlite`) });
  const store = new Store<StoredObject>({ kv, resourcePrefix: '/cm/' });
  const cacher = new Cacher<StoredObject>({ storage: store, resourcePrefix: '/cm/', keyOf: (o) => store.restKeyOf(o), consistentReadsFromCache: false });
  try {
    await cacher.waitReady();
    await fn(store, cacher);
  } finally {
    cacher.stop();
    await kv.close();
  }
}

const cm = (name: string, v: string): StoredObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { v } }) as StoredObject;

/** Until the cache serves the key at `rv` (a get at resourceVersion rv waits for it). */
async function cacheAt(cacher: Cacher<StoredObject>, key: string, rv: string): Promise<StoredObject | undefined> {
  return cacher.get(key, { resourceVersion: rv });
}

test('a consistent get of an object the cache holds at the stored revision answers with the cached object', async () => {
  await withCacher(async (store, cacher) => {
    const created = await store.create('/cm/default/a', cm('a', 'one'));
    const cached = await cacheAt(cacher, '/cm/default/a', created.metadata?.resourceVersion ?? '');
    const got = await cacher.get('/cm/default/a');
    assert.equal(got, cached, 'the cached object itself');
    assert.ok(Object.isFrozen(got));
    assert.deepEqual(got, await store.get('/cm/default/a'), 'what the backend decodes');
  });
});

test('the store answers with a held object only at the revision it reads: a write the cache has not seen yet is what a get returns', async () => {
  await withCacher(async (store) => {
    const created = await store.create('/cm/default/a', cm('a', 'one'));
    const written = await store.guaranteedUpdate('/cm/default/a', { tryUpdate: (o) => Promise.resolve({ object: { ...(o as StoredObject), data: { v: 'two' } } }) });
    const stale = Object.freeze(cm('a', 'stale'));
    const asked: number[] = [];
    // A cache still at the created revision offers its object only for that revision.
    const heldAt = (rev: number): object | undefined => {
      asked.push(rev);
      return rev === Number(created.metadata?.resourceVersion) ? stale : undefined;
    };
    const got = await store.get('/cm/default/a', { heldAt });
    assert.deepEqual(asked, [Number(written.metadata?.resourceVersion)], 'asked for the revision read');
    assert.equal(got?.metadata?.resourceVersion, written.metadata?.resourceVersion);
    assert.deepEqual((got as { data?: unknown }).data, { v: 'two' });
    // At the revision it reads, the held object is the answer.
    const current = Object.freeze(cm('a', 'held'));
    assert.equal(await store.get('/cm/default/a', { heldAt: (rev) => (rev === Number(written.metadata?.resourceVersion) ? current : undefined) }), current);
  });
});

test('a value the transformer can no longer read fails the consistent get, though the cache holds it', async () => {
  await withCacher(async (store, cacher) => {
    const created = await store.create('/cm/default/a', cm('a', 'one'));
    await cacheAt(cacher, '/cm/default/a', created.metadata?.resourceVersion ?? '');
    const readable = store.transformer;
    store.transformer = {
      transformFromStorage: () => {
        throw new Error('no matching key');
      },
      transformToStorage: (data, ctx) => readable.transformToStorage(data, ctx),
    };
    await assert.rejects(cacher.get('/cm/default/a'), /no matching key/);
    store.transformer = readable;
  });
});

test('a consistent get of a deleted object is not found, whatever the cache still holds', async () => {
  await withCacher(async (store, cacher) => {
    const created = await store.create('/cm/default/a', cm('a', 'one'));
    await cacheAt(cacher, '/cm/default/a', created.metadata?.resourceVersion ?? '');
    await store.delete('/cm/default/a');
    assert.equal(await cacher.get('/cm/default/a', { ignoreNotFound: true }), undefined);
  });
});
