// HTTP benchmark (issue 4): the control plane command (a subprocess, as users run it) on SQLite
// and on etcd, measured through HTTPS with 64 concurrent keep-alive clients, next to the
// storage layer (runtime/storage, watch cache in front, as the server uses it) measured in the
// same run with the same objects and sizes. Targets: HTTP creates ≥ 50% of the storage
// layer's rate; HTTP gets ≥ 5,000/s on SQLite. Beside them, the HTTPS ceiling of the machine: a
// process answering a fixed Flunder over the same TLS, driven by the same client (lib/ceiling.ts).
// Then HTTP/1.1 against HTTP/2 on the same SQLite server (protocolFigures).
// Issue 17: every backend is also served with --workers 1 and --workers auto (one per core), and
// each cell reports creates, gets and JSON merge patches per second with p50/p99, the server CPU
// per request summed over all its processes (primary and workers), and the ratio to the HTTPS
// ceiling run as the same number of processes (the matrix at the end).
// BENCH_QUICK=1 shrinks every size; BENCH_ONLY=protocols runs only the protocol comparison;
// BENCH_ONLY=<backend>[:<workers>],... (backend sqlite or etcd3, workers 1 or auto) runs only
// those cells, e.g. BENCH_ONLY=sqlite:1 or BENCH_ONLY=etcd3:auto,sqlite.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/factory.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { ControlPlane, type Backend } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { flunderV1beta1 } from '../integration/objects.js';
import { LoadClient } from './lib/load.js';
import { runBench, withCpu } from './lib/process.js';
import { medianMs, pad, percentile, throughput, type Throughput } from '../storage/bench/stats.js';
import { startEtcd, type EtcdCluster } from '../storage/etcdServer.js';

const quick = process.env['BENCH_QUICK'] === '1';
const sizes = quick ? { creates: 500, gets: 2000, patches: 1000, listIterations: 5, watchEvents: 50 } : { creates: 5000, gets: 20000, patches: 10000, listIterations: 20, watchEvents: 200 };
const CONCURRENCY = 64;
const LIST_SIZES = [100, 1000] as const;

type Cpu = { server: number; client: number };

interface Figures {
  creates: Throughput;
  gets: Throughput;
  /** JSON merge patches of a label (HTTP only). */
  patches?: Throughput;
  /** CPU ms per request spent by the server processes and by this (client) process; HTTP only. */
  cpu?: { create: Cpu; get: Cpu; patch: Cpu };
  list: Record<(typeof LIST_SIZES)[number], number>;
  watch: { p50: number; p99: number };
}

/** What the server stores for a Flunder: the manifest plus server-set metadata. */
function stored(name: string, ns: string): StoredObject {
  const o = flunderV1beta1.manifest(name, ns) as StoredObject & { metadata: Record<string, unknown> };
  Object.assign(o.metadata, { uid: '6f1c3b1e-0000-4000-8000-000000000000', creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), generation: 1 });
  return o;
}

function latencies(sent: Map<string, number>, names: string[], arrivals: Map<string, number>): { p50: number; p99: number } {
  const lat = names
    .map((n) => (arrivals.get(n) ?? NaN) - (sent.get(n) ?? NaN))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99) };
}

async function storageFigures(f: StorageFactory): Promise<Figures> {
  const s = await f.forResource<StoredObject>({ resourcePrefix: '/wardle.example.com/flunders/' });
  for (;;) {
    try {
      await s.readinessCheck();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const key = (ns: string, n: string): string => `/wardle.example.com/flunders/${ns}/${n}`;
  const creates = await throughput(sizes.creates, CONCURRENCY, (i) => s.create(key('c', pad(i)), stored(pad(i), 'c')));
  const gets = await throughput(sizes.gets, CONCURRENCY, (i) => s.get(key('c', pad(i % sizes.creates))));
  const list = {} as Figures['list'];
  for (const n of LIST_SIZES) {
    await throughput(n, CONCURRENCY, (i) => s.create(key(`l${n}`, pad(i)), stored(pad(i), `l${n}`)));
    list[n] = await medianMs(sizes.listIterations, () => s.getList(`/wardle.example.com/flunders/l${n}/`, { recursive: true }));
  }
  const start = await s.getList('/wardle.example.com/flunders/w/', { recursive: true });
  const w = await s.watch('/wardle.example.com/flunders/w/', { recursive: true, resourceVersion: start.resourceVersion });
  const sent = new Map<string, number>();
  const arrivals = new Map<string, number>();
  const names = Array.from({ length: sizes.watchEvents }, (_, i) => `w-${pad(i)}`);
  const consumer = (async () => {
    for await (const ev of w) {
      const name = String((ev.object as { metadata?: { name?: string } }).metadata?.name);
      arrivals.set(name, performance.now());
      if (arrivals.size === names.length) break;
    }
  })();
  for (const n of names) {
    sent.set(n, performance.now());
    await s.create(key('w', n), stored(n, 'w'));
    await new Promise((r) => setTimeout(r, 5));
  }
  await consumer;
  return { creates, gets, list, watch: latencies(sent, names, arrivals) };
}

const coll = (ns: string): string => `/apis/wardle.example.com/v1beta1/namespaces/${ns}/flunders`;

/**
 * Creates (201), gets (200) and JSON merge patches of a label (200) of Flunders through `load`,
 * with the CPU per request of process `pid` and the processes below it.
 */
async function createsGetsPatches(load: LoadClient, pid: number): Promise<Required<Pick<Figures, 'creates' | 'gets' | 'patches' | 'cpu'>>> {
  const [creates, create] = await withCpu(pid, sizes.creates, () =>
    throughput(sizes.creates, CONCURRENCY, (i) => load.expect(201, 'POST', coll('c'), JSON.stringify(flunderV1beta1.manifest(pad(i), 'c')))),
  );
  const [gets, get] = await withCpu(pid, sizes.gets, () => throughput(sizes.gets, CONCURRENCY, (i) => load.expect(200, 'GET', `${coll('c')}/${pad(i % sizes.creates)}`)));
  const [patches, patch] = await withCpu(pid, sizes.patches, () =>
    throughput(sizes.patches, CONCURRENCY, (i) =>
      load.expect(200, 'PATCH', `${coll('c')}/${pad(i % sizes.creates)}`, JSON.stringify({ metadata: { labels: { patched: String(i) } } }), 'application/merge-patch+json'),
    ),
  );
  return { creates, gets, patches, cpu: { create, get, patch } };
}

/** The protocols compared, each with 64 requests in flight. */
const PROTOCOLS = [
  { label: 'HTTP/1.1, 64 connections × 1 request', connections: CONCURRENCY, http2: undefined },
  { label: 'h2, 1 connection × 64 streams', connections: 1, http2: { streams: CONCURRENCY } },
  { label: 'h2, 8 connections × 8 streams', connections: 8, http2: { streams: 8 } },
] as const;

interface ProtocolFigures {
  label: string;
  /** Median over the rounds. */
  creates: number;
  gets: number;
  /** Server CPU ms per request, median over the rounds. */
  createCpu: number;
  getCpu: number;
}

/**
 * HTTP/1.1 against HTTP/2 (the server offers h2 and http/1.1 by ALPN): creates and gets of
 * Flunders with 64 requests in flight, as one h2 connection of 64 streams (client-go's and
 * kubectl's way), 8 connections of 8 streams, and 64 HTTP/1.1 connections. The protocols take
 * turns in short rounds and each figure is the median of its rounds, so a load that drifts
 * during the run (other processes on the machine) weighs on all three alike.
 */
async function protocolFigures(cp: ControlPlane): Promise<ProtocolFigures[]> {
  const rounds = quick ? 3 : 5;
  const perRound = { creates: Math.ceil(sizes.creates / rounds), gets: Math.ceil(sizes.gets / rounds) };
  const loads = PROTOCOLS.map((p) => new LoadClient(cp.credentials, p.connections, p.http2 ? { http2: p.http2 } : {}));
  const samples = PROTOCOLS.map(() => ({ creates: [] as number[], gets: [] as number[], createCpu: [] as number[], getCpu: [] as number[] }));
  const median = (xs: number[]): number =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  try {
    // connections are opened (and TLS handshakes done) before anything is measured
    await Promise.all(loads.map((load) => throughput(CONCURRENCY, CONCURRENCY, () => load.expect(200, 'GET', '/api/v1/namespaces/default'))));
    for (let r = 0; r < rounds; r++) {
      for (const [i, load] of loads.entries()) {
        const ns = `proto-${i}`;
        const base = r * perRound.creates;
        const [creates, createCpu] = await withCpu(cp.pid, perRound.creates, () =>
          throughput(perRound.creates, CONCURRENCY, (k) => load.expect(201, 'POST', coll(ns), JSON.stringify(flunderV1beta1.manifest(pad(base + k), ns)))),
        );
        const [gets, getCpu] = await withCpu(cp.pid, perRound.gets, () => throughput(perRound.gets, CONCURRENCY, (k) => load.expect(200, 'GET', `${coll(ns)}/${pad(k % (base + perRound.creates))}`)));
        const s = samples[i]!;
        s.creates.push(creates.perSecond);
        s.gets.push(gets.perSecond);
        s.createCpu.push(createCpu.server);
        s.getCpu.push(getCpu.server);
      }
    }
  } finally {
    await Promise.all(loads.map((l) => l.close()));
  }
  return PROTOCOLS.map((p, i) => {
    const s = samples[i]!;
    return { label: p.label, creates: median(s.creates), gets: median(s.gets), createCpu: median(s.createCpu), getCpu: median(s.getCpu) };
  });
}

/** The same creates, gets and patches against lib/ceiling.ts as `workers` processes, serving with the control plane's certificates. */
async function ceilingFigures(cp: ControlPlane, workers = 1): Promise<Awaited<ReturnType<typeof createsGetsPatches>>> {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./lib/ceiling.ts', import.meta.url)), join(cp.dataDir, 'pki'), String(workers)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(proc.stdout, 'data')) as [Buffer];
    const { port } = JSON.parse(line.toString()) as { port: number };
    const load = new LoadClient({ ...cp.credentials, server: `https://127.0.0.1:${port}` }, CONCURRENCY);
    try {
      // connections are opened (and TLS handshakes done) before anything is measured
      await throughput(CONCURRENCY, CONCURRENCY, () => load.expect(200, 'GET', '/'));
      return await createsGetsPatches(load, proc.pid ?? 0);
    } finally {
      await load.close();
    }
  } finally {
    proc.kill('SIGTERM');
  }
}

async function httpFigures(cp: ControlPlane): Promise<Figures> {
  const c = new HttpsClient(cp.credentials, { maxSockets: CONCURRENCY });
  const load = new LoadClient(cp.credentials, CONCURRENCY);
  const mustStatus = async (p: Promise<{ status: number; text: string }>, want: number): Promise<void> => {
    const r = await p;
    if (r.status !== want) throw new Error(`HTTP ${r.status} (want ${want}): ${r.text.slice(0, 300)}`);
  };
  const post = (ns: string, name: string): Promise<void> =>
    mustStatus(
      c.request({ method: 'POST', path: coll(ns), headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(flunderV1beta1.manifest(name, ns)) }),
      201,
    );
  try {
    for (const ns of ['c', 'w', ...LIST_SIZES.map((n) => `l${n}`)]) {
      await mustStatus(
        c.request({
          method: 'POST',
          path: '/api/v1/namespaces',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
        }),
        201,
      );
    }
    // connections are opened (and TLS handshakes done) before anything is measured
    await throughput(CONCURRENCY, CONCURRENCY, () => load.expect(200, 'GET', '/api/v1/namespaces/default'));
    const { creates, gets, patches, cpu } = await createsGetsPatches(load, cp.pid);
    const list = {} as Figures['list'];
    for (const n of LIST_SIZES) {
      await throughput(n, CONCURRENCY, (i) => post(`l${n}`, pad(i)));
      list[n] = await medianMs(sizes.listIterations, () => mustStatus(c.request({ path: coll(`l${n}`), headers: { Accept: 'application/json' } }), 200));
    }
    const start = await c.json('GET', coll('w'));
    const rv = String((start.body['metadata'] as { resourceVersion?: string }).resourceVersion);
    const w = await c.watch(`${coll('w')}?watch=true&resourceVersion=${rv}`);
    const sent = new Map<string, number>();
    const names = Array.from({ length: sizes.watchEvents }, (_, i) => `w-${pad(i)}`);
    for (const n of names) {
      sent.set(n, performance.now());
      await post('w', n);
      await new Promise((r) => setTimeout(r, 5));
    }
    await w.until((e) => e.length >= names.length, 60_000);
    w.close();
    const arrivals = new Map(w.events.map((e, i) => [String((e.object['metadata'] as { name?: string }).name), w.arrivals[i] ?? NaN]));
    return { creates, gets, patches, list, watch: latencies(sent, names, arrivals), cpu };
  } finally {
    c.close();
    await load.close();
  }
}

const f0 = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const f2 = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');

function report(backend: Backend, workers: string, readyMs: number, http: Figures, store: Figures): string[] {
  const createRatio = http.creates.perSecond / store.creates.perSecond;
  const rows: string[][] = [
    ['creates/s (64 clients)', f0(http.creates.perSecond), f0(store.creates.perSecond), `${(createRatio * 100).toFixed(0)}%`, `≥ 50% of storage: ${createRatio >= 0.5 ? 'PASS' : 'FAIL'}`],
    ['  create p50 / p99 ms', `${f1(http.creates.p50)} / ${f1(http.creates.p99)}`, `${f1(store.creates.p50)} / ${f1(store.creates.p99)}`, '', ''],
    [
      'gets/s (64 clients)',
      f0(http.gets.perSecond),
      f0(store.gets.perSecond),
      `${((http.gets.perSecond / store.gets.perSecond) * 100).toFixed(0)}%`,
      backend === 'sqlite' ? `≥ 5,000/s: ${http.gets.perSecond >= 5000 ? 'PASS' : 'FAIL'}` : '',
    ],
    ['  get p50 / p99 ms', `${f1(http.gets.p50)} / ${f1(http.gets.p99)}`, `${f1(store.gets.p50)} / ${f1(store.gets.p99)}`, '', ''],
    ...LIST_SIZES.map((n) => [`list ${n} objects, median ms`, f1(http.list[n]), f1(store.list[n]), `${(http.list[n] / store.list[n]).toFixed(1)}×`, '']),
    ['CPU ms per create: server / client', http.cpu ? `${f2(http.cpu.create.server)} / ${f2(http.cpu.create.client)}` : 'n/a', '', '', ''],
    ['CPU ms per get: server / client', http.cpu ? `${f2(http.cpu.get.server)} / ${f2(http.cpu.get.client)}` : 'n/a', '', '', ''],
    ['merge patches/s (64 clients)', http.patches ? f0(http.patches.perSecond) : 'n/a', '', '', ''],
    ['  patch p50 / p99 ms', http.patches ? `${f1(http.patches.p50)} / ${f1(http.patches.p99)}` : 'n/a', '', '', ''],
    ['CPU ms per patch: server / client', http.cpu ? `${f2(http.cpu.patch.server)} / ${f2(http.cpu.patch.client)}` : 'n/a', '', '', ''],
    ['watch create→event p50 / p99 ms', `${f1(http.watch.p50)} / ${f1(http.watch.p99)}`, `${f1(store.watch.p50)} / ${f1(store.watch.p99)}`, '', ''],
  ];
  const head = ['figure', 'HTTP', 'storage layer', 'HTTP/storage', 'target'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]): string =>
    r
      .map((x, i) => x.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [`## ${backend}, --workers ${workers} (server ready in ${readyMs} ms)`, line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ''];
}

function protocolReport(figures: ProtocolFigures[]): string[] {
  const h1 = figures[0]!;
  const rows = figures.map((f) => [
    f.label,
    f0(f.creates),
    `${((f.creates / h1.creates) * 100).toFixed(0)}%`,
    f0(f.gets),
    `${((f.gets / h1.gets) * 100).toFixed(0)}%`,
    `${f2(f.createCpu)} / ${f2(f.getCpu)}`,
  ]);
  const head = ['protocol (64 requests in flight)', 'creates/s', 'of HTTP/1.1', 'gets/s', 'of HTTP/1.1', 'server CPU ms per create / get'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]): string =>
    r
      .map((x, i) => x.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return ['## HTTP/1.1 vs HTTP/2 on SQLite (same server, protocols taking turns, median of rounds)', line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ''];
}

function ceilingReport(ceiling: Awaited<ReturnType<typeof ceilingFigures>>, server: Figures, cell: Cell): string[] {
  const pct = (a: number, b: number): string => `${((a / b) * 100).toFixed(0)}%`;
  const on = `API server on ${cell.backend}`;
  return [
    `## HTTPS ceiling: ${cell.workers === 1 ? 'a process' : `${cell.workers} cluster processes`} answering a fixed Flunder over the same TLS, same client (lib/ceiling.ts)`,
    `creates/s ${f0(ceiling.creates.perSecond)} (${on}: ${pct(server.creates.perSecond, ceiling.creates.perSecond)}), ` +
      `gets/s ${f0(ceiling.gets.perSecond)} (${on}: ${pct(server.gets.perSecond, ceiling.gets.perSecond)}), ` +
      `patches/s ${f0(ceiling.patches.perSecond)} (${on}: ${server.patches ? pct(server.patches.perSecond, ceiling.patches.perSecond) : 'n/a'})`,
    `CPU ms per request, server / client: create ${f2(ceiling.cpu.create.server)} / ${f2(ceiling.cpu.create.client)}, get ${f2(ceiling.cpu.get.server)} / ${f2(ceiling.cpu.get.client)}, patch ${f2(ceiling.cpu.patch.server)} / ${f2(ceiling.cpu.patch.client)}`,
    '',
  ];
}

/** BENCH_ONLY=protocols: only the HTTP/1.1 vs HTTP/2 comparison, on SQLite. */
async function protocolsOnly(): Promise<void> {
  const cp = await ControlPlane.start({ backend: 'sqlite' });
  try {
    await createProtocolNamespaces(cp);
    console.log(
      [`HTTP/1.1 vs HTTP/2${quick ? ' (BENCH_QUICK)' : ''}: ${cpus().length} vCPU, Node ${process.version}, sizes ${JSON.stringify(sizes)}`, '', ...protocolReport(await protocolFigures(cp))].join(
        '\n',
      ),
    );
  } finally {
    await cp.stop();
  }
}

async function createProtocolNamespaces(cp: ControlPlane): Promise<void> {
  const load = new LoadClient(cp.credentials, 1);
  try {
    for (const i of PROTOCOLS.keys()) await load.expect(201, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `proto-${i}` } }));
  } finally {
    await load.close();
  }
}

/** One cell of the matrix: a backend served by `workers` processes. */
interface Cell {
  backend: Backend;
  workers: number;
  /** What --workers was given: a count, or auto. */
  flag: string;
}

interface CellFigures {
  cell: Cell;
  readyMs: number;
  http: Figures;
  ceiling: Awaited<ReturnType<typeof ceilingFigures>>;
}

/** The cells BENCH_ONLY selects (all when unset): `<backend>[:<workers>]`, comma separated. */
function selectedCells(): Cell[] {
  const auto = availableParallelism();
  const all: Cell[] = (['sqlite', 'etcd3'] as const).flatMap((backend) => [{ backend, workers: 1, flag: '1' }, ...(auto > 1 ? [{ backend, workers: auto, flag: 'auto' }] : [])]);
  const only = process.env['BENCH_ONLY'];
  if (only === undefined || only === '') return all;
  const picked = new Set<Cell>();
  for (const term of only.split(',')) {
    const [b, w] = term.trim().split(':');
    const backend = b === 'etcd' ? 'etcd3' : b;
    const matches = all.filter((c) => c.backend === backend && (w === undefined || w === c.flag || Number(w) === c.workers));
    if (matches.length === 0) throw new Error(`BENCH_ONLY: no cell ${JSON.stringify(term)}; cells are ${all.map((c) => `${c.backend}:${c.flag}`).join(', ')} (or protocols)`);
    for (const c of matches) picked.add(c);
  }
  return all.filter((c) => picked.has(c));
}

function matrixReport(cells: CellFigures[]): string[] {
  const rate = (t: Throughput | undefined, ceiling: Throughput | undefined): string =>
    t ? `${f0(t.perSecond)} (${ceiling ? `${((t.perSecond / ceiling.perSecond) * 100).toFixed(0)}%` : 'n/a'})` : 'n/a';
  const lat = (t: Throughput | undefined): string => (t ? `${f1(t.p50)} / ${f1(t.p99)}` : 'n/a');
  const rows = cells.map(({ cell, http, ceiling, readyMs }) => [
    `${cell.backend}, --workers ${cell.flag}${cell.flag === 'auto' ? ` (${cell.workers})` : ''}`,
    rate(http.creates, ceiling.creates),
    lat(http.creates),
    rate(http.gets, ceiling.gets),
    lat(http.gets),
    rate(http.patches, ceiling.patches),
    lat(http.patches),
    http.cpu ? `${f2(http.cpu.create.server)} / ${f2(http.cpu.get.server)} / ${f2(http.cpu.patch.server)}` : 'n/a',
    `${f0(ceiling.creates.perSecond)} / ${f0(ceiling.gets.perSecond)} / ${f0(ceiling.patches.perSecond)}`,
    `${f2(ceiling.cpu.create.server)} / ${f2(ceiling.cpu.get.server)}`,
    String(readyMs),
  ]);
  const head = [
    'backend × workers',
    'creates/s (of ceiling)',
    'p50 / p99 ms',
    'gets/s (of ceiling)',
    'p50 / p99 ms',
    'patches/s (of ceiling)',
    'p50 / p99 ms',
    'server CPU ms create / get / patch',
    'ceiling create / get / patch /s',
    'ceiling CPU ms create / get',
    'ready ms',
  ];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]): string =>
    r
      .map((x, i) => x.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    '## Backend × --workers (server CPU summed over the primary and its workers; ceiling = lib/ceiling.ts as the same number of processes)',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
  ];
}

/** Starts the control plane of a cell, measures it and the ceiling of as many processes. */
async function cellFigures(cell: Cell, etcd: EtcdCluster | undefined, out: string[], store: Figures): Promise<CellFigures> {
  const extraArgs = cell.flag === '1' ? [] : ['--workers', cell.flag];
  const cp = await ControlPlane.start(cell.backend === 'etcd3' && etcd ? { backend: 'etcd3', etcd, etcdPrefix: `/bench-http-${cell.flag}`, extraArgs } : { backend: 'sqlite', extraArgs });
  try {
    const http = await httpFigures(cp);
    out.push(...report(cell.backend, cell.flag, cp.readyMs, http, store));
    if (cell.backend === 'sqlite' && cell.workers === 1 && process.env['BENCH_ONLY'] === undefined) {
      await createProtocolNamespaces(cp);
      out.push(...protocolReport(await protocolFigures(cp)));
    }
    const ceiling = await ceilingFigures(cp, cell.workers);
    out.push(...ceilingReport(ceiling, http, cell));
    return { cell, readyMs: cp.readyMs, http, ceiling };
  } finally {
    await cp.stop();
  }
}

async function main(): Promise<void> {
  if (process.env['BENCH_ONLY'] === 'protocols') return protocolsOnly();
  const cells = selectedCells();
  const out = [
    `HTTP benchmark${quick ? ' (BENCH_QUICK)' : ''}: ${cpus().length} vCPU, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at start`,
    `sizes: ${JSON.stringify(sizes)}, ${CONCURRENCY} concurrent keep-alive HTTPS clients; server = runtime/controlplane/serve.ts subprocess; cells: ${cells.map((c) => `${c.backend}:${c.flag}`).join(', ')}`,
    '',
  ];
  const dir = mkdtempSync(join(tmpdir(), 'http-bench-'));
  const results: CellFigures[] = [];
  try {
    if (cells.some((c) => c.backend === 'sqlite')) {
      const f = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'storage.db') } });
      const store = await storageFigures(f).finally(() => f.close());
      for (const cell of cells.filter((c) => c.backend === 'sqlite')) results.push(await cellFigures(cell, undefined, out, store));
    }
    if (cells.some((c) => c.backend === 'etcd3')) {
      const etcd: EtcdCluster = await startEtcd();
      try {
        const f = newStorageFactory({ backend: { backend: 'etcd3', endpoints: etcd.endpoints, prefix: '/bench-storage', compactionIntervalMs: 0 } });
        const store = await storageFigures(f).finally(() => f.close());
        for (const cell of cells.filter((c) => c.backend === 'etcd3')) results.push(await cellFigures(cell, etcd, out, store));
      } finally {
        await etcd.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  out.push(...matrixReport(results));
  out.push(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the end`,
  );
  console.log(out.join('\n'));
}

runBench(main);
