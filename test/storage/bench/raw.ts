import Database from 'better-sqlite3';
import { Etcd3 } from 'etcd3';
import { performance } from 'node:perf_hooks';
import { configMap, medianMs, pad, percentile, throughput, type Throughput } from './stats.js';

/** The raw engines the storage layer is compared with, measured with the same sizes. */
export interface RawFigures {
  seqCreate: Throughput;
  concCreate: Throughput;
  get: Throughput;
  list10k: number;
  watch1: { p50: number; p99: number } | undefined;
}

export interface Sizes {
  seq: number;
  conc: number;
  gets: number;
  listObjects: number;
  listIterations: number;
  watchers: number;
  watchEvents: number;
}

/** Plain better-sqlite3: one INSERT per transaction (WAL, synchronous=FULL), point SELECTs, a range SELECT + JSON.parse. */
export async function rawSqlite(path: string, s: Sizes): Promise<RawFigures> {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID');
  const ins = db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
  const get = db.prepare<[string], { value: Buffer }>('SELECT value FROM kv WHERE key = ?');
  const range = db.prepare<[string, string], { key: string; value: Buffer }>('SELECT key, value FROM kv WHERE key >= ? AND key < ? ORDER BY key');
  const value = (n: string): Buffer => Buffer.from(JSON.stringify(configMap(n)));
  const seqCreate = await throughput(s.seq, 1, (i) => ins.run(`/registry/seq/default/${pad(i)}`, value(pad(i))));
  // better-sqlite3 is synchronous: 64 callers still commit one row per transaction, one after another.
  const concCreate = await throughput(s.conc, 64, async (i) => ins.run(`/registry/conc/default/${pad(i)}`, value(pad(i))));
  const get1 = await throughput(s.gets, 1, (i) => JSON.parse((get.get(`/registry/seq/default/${pad(i % s.seq)}`) as { value: Buffer }).value.toString()));
  db.transaction(() => {
    for (let i = 0; i < s.listObjects; i++) ins.run(`/registry/list/default/${pad(i)}`, value(pad(i)));
  })();
  const list10k = await medianMs(s.listIterations, () => range.all('/registry/list/', '/registry/list0').map((r) => JSON.parse(r.value.toString())));
  db.close();
  return { seqCreate, concCreate, get: get1, list10k, watch1: undefined };
}

/** The etcd3 npm client with its defaults: plain puts, gets, a paged range, one watcher. */
export async function rawEtcd(endpoints: string[], prefix: string, s: Sizes): Promise<RawFigures> {
  const client = new Etcd3({ hosts: endpoints });
  const value = (n: string): string => JSON.stringify(configMap(n));
  try {
    const seqCreate = await throughput(s.seq, 1, (i) => client.put(`${prefix}/seq/${pad(i)}`).value(value(pad(i))));
    const concCreate = await throughput(s.conc, 64, (i) => client.put(`${prefix}/conc/${pad(i)}`).value(value(pad(i))));
    const get1 = await throughput(s.gets, 1, async (i) => JSON.parse((await client.get(`${prefix}/seq/${pad(i % s.seq)}`).string()) ?? '{}'));
    await throughput(s.listObjects, 64, (i) => client.put(`${prefix}/list/${pad(i)}`).value(value(pad(i))));
    const start = `${prefix}/list/`;
    const end = `${prefix}/list0`;
    const list10k = await medianMs(s.listIterations, async () => {
      let from = start;
      let rev: string | undefined;
      const out: unknown[] = [];
      for (;;) {
        let b = client.getAll().inRange({ start: from, end }).limit(500);
        if (rev) b = b.revision(rev);
        const res = await b.exec();
        rev ??= res.header.revision;
        for (const kv of res.kvs) out.push(JSON.parse(kv.value.toString()));
        const last = res.kvs[res.kvs.length - 1];
        if (!res.more || !last) break;
        from = `${last.key.toString()}\0`;
      }
      return out;
    });
    const watch1 = await rawEtcdWatch(client, `${prefix}/watch/`, s.watchEvents);
    return { seqCreate, concCreate, get: get1, list10k, watch1 };
  } finally {
    client.close();
  }
}

async function rawEtcdWatch(client: Etcd3, prefix: string, events: number): Promise<{ p50: number; p99: number }> {
  const watcher = await client.watch().prefix(prefix).create();
  const sent = new Map<string, number>();
  const lat: number[] = [];
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  watcher.on('put', (kv) => {
    lat.push(performance.now() - (sent.get(kv.key.toString()) ?? 0));
    if (lat.length === events) done();
  });
  for (let i = 0; i < events; i++) {
    const key = `${prefix}${pad(i)}`;
    sent.set(key, performance.now());
    await client.put(key).value('x');
  }
  await all;
  await watcher.cancel();
  lat.sort((a, b) => a - b);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99) };
}
