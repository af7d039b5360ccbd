// Storage benchmark (issue 3): per backend, creates (sequential and 64 in flight), gets, a
// 10,000-object list (backend, watch cache at RV=0, consistent), and watch delivery latency
// with 1 and 1,000 watchers, each next to the raw engine measured in the same run
// (plain better-sqlite3 inserts; plain etcd3 npm puts). BENCH_QUICK=1 shrinks every size.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { newStorageFactory } from '../../runtime/storage/factory.js';
import { layerFigures, type LayerFigures } from '../storage/bench/layer.js';
import { rawEtcd, rawSqlite, type RawFigures, type Sizes } from '../storage/bench/raw.js';
import { startEtcd } from '../storage/etcdServer.js';
import { type EtcdKV } from '../../runtime/storage/etcd3/kv.js';
import { runBench } from './lib/process.js';

const quick = process.env.BENCH_QUICK === '1';
const sizes: Sizes = quick
  ? { seq: 200, conc: 2000, gets: 500, listObjects: 1000, listIterations: 3, watchers: 100, watchEvents: 20 }
  : { seq: 2000, conc: 20000, gets: 5000, listObjects: 10000, listIterations: 10, watchers: 1000, watchEvents: 100 };

const f0 = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const pct = (ours: number, raw: number): string => `${((ours / raw) * 100).toFixed(0)}% of raw`;
const times = (ours: number, raw: number): string => `${(ours / raw).toFixed(2)}× raw`;

function report(name: string, raw: RawFigures, ours: LayerFigures): string[] {
  const rows: string[][] = [
    ['sequential creates/s', f0(ours.seqCreate.perSecond), f0(raw.seqCreate.perSecond), pct(ours.seqCreate.perSecond, raw.seqCreate.perSecond), '≥ 70% of raw'],
    ['64-concurrent creates/s', f0(ours.concCreate.perSecond), f0(raw.concCreate.perSecond), pct(ours.concCreate.perSecond, raw.concCreate.perSecond), '≥ 70% of raw'],
    ['  create p99 ms (64 in flight)', f1(ours.concCreate.p99), f1(raw.concCreate.p99), times(ours.concCreate.p99, raw.concCreate.p99), ''],
    ['gets/s (consistent)', f0(ours.get.perSecond), f0(raw.get.perSecond), pct(ours.get.perSecond, raw.get.perSecond), ''],
    [`list ${sizes.listObjects} ms, backend consistent`, f1(ours.listStore), f1(raw.list10k), times(ours.listStore, raw.list10k), ''],
    [`list ${sizes.listObjects} ms, cache RV=0`, f1(ours.listCacheRV0), f1(raw.list10k), times(ours.listCacheRV0, raw.list10k), '< 50 ms'],
    [
      `list ${sizes.listObjects} ms, consistent via cacher`,
      f1(ours.listCacheConsistent),
      f1(raw.list10k),
      times(ours.listCacheConsistent, raw.list10k),
      ours.consistentFromCache ? 'served from cache' : 'served by the backend (no ordered progress)',
    ],
    [
      'watch p50/p99 ms, 1 watcher',
      `${f1(ours.watch1.p50)} / ${f1(ours.watch1.p99)}`,
      raw.watch1 ? `${f1(raw.watch1.p50)} / ${f1(raw.watch1.p99)}` : 'n/a',
      raw.watch1 ? times(ours.watch1.p99, raw.watch1.p99) : 'no raw watch',
      '',
    ],
    [
      `watch p50/p99 ms, ${sizes.watchers} watchers`,
      `${f1(ours.watchN.p50)} / ${f1(ours.watchN.p99)}`,
      raw.watch1 ? `${f1(raw.watch1.p50)} / ${f1(raw.watch1.p99)} (1 watcher)` : 'n/a',
      raw.watch1 ? times(ours.watchN.p99, raw.watch1.p99) : 'no raw watch',
      'p99 < 100 ms',
    ],
  ];
  const widths = [0, 1, 2, 3, 4].map((c) => Math.max(...rows.map((r) => (r[c] ?? '').length), ['figure', 'storage layer', 'raw engine', 'ratio', 'target'][c]?.length ?? 0));
  const line = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  return [`## ${name}`, line(['figure', 'storage layer', 'raw engine', 'ratio', 'target']), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ''];
}

async function main(): Promise<void> {
  const out: string[] = [
    `storage benchmark${quick ? ' (BENCH_QUICK)' : ''}: ${cpus().length} vCPU, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    `sizes: ${JSON.stringify(sizes)}; values ~1 KiB JSON`,
    '',
  ];
  const dir = mkdtempSync(join(tmpdir(), 'storage-bench-'));
  try {
    const rawS = await rawSqlite(join(dir, 'raw.db'), sizes);
    const fs = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'store.db') } });
    try {
      out.push(...report('SQLite (better-sqlite3, WAL, synchronous=FULL)', rawS, await layerFigures(fs, sizes, true)));
    } finally {
      await fs.close();
    }
    const etcd = await startEtcd();
    try {
      const rawE = await rawEtcd(etcd.endpoints, '/raw', sizes);
      const fe = newStorageFactory({ backend: { backend: 'etcd3', endpoints: etcd.endpoints, compactionIntervalMs: 0 } });
      try {
        const ordered = await (fe.kv as EtcdKV).supportsRequestWatchProgress();
        out.push(...report('etcd3 (etcd-server from Debian, one member on loopback)', rawE, await layerFigures(fe, sizes, ordered)));
      } finally {
        await fe.close();
      }
    } finally {
      await etcd.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(out.join('\n'));
}

runBench(main);
