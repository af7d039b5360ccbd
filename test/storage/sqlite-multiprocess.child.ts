// A child process for the SQLite multi-process tests: opens a SqliteKV in shared mode on the file
// given as argv[2] (at the instant argv[4] gives, if any) and obeys one JSON command per stdin line. Every reply is one JSON line on
// stdout carrying the command's id; watch events stream as {"id", "events"} lines, writes are
// acknowledged ({"id", "ack"}) only after the KV resolved them (durable).
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import type { KVEvent, KVWatch } from '../../runtime/storage/kv.js';
import { SqliteKV } from '../../runtime/storage/sqlite/kv.js';

const [path, name = 'child', openAt] = process.argv.slice(2);
if (!path) throw new Error('usage: sqlite-multiprocess.child <db> [name] [open at, epoch ms]');
// Several children given one instant open the file together (the race of a fresh file's open).
if (openAt) while (Date.now() < Number(openAt));

/** A watch event as it crosses the pipe. */
export interface WireEvent {
  type: 'PUT' | 'DELETE';
  key: string;
  rev: number;
  createRev?: number;
  value?: string;
  prev?: { rev: number; value: string };
  /** When this process received it (performance.timeOrigin + now, ms), for latency figures. */
  at?: number;
}

/** One write a `write` command made, as acknowledged. */
export interface WireAck {
  type: 'PUT' | 'DELETE';
  key: string;
  rev: number;
  value?: string;
}

export type Command =
  | { id: number; cmd: 'watch'; key: string; rangeEnd: string; startRevision: number }
  | { id: number; cmd: 'write'; prefix: string; keys: number; count: number; concurrency: number }
  | { id: number; cmd: 'put'; key: string; value: string; ttlSeconds?: number }
  | { id: number; cmd: 'get'; key: string; revision?: number }
  | { id: number; cmd: 'list'; key: string; rangeEnd: string; revision?: number }
  | { id: number; cmd: 'compact'; revision: number }
  | { id: number; cmd: 'revision' }
  | { id: number; cmd: 'hold' }
  | { id: number; cmd: 'close' };

const kv = new SqliteKV({ path, shared: true, leaseSweepIntervalMs: 100 });
const watches = new Map<number, KVWatch>();
const send = (msg: object): void => void process.stdout.write(`${JSON.stringify(msg)}\n`);
const errorOf = (e: unknown): { name: string; message: string } => (e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) });

function wire(e: KVEvent): WireEvent {
  const prev = e.prevKv && { rev: e.prevKv.modRevision, value: e.prevKv.value.toString() };
  if (e.type === 'PUT') return { type: 'PUT', key: e.kv.key, rev: e.kv.modRevision, createRev: e.kv.createRevision, value: e.kv.value.toString(), prev };
  return { type: 'DELETE', key: e.key, rev: e.modRevision, prev };
}

/**
 * `count` successful compare-and-swap writes over `keys` shared keys (other processes write the
 * same keys, so CAS conflicts cross processes): read, then put (or, every seventh, delete) at
 * the revision read, retrying on conflict.
 */
async function write(id: number, c: Extract<Command, { cmd: 'write' }>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < c.count) {
      const n = next++;
      const key = `${c.prefix}k${n % c.keys}`;
      for (;;) {
        const cur = await kv.get(key);
        if (cur.kv && n % 7 === 0) {
          const r = await kv.optimisticDelete(key, cur.kv.modRevision);
          if (!r.succeeded) continue;
          send({ id, ack: { type: 'DELETE', key, rev: r.revision } satisfies WireAck });
        } else {
          const value = `${name}:${n}`;
          const r = await kv.optimisticPut(key, Buffer.from(value), cur.kv?.modRevision ?? 0);
          if (!r.succeeded) continue;
          send({ id, ack: { type: 'PUT', key, rev: r.revision, value } satisfies WireAck });
        }
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: c.concurrency }, worker));
}

async function run(c: Command): Promise<unknown> {
  switch (c.cmd) {
    case 'watch': {
      const w = kv.watch(
        { key: c.key, rangeEnd: c.rangeEnd, startRevision: c.startRevision },
        {
          onEvents: (events) => {
            const at = performance.timeOrigin + performance.now();
            send({ id: c.id, events: events.map((e) => ({ ...wire(e), at })) });
          },
          onError: (e) => send({ id: c.id, watchError: errorOf(e) }),
        },
      );
      watches.set(c.id, w);
      return 'watching';
    }
    case 'write':
      await write(c.id, c);
      return 'written';
    case 'put': {
      const cur = await kv.get(c.key);
      const r = await kv.optimisticPut(c.key, Buffer.from(c.value), cur.kv?.modRevision ?? 0, { ttlSeconds: c.ttlSeconds });
      return r.revision;
    }
    case 'get': {
      const r = await kv.get(c.key, { revision: c.revision });
      return { revision: r.revision, value: r.kv?.value.toString(), modRevision: r.kv?.modRevision };
    }
    case 'list': {
      const r = await kv.list({ key: c.key, rangeEnd: c.rangeEnd, revision: c.revision });
      return { revision: r.revision, keys: r.kvs.map((k) => k.key) };
    }
    case 'compact':
      await kv.compact(c.revision);
      return kv.compactRevision();
    case 'revision':
      return { revision: kv.revision(), compactRevision: kv.compactRevision() };
    case 'hold': {
      // Takes the write lock with a second connection and writes a row it never commits: the
      // state a process killed in the middle of a transaction leaves behind.
      const raw = new Database(path, { timeout: 5000 });
      raw.exec('BEGIN IMMEDIATE');
      raw.prepare("INSERT INTO meta (name, value) VALUES ('uncommitted', 1)").run();
      return 'holding';
    }
    case 'close':
      for (const w of watches.values()) w.cancel();
      await kv.close();
      setImmediate(() => process.exit(0));
      return 'closed';
  }
}

send({ ready: name });
const pending = new Set<Promise<void>>();
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const c = JSON.parse(line) as Command;
  const done = run(c).then(
    (result) => send({ id: c.id, result }),
    (e: unknown) => send({ id: c.id, error: errorOf(e) }),
  );
  pending.add(done);
  void done.finally(() => pending.delete(done));
}
// stdin ended: the test is gone (it failed, or its process was killed). The KV's timers would
// keep this process, and the test runner's stderr pipe it shares, alive for ever.
await Promise.allSettled(pending);
process.exit(0);
