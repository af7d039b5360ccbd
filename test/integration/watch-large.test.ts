// Issue 12: a watch over more than 1,000 objects delivers every one of them, over HTTPS against
// the control plane command, on SQLite and etcd, with the watch cache and with
// --watch-cache=false (the same data, the server restarted): no resourceVersion, RV=0, and
// sendInitialEvents=true with the initial-events-end bookmark right after the last ADDED.
// One flunder is created through the API; its stored value is copied under 9,999 other names
// through the storage layer while the server is stopped (POSTing 10,000 takes minutes here).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newEtcdClient } from '../../runtime/storage/etcd3/client.js';
import { EtcdKV } from '../../runtime/storage/etcd3/kv.js';
import { parseStoredObject } from '../../runtime/storage/kvstore/managedfields-frame.js';
import type { KV } from '../../runtime/storage/kv.js';
import { SqliteKV } from '../../runtime/storage/sqlite/kv.js';
import { until } from './assertions.js';
import { ControlPlane, backends, etcdUnavailable } from './harness.js';
import { HttpsClient, type WatchEvent } from './https.js';
import { flunderV1beta1, uniqueName } from './objects.js';

const objects = 10_000;
const FLUNDERS = '/apis/wardle.example.com/v1beta1';

type Meta = { name?: string; annotations?: Record<string, string> };
const meta = (ev: WatchEvent): Meta => (ev.object['metadata'] ?? {}) as Meta;

/** POSTs every flunder with a bounded number in flight. */
async function createFlunders(c: HttpsClient, ns: string, names: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < names.length) {
      const name = names[next++] as string;
      const r = await c.json('POST', `${FLUNDERS}/namespaces/${ns}/flunders`, flunderV1beta1.manifest(name, ns));
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

/** The storage of a stopped control plane, as it opens it. */
function openKV(cp: ControlPlane): KV {
  if (cp.backend === 'sqlite') return new SqliteKV({ path: join(cp.dataDir, 'kube.db') });
  if (!cp.etcd) throw new Error('no etcd');
  return new EtcdKV(newEtcdClient({ endpoints: cp.etcd.endpoints }));
}

/** Writes copies of the stored flunder `template` under `names` (new uids), straight into the stopped server's storage. */
async function seedCopies(cp: ControlPlane, ns: string, template: string, names: readonly string[]): Promise<void> {
  const kv = openKV(cp);
  try {
    const all = await kv.list({ key: '/', rangeEnd: '0' });
    const suffix = `/wardle.example.com/flunders/${ns}/${template}`;
    const found = all.kvs.find((k) => k.key.endsWith(suffix));
    assert.ok(found, `no stored ${suffix}`);
    const dir = found.key.slice(0, -template.length);
    const stored = parseStoredObject(found.value) as { metadata: Record<string, unknown> };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < names.length) {
        const name = names[next++] as string;
        const copy = { ...stored, metadata: { ...stored.metadata, name, uid: randomUUID() } };
        const r = await kv.optimisticPut(`${dir}${name}`, Buffer.from(JSON.stringify(copy)), 0);
        assert.ok(r.succeeded, `${dir}${name} exists`);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
  } finally {
    await kv.close();
  }
}

for (const backend of backends) {
  describe(`watch over ${objects} objects through the control plane on ${backend}`, { skip: backend === 'etcd3' ? (etcdUnavailable() ?? false) : false }, () => {
    let owner: ControlPlane | undefined;
    let cached: ControlPlane | undefined;
    let current: ControlPlane | undefined;
    let c: HttpsClient | undefined;
    const ns = uniqueName('bigwatch');
    /** Every flunder in the namespace (later cases add live ones). */
    const present: string[] = Array.from({ length: objects }, (_, i) => `obj-${String(i).padStart(5, '0')}`);
    let live = 0;

    before(async () => {
      owner = await ControlPlane.start({ backend });
      const first = new HttpsClient(owner.credentials);
      try {
        const r = await first.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        await createFlunders(first, ns, present.slice(0, 1));
      } finally {
        first.close();
      }
      await owner.terminate();
      await seedCopies(owner, ns, present[0] as string, present.slice(1));
      cached = await ControlPlane.start({ backend, dataDir: owner.dataDir, etcd: owner.etcd, etcdPrefix: owner.etcdPrefix });
      current = cached;
      c = new HttpsClient(cached.credentials);
    });
    after(async () => {
      c?.close();
      if (current !== cached) await current?.stop();
      await cached?.stop();
      await owner?.stop(); // owns the data dir and the etcd
    });

    const client = (): HttpsClient => {
      if (!c) throw new Error('control plane not started');
      return c;
    };

    /** Reads the whole initial state, writes a live object after the first event, and expects it next. */
    const initialThenLive = async (query: string, bookmark: boolean): Promise<void> => {
      const expected = [...present];
      const liveName = `live-${live++}`;
      // A watch cache still loading 10,000 objects after a restart answers 429; clients retry.
      const w = await until(
        'the watch to be served',
        async () => {
          const opened = await client().watch(`${FLUNDERS}/namespaces/${ns}/flunders?watch=true${query}`);
          if (opened.status === 429) {
            opened.close();
            return undefined;
          }
          return opened;
        },
        120_000,
      );
      try {
        assert.equal(w.status, 200);
        await w.until((evs) => evs.length >= 1, 120_000);
        await createFlunders(client(), ns, [liveName]);
        present.push(liveName);
        const evs = await w.until((e) => e.some((ev) => ev.type !== 'BOOKMARK' && meta(ev).name === liveName), 120_000);
        const initial = evs.slice(0, expected.length);
        assert.deepEqual(
          initial.filter((ev) => ev.type !== 'ADDED').map((ev) => JSON.stringify(ev).slice(0, 300)),
          [],
        );
        assert.deepEqual(initial.map((ev) => meta(ev).name).sort(), expected.sort());
        let rest = evs.slice(expected.length);
        if (bookmark) {
          const first = rest[0];
          assert.equal(first?.type, 'BOOKMARK', `after ${expected.length} ADDED: ${JSON.stringify(first).slice(0, 300)}`);
          assert.equal(meta(first).annotations?.['k8s.io/initial-events-end'], 'true');
        }
        rest = rest.filter((ev) => ev.type !== 'BOOKMARK');
        assert.deepEqual(
          rest.map((ev) => [ev.type, meta(ev).name]),
          [['ADDED', liveName]],
        );
      } finally {
        w.close();
      }
    };

    for (const watchCache of [true, false]) {
      describe(watchCache ? 'with the watch cache' : '--watch-cache=false', () => {
        before(async () => {
          if (watchCache || !cached) return;
          await cached.terminate();
          current = await ControlPlane.start({ backend, dataDir: cached.dataDir, etcd: cached.etcd, etcdPrefix: cached.etcdPrefix, extraArgs: ['--watch-cache=false'] });
          c?.close();
          c = new HttpsClient(current.credentials);
        });
        it('no resourceVersion: every object as ADDED, then live events', () => initialThenLive('', false));
        it('resourceVersion=0: every object as ADDED, then live events', () => initialThenLive('&resourceVersion=0', false));
        it('sendInitialEvents=true with bookmarks: the initial-events-end bookmark right after one ADDED per object', () =>
          initialThenLive('&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', true));
      });
    }
  });
}
