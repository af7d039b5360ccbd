// Custom-resource benchmark (issue 6): CronTabs of the CRD in apis/crds/ beside Flunders, the
// built-in (generated) kind, in one run of the control plane command (a subprocess, as users
// run it, on SQLite). Both are asked in their storage version (no conversion) with objects of
// the same size and the same labels, through the same clients:
// - creates/s and gets/s with 64 concurrent keep-alive HTTPS connections (undici),
// - the median time of a list of 10,000 objects in one namespace (JSON, consistent read),
// - watch fan-out: 50 watchers on one namespace while 64 writers create objects there (events
//   delivered per second over all watchers, from opening the watches to the last event
//   received), then 50 new watchers from the resourceVersion before those writes, to which the
//   watch cache replays the same events (no writes: the fan-out alone; 10 replays summed).
// Each figure is measured twice per kind, the kinds taking turns first, and the mean kept.
// Target: every custom-resource figure within 80% of the built-in one (a list at most 1.25×).
// BENCH_QUICK=1 shrinks every size.
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { parse } from 'yaml';
import { ControlPlane, repoRoot, type Credentials } from '../integration/harness.js';
import { LoadClient } from './lib/load.js';
import { runBench, withCpu } from './lib/process.js';
import { medianMs, pad, throughput, type Throughput } from '../storage/bench/stats.js';
import { cronTabKind, type BenchKind } from './lib/kinds.js';

const quick = process.env['BENCH_QUICK'] === '1';
const sizes = quick
  ? { creates: 1000, gets: 4000, list: 2000, listIterations: 5, watchers: 50, watchEvents: 200, replays: 3 }
  : { creates: 5000, gets: 20_000, list: 10_000, listIterations: 10, watchers: 50, watchEvents: 1000, replays: 10 };
const CONCURRENCY = 64;
const TARGET = 0.8;

/** One kind under test: where its objects live and what one looks like (~same JSON size for both). */
type Kind = BenchKind;

const flunder: Kind = {
  title: 'Flunder (built-in, wardle.example.com/v1alpha1)',
  collection: (ns) => `/apis/wardle.example.com/v1alpha1/namespaces/${ns}/flunders`,
  manifest: (name, ns) => ({
    apiVersion: 'wardle.example.com/v1alpha1',
    kind: 'Flunder',
    metadata: { name, namespace: ns, labels: { app: 'bench' } },
    spec: { reference: 'some-other-flunder', referenceType: 'Flunder' },
  }),
};

const cronTab = cronTabKind;

interface Figures {
  creates: Throughput;
  gets: Throughput;
  /** Server CPU ms per create and per get (/proc/<pid>/stat). */
  cpu: { create: number; get: number };
  listMs: number;
  /** Watchers open while the events are written. */
  watch: { eventsPerSecond: number; seconds: number };
  /** Watchers opened afterwards at the resourceVersion before the writes: the watch cache replays the events. */
  replay: { eventsPerSecond: number; seconds: number };
}

/**
 * Watchers that count events without decoding them (newline-framed JSON): the bench process
 * then costs little per event, so the server's fan-out, not 50 parsers, sets the figure.
 */
class CountingWatchers {
  private readonly pool: Pool;
  private readonly counts: number[];
  private readonly aborts: AbortController[] = [];
  private lastEventAt = 0;
  private readonly done: Array<Promise<void>> = [];

  constructor(creds: Credentials, n: number) {
    this.pool = new Pool(creds.server, {
      connections: n,
      pipelining: 1,
      connect: { ca: creds.caPEM, ...(creds.certPEM && creds.keyPEM ? { cert: creds.certPEM, key: creds.keyPEM } : {}) },
    });
    this.counts = new Array<number>(n).fill(0);
  }

  /** Opens the connections (TLS handshakes) before anything is timed: one request per connection at once. */
  async connect(): Promise<void> {
    await Promise.all(
      this.counts.map(async () => {
        const r = await this.pool.request({ method: 'GET', path: '/version', headers: { accept: 'application/json' } });
        await r.body.dump();
      }),
    );
  }

  /** Opens every watch at `resourceVersion` and resolves once each answered with its headers. */
  async open(path: string, resourceVersion: string): Promise<void> {
    await Promise.all(
      this.counts.map(async (_, i) => {
        const ac = new AbortController();
        this.aborts.push(ac);
        const r = await this.pool.request({ method: 'GET', path: `${path}?watch=true&resourceVersion=${resourceVersion}`, headers: { accept: 'application/json' }, signal: ac.signal });
        if (r.statusCode !== 200) throw new Error(`watch: HTTP ${r.statusCode}: ${(await r.body.text()).slice(0, 300)}`);
        this.done.push(
          (async () => {
            try {
              for await (const chunk of r.body as AsyncIterable<Buffer>) {
                let n = 0;
                for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) n++;
                if (n > 0) {
                  this.counts[i] = (this.counts[i] ?? 0) + n;
                  this.lastEventAt = performance.now();
                }
              }
            } catch {
              // aborted by close()
            }
          })(),
        );
      }),
    );
  }

  /** Resolves when every watcher has seen `events` events; the time of the last one. */
  async waitFor(events: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.counts.some((c) => c < events)) {
      if (Date.now() > deadline) throw new Error(`watchers saw ${Math.min(...this.counts)}..${Math.max(...this.counts)} of ${events} events`);
      await new Promise((r) => setTimeout(r, 2));
    }
    return this.lastEventAt;
  }

  async close(): Promise<void> {
    for (const ac of this.aborts) ac.abort();
    await Promise.all(this.done);
    await this.pool.destroy();
  }
}

async function postNamespace(load: LoadClient, name: string): Promise<void> {
  await load.expect(201, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
}

async function listRV(creds: Credentials, path: string): Promise<string> {
  const pool = new Pool(creds.server, { connect: { ca: creds.caPEM, ...(creds.certPEM && creds.keyPEM ? { cert: creds.certPEM, key: creds.keyPEM } : {}) } });
  try {
    const r = await pool.request({ method: 'GET', path: `${path}?limit=1`, headers: { accept: 'application/json' } });
    const body = (await r.body.json()) as { metadata?: { resourceVersion?: string } };
    return body.metadata?.resourceVersion ?? '';
  } finally {
    await pool.close();
  }
}

/** One measurement round of one kind; `round` keeps names and namespaces apart between rounds. */
async function measure(cp: ControlPlane, load: LoadClient, kind: Kind, tag: string, round: number): Promise<Figures> {
  const ns = (what: string): string => `${tag}-${what}-${round}`;
  for (const what of ['c', 'l', 'w']) await postNamespace(load, ns(what));
  const post = (where: string, name: string): Promise<void> => load.expect(201, 'POST', kind.collection(where), JSON.stringify(kind.manifest(name, where)));

  const [creates, { server: createCpu }] = await withCpu(cp.pid, sizes.creates, () => throughput(sizes.creates, CONCURRENCY, (i) => post(ns('c'), pad(i))));
  const [gets, { server: getCpu }] = await withCpu(cp.pid, sizes.gets, () =>
    throughput(sizes.gets, CONCURRENCY, (i) => load.expect(200, 'GET', `${kind.collection(ns('c'))}/${pad(i % sizes.creates)}`)),
  );

  await throughput(sizes.list, CONCURRENCY, (i) => post(ns('l'), pad(i)));
  const listMs = await medianMs(sizes.listIterations, () => load.expect(200, 'GET', kind.collection(ns('l'))));

  const rv = await listRV(cp.credentials, kind.collection(ns('w')));
  const live = await fanOut(cp.credentials, kind.collection(ns('w')), rv, () => throughput(sizes.watchEvents, CONCURRENCY, (i) => post(ns('w'), pad(i))));
  // The same events again, to new watchers from the same resourceVersion: replayed from the watch cache, no writes.
  // A replay lasts a fraction of a second: several, summed, keep one busy moment of the machine from deciding the figure.
  let replayed = 0;
  for (let i = 0; i < sizes.replays; i++) replayed += (await fanOut(cp.credentials, kind.collection(ns('w')), rv, async () => {})).seconds;
  const replay = { eventsPerSecond: (sizes.replays * sizes.watchers * sizes.watchEvents) / replayed, seconds: replayed / sizes.replays };
  return { creates, gets, cpu: { create: createCpu, get: getCpu }, listMs, watch: live, replay };
}

/** Opens the watchers, runs `write`, and times from before the opening to the last event every watcher has. */
async function fanOut(creds: Credentials, path: string, rv: string, write: () => Promise<unknown>): Promise<Figures['watch']> {
  const watchers = new CountingWatchers(creds, sizes.watchers);
  try {
    await watchers.connect();
    const t0 = performance.now();
    await watchers.open(path, rv);
    await write();
    const seconds = ((await watchers.waitFor(sizes.watchEvents, 120_000)) - t0) / 1000;
    return { eventsPerSecond: (sizes.watchers * sizes.watchEvents) / seconds, seconds };
  } finally {
    await watchers.close();
  }
}

function mean(a: Figures, b: Figures): Figures {
  const avg = (x: number, y: number): number => (x + y) / 2;
  const tp = (x: Throughput, y: Throughput): Throughput => ({ n: x.n + y.n, seconds: x.seconds + y.seconds, perSecond: avg(x.perSecond, y.perSecond), p50: avg(x.p50, y.p50), p99: avg(x.p99, y.p99) });
  return {
    creates: tp(a.creates, b.creates),
    gets: tp(a.gets, b.gets),
    cpu: { create: avg(a.cpu.create, b.cpu.create), get: avg(a.cpu.get, b.cpu.get) },
    listMs: avg(a.listMs, b.listMs),
    watch: { eventsPerSecond: avg(a.watch.eventsPerSecond, b.watch.eventsPerSecond), seconds: avg(a.watch.seconds, b.watch.seconds) },
    replay: { eventsPerSecond: avg(a.replay.eventsPerSecond, b.replay.eventsPerSecond), seconds: avg(a.replay.seconds, b.replay.seconds) },
  };
}

async function establishCronTabs(cp: ControlPlane, load: LoadClient): Promise<void> {
  const crd = parse(readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8')) as unknown;
  await load.expect(201, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await load.expect(200, 'GET', cronTab.collection('default'));
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const f0 = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const f2 = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');

function report(builtin: Figures, custom: Figures): string[] {
  const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');
  const higher = (c: number, b: number): [string, string] => [`${((c / b) * 100).toFixed(0)}%`, `≥ 80%: ${verdict(c / b >= TARGET)}`];
  const rows: string[][] = [
    ['creates/s (64 clients)', f0(builtin.creates.perSecond), f0(custom.creates.perSecond), ...higher(custom.creates.perSecond, builtin.creates.perSecond)],
    ['  create p50 / p99 ms', `${f1(builtin.creates.p50)} / ${f1(builtin.creates.p99)}`, `${f1(custom.creates.p50)} / ${f1(custom.creates.p99)}`, '', ''],
    ['  server CPU ms per create', f2(builtin.cpu.create), f2(custom.cpu.create), '', ''],
    ['gets/s (64 clients)', f0(builtin.gets.perSecond), f0(custom.gets.perSecond), ...higher(custom.gets.perSecond, builtin.gets.perSecond)],
    ['  get p50 / p99 ms', `${f1(builtin.gets.p50)} / ${f1(builtin.gets.p99)}`, `${f1(custom.gets.p50)} / ${f1(custom.gets.p99)}`, '', ''],
    ['  server CPU ms per get', f2(builtin.cpu.get), f2(custom.cpu.get), '', ''],
    [
      `list ${sizes.list.toLocaleString('en-US')}, median ms`,
      f1(builtin.listMs),
      f1(custom.listMs),
      `${(custom.listMs / builtin.listMs).toFixed(2)}×`,
      `≤ 1.25×: ${verdict(custom.listMs / builtin.listMs <= 1 / TARGET)}`,
    ],
    [
      `watch, ${sizes.watchers} watchers, live: events/s delivered`,
      f0(builtin.watch.eventsPerSecond),
      f0(custom.watch.eventsPerSecond),
      ...higher(custom.watch.eventsPerSecond, builtin.watch.eventsPerSecond),
    ],
    [`  ${sizes.watchEvents} creates → last event, s`, f2(builtin.watch.seconds), f2(custom.watch.seconds), '', ''],
    [
      `watch, ${sizes.watchers} watchers, replay: events/s delivered`,
      f0(builtin.replay.eventsPerSecond),
      f0(custom.replay.eventsPerSecond),
      ...higher(custom.replay.eventsPerSecond, builtin.replay.eventsPerSecond),
    ],
    [`  open → last of ${sizes.watchEvents} events, s (mean of ${sizes.replays})`, f2(builtin.replay.seconds), f2(custom.replay.seconds), '', ''],
  ];
  const head = ['figure', 'Flunder (built-in)', 'CronTab (CR)', 'CR / built-in', 'target'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]): string =>
    r
      .map((x, i) => x.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

async function main(): Promise<void> {
  const cp = await ControlPlane.start({ backend: 'sqlite' });
  const out = [
    `Custom-resource benchmark${quick ? ' (BENCH_QUICK)' : ''}: ${cpus().length} vCPU, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start`,
    `sizes: ${JSON.stringify(sizes)}, ${CONCURRENCY} concurrent keep-alive HTTPS connections (undici); server = runtime/controlplane/serve.ts subprocess on SQLite (ready in ${cp.readyMs} ms)`,
    '',
  ];
  const load = new LoadClient(cp.credentials, CONCURRENCY);
  try {
    await establishCronTabs(cp, load);
    // Warm both paths (JIT, caches, first CEL and schema compilations) before measuring.
    await postNamespace(load, 'warm');
    for (const kind of [flunder, cronTab]) await throughput(500, CONCURRENCY, (i) => load.expect(201, 'POST', kind.collection('warm'), JSON.stringify(kind.manifest(`warm-${pad(i)}`, 'warm'))));
    const builtinRounds: Figures[] = [];
    const customRounds: Figures[] = [];
    for (const round of [0, 1]) {
      const order = round === 0 ? [flunder, cronTab] : [cronTab, flunder];
      for (const kind of order) {
        const figures = await measure(cp, load, kind, kind === flunder ? 'f' : 'ct', round);
        (kind === flunder ? builtinRounds : customRounds).push(figures);
      }
    }
    out.push(
      ...report(mean(builtinRounds[0]!, builtinRounds[1]!), mean(customRounds[0]!, customRounds[1]!)),
      '',
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end`,
    );
    console.log(out.join('\n'));
  } finally {
    await load.close();
    await cp.stop();
  }
}

runBench(main);
