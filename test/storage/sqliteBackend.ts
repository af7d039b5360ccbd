import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../runtime/storage/kvstore/store.js';
import type { KV } from '../../runtime/storage/kv.js';
import { SqliteKV } from '../../runtime/storage/sqlite/kv.js';
import type { BackendUnderTest, NewStoreOptions, StoreUnderTest } from '../../runtime/storage/testing/harness.js';
import { RecordingKV } from '../../runtime/storage/testing/recorder.js';
import { PrefixTransformer, type Pod } from '../../runtime/storage/testing/utils.js';
import { interpretCorruptData } from '../../runtime/storage/kvstore/codec.js';

/** The value prefix the tests' transformer adds (kube's defaultTestPrefix). */
export const testValuePrefix = 'test!';

/**
 * Wraps a KV (and the Store on it) in the hooks the conformance suite needs. `afterClose` runs
 * after the store is closed (e.g. to remove a temp dir).
 */
export function storeUnderTest(kv: KV, opts: NewStoreOptions & { pathPrefix: string; afterClose?: () => Promise<void> | void; closeKV?: boolean }): StoreUnderTest {
  const recorder = new RecordingKV(kv);
  const prefixTransformer = new PrefixTransformer(Buffer.from(testValuePrefix));
  const store = new Store<Pod>({
    kv: recorder,
    pathPrefix: opts.pathPrefix,
    resourcePrefix: '/pods/',
    transformer: prefixTransformer,
    corruptObjectHandling: opts.corruptObjectHandling ?? false,
  });
  const wrap = (t: import('../../runtime/storage/transformer.js').ValueTransformer) => (store.corruptObjectHandling ? interpretCorruptData(t) : t);
  const physical = (key: string): string => store.pathPrefix + key.slice(1);
  return {
    store,
    pathPrefix: store.pathPrefix,
    prefixTransformer,
    recorder,
    async compact(rv) {
      await kv.compact(Number(rv));
    },
    async increaseRV() {
      const key = `${store.pathPrefix}increaseRV`;
      for (;;) {
        const cur = await kv.get(key);
        const r = await kv.optimisticPut(key, Buffer.from('ok'), cur.kv?.modRevision ?? 0);
        if (r.succeeded) return r.revision;
      }
    },
    async keyValidation(key) {
      const resp = await kv.get(physical(key));
      assert.ok(resp.kv, `expecting non empty result on key: ${key}`);
      const obj = JSON.parse(resp.kv.value.subarray(testValuePrefix.length).toString()) as Pod;
      assert.equal(obj.metadata?.resourceVersion, undefined, 'stored object should have empty resource version');
      assert.equal(obj.metadata?.selfLink, undefined, 'stored output should have empty selfLink');
    },
    updateTransformer(modify) {
      const orig = store.transformer;
      store.transformer = modify(orig);
      return () => {
        store.transformer = orig;
      };
    },
    updatePrefixTransformer(modify) {
      const orig = store.transformer;
      store.transformer = wrap(modify(prefixTransformer.copy()));
      return () => {
        store.transformer = orig;
      };
    },
    async close() {
      if (opts.closeKV ?? true) await kv.close();
      await opts.afterClose?.();
    },
  };
}

/**
 * A fresh SQLite database in a temp dir for every test. `shared`: the file opened in shared
 * (multi-process) mode; `split` (with shared): two instances on the file, the store writing
 * through one and reading and watching through the other, so every check of the suite crosses
 * the change feed.
 */
export function sqliteBackend(mode: { shared?: boolean; split?: boolean } = {}): BackendUnderTest {
  return {
    name: mode.split ? 'sqlite (shared mode, writes and reads on two instances)' : mode.shared ? 'sqlite (shared mode)' : 'sqlite',
    cached: false,
    async newStore(opts = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'storage-sqlite-'));
      const open = (): SqliteKV => new SqliteKV({ path: join(dir, 'state.db'), progressNotifyIntervalMs: 200, leaseSweepIntervalMs: 200, shared: mode.shared });
      const writer = open();
      const kv = mode.split ? splitKV(writer, open()) : writer;
      return storeUnderTest(kv, { ...opts, pathPrefix: '/registry', afterClose: () => rmSync(dir, { recursive: true, force: true }) });
    },
  };
}

/** Writes and compaction through `writer`, everything else through `reader`; close closes both. */
function splitKV(writer: KV, reader: KV): KV {
  return {
    get: (key, opts) => reader.get(key, opts),
    list: (req) => reader.list(req),
    count: (key, rangeEnd) => reader.count(key, rangeEnd),
    valueBytes: (key, rangeEnd) => reader.valueBytes?.(key, rangeEnd) ?? Promise.resolve(undefined),
    optimisticPut: (key, value, expected, opts) => writer.optimisticPut(key, value, expected, opts),
    optimisticDelete: (key, expected) => writer.optimisticDelete(key, expected),
    watch: (req, handler) => reader.watch(req, handler),
    requestProgress: () => reader.requestProgress(),
    supportsRequestWatchProgress: () => reader.supportsRequestWatchProgress(),
    compact: (revision) => writer.compact(revision),
    compactRevision: () => reader.compactRevision(),
    healthCheck: () => reader.healthCheck(),
    async close() {
      await writer.close();
      await reader.close();
    },
  };
}
