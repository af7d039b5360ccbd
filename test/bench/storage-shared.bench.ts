// SQLite shared by several processes (runtime/storage/README.md, "Several processes"): aggregate
// write throughput of 1, 2 and 3 processes writing at once (each its own keys, 64 writes in
// flight: get + compare-and-swap put, as the child's `write` command does), and watch latency
// from a write's acknowledgement to the event in a watcher of the same process (commit path)
// and of another process (the log feed woken by the notify file). BENCH_QUICK=1 shrinks it.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { KVEvent } from '../../runtime/storage/kv.js';
import { SqliteKV } from '../../runtime/storage/sqlite/kv.js';
import { Peer } from '../storage/sqlite-multiprocess.peer.js';
import { runBench } from './lib/process.js';

const quick = process.env.BENCH_QUICK === '1';
const writesPerProcess = quick ? 2000 : 10000;
const watchEvents = quick ? 50 : 200;

const now = (): number => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const f1 = (n: number): string => n.toFixed(1);

async function throughput(dir: string, processes: number): Promise<number> {
  const db = join(dir, `throughput-${processes}.db`);
  const peers = await Promise.all(Array.from({ length: processes }, (_, i) => Peer.start(db, `p${i}`)));
  try {
    const t0 = performance.now();
    await Promise.all(peers.map((p, i) => p.write({ prefix: `/t/p${i}/`, keys: writesPerProcess, count: writesPerProcess, concurrency: 64 })));
    return (processes * writesPerProcess) / ((performance.now() - t0) / 1000);
  } finally {
    await Promise.all(peers.map((p) => p.close()));
  }
}

async function latency(dir: string): Promise<{ own: number[]; other: number[] }> {
  const path = join(dir, 'latency.db');
  const kv = new SqliteKV({ path, shared: true });
  const peer = await Peer.start(path, 'watcher');
  try {
    const start = kv.revision() + 1;
    const issuedAt = new Map<number, number>();
    const own: number[] = [];
    kv.watch(
      { key: '/l/', rangeEnd: '/l0', startRevision: start },
      {
        onEvents: (events: readonly KVEvent[]) => {
          const at = now();
          for (const e of events) if (e.type === 'PUT') own.push(at);
        },
        onError: () => undefined,
      },
    );
    const remote = await peer.watch('/l/', '/l0', start);
    const issued: number[] = [];
    for (let i = 0; i < watchEvents; i++) {
      const t = now();
      issued.push(t);
      const r = await kv.optimisticPut(`/l/k${i}`, Buffer.from('x'.repeat(1000)), 0);
      issuedAt.set(r.revision, t);
      await new Promise((res) => setTimeout(res, 5));
    }
    const deadline = Date.now() + 30_000;
    while (remote.events.length < watchEvents && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // From the write's issue to the event's arrival, as the storage bench measures.
    return {
      own: own.map((at, i) => at - (issued[i] ?? NaN)),
      other: remote.events.map((e) => (e.at ?? NaN) - (issuedAt.get(e.rev) ?? NaN)),
    };
  } finally {
    await peer.close();
    await kv.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'storage-shared-bench-'));
  const out: string[] = [
    `SQLite shared by several processes${quick ? ' (BENCH_QUICK)' : ''}: ${cpus().length} vCPU, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    `${writesPerProcess} creates per process (get + CAS put of a short value), 64 in flight per process; ${watchEvents} watch events (1 KiB values) paced 5 ms`,
    '',
  ];
  try {
    const one = await throughput(dir, 1);
    for (const [n, rate] of [
      [1, one],
      [2, await throughput(dir, 2)],
      [3, await throughput(dir, 3)],
    ] as const) {
      out.push(`${n} writing process${n > 1 ? 'es' : ''}: ${rate.toFixed(0)} writes/s in total (${(rate / one).toFixed(2)}× one)`);
    }
    const l = await latency(dir);
    out.push(
      `watch p50/p99 ms, same process (commit path): ${f1(pct(l.own, 50))} / ${f1(pct(l.own, 99))}`,
      `watch p50/p99 ms, other process (log feed, notify file): ${f1(pct(l.other, 50))} / ${f1(pct(l.other, 99))} (${l.other.length} of ${watchEvents} events)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(out.join('\n'));
}

runBench(main);
