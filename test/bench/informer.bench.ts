// Informer benchmark (issue 5): the generated SharedInformerFactory over the HTTP REST client
// against the control plane command (a subprocess, as users run it) on SQLite and on etcd.
// - Initial sync of 10,000 Flunders in one namespace: from factory.start() to
//   waitForCacheSync() (list decoded, store filled), and to the handler having seen every
//   initial add; each run a fresh client (TLS handshake included) and factory. Target on
//   SQLite: under 2 s.
// - Steady state: a handler counting events while a writer (64 keep-alive connections, undici)
//   creates then merge-patches Flunders at full speed; events delivered per second, beside
//   the writer's rate and when the last event arrived relative to the last write's answer.
//   Those events come as fast as the server takes writes; what the informer can take is the
//   catch-up figure: the informer cut off (a TCP proxy refusing connections) while 5,000
//   Flunders are created, then let back, receives them in one burst replayed from the watch
//   cache; events/s from its first to its last event.
// BENCH_QUICK=1 shrinks every size.
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Clientset } from '../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { loadClientConfig, newSharedInformerFactoryCore, restClientForConfig, type HTTPRESTClient } from '../../runtime/client/index.js';
import { ControlPlane, type Backend } from '../integration/harness.js';
import { flunderV1alpha1 } from '../integration/objects.js';
import { pad, throughput } from '../storage/bench/stats.js';
import { TcpProxy } from '../client/integration/tcp-proxy.js';
import { LoadClient } from './lib/load.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const sizes = quick ? { objects: 2000, syncRuns: 3, writes: 4000, burst: 1000 } : { objects: 10_000, syncRuns: 5, writes: 20_000, burst: 5000 };
const CONCURRENCY = 64;
const SYNC_TARGET_MS = 2000;
const coll = (ns: string): string => `/apis/wardle.example.com/v1alpha1/namespaces/${ns}/flunders`;

/** A client of the admin kubeconfig, optionally through another address (a proxy). */
function informerClient(cp: ControlPlane, host?: string): HTTPRESTClient {
  const { rest } = loadClientConfig({ path: cp.kubeconfigPath });
  return restClientForConfig(host === undefined ? rest : { ...rest, host });
}

interface SyncRun {
  /** start() → waitForCacheSync(): the list fetched, decoded and in the store. */
  syncedMs: number;
  /** start() → the handler has processed every initial add. */
  handledMs: number;
}

async function syncRun(cp: ControlPlane): Promise<SyncRun> {
  const rest = informerClient(cp);
  const factory = new SharedInformerFactory(new Clientset(rest), newSharedInformerFactoryCore({ namespace: 'sync' }));
  try {
    const informer = factory.wardle().v1alpha1().flunders().informer();
    let adds = 0;
    let handled = 0;
    informer.addEventHandler({
      onAdd: () => {
        if (++adds === sizes.objects) handled = performance.now();
      },
    });
    const t0 = performance.now();
    factory.start();
    const synced = await factory.waitForCacheSync();
    const syncedAt = performance.now();
    if (![...synced.values()].every(Boolean)) throw new Error('informer did not sync');
    const size = informer.getIndexer().list().length;
    if (size !== sizes.objects) throw new Error(`synced ${size} objects, want ${sizes.objects}`);
    while (handled === 0) await new Promise((r) => setTimeout(r, 1));
    return { syncedMs: syncedAt - t0, handledMs: handled - t0 };
  } finally {
    await factory.shutdown();
    rest.close();
  }
}

interface Steady {
  writes: number;
  writesPerSecond: number;
  eventsPerSecond: number;
  /** When the last event arrived, from the last write's answer (negative: before it). */
  lagMs: number;
}

async function steadyState(cp: ControlPlane, writer: LoadClient): Promise<Steady> {
  const rest = informerClient(cp);
  const factory = new SharedInformerFactory(new Clientset(rest), newSharedInformerFactoryCore({ namespace: 'steady' }));
  try {
    const informer = factory.wardle().v1alpha1().flunders().informer();
    let events = 0;
    let last = 0;
    const n = sizes.writes;
    const done = new Promise<void>((resolve) => {
      const count = (): void => {
        last = performance.now();
        if (++events === n) resolve();
      };
      informer.addEventHandler({ onAdd: count, onUpdate: count, onDelete: count });
    });
    factory.start();
    await factory.waitForCacheSync();
    const half = n / 2;
    const t0 = performance.now();
    await throughput(half, CONCURRENCY, (i) => writer.expect(201, 'POST', coll('steady'), flunderV1alpha1.manifest(pad(i), 'steady')));
    await throughput(half, CONCURRENCY, (i) => writer.expect(200, 'PATCH', `${coll('steady')}/${pad(i)}`, { spec: { reference: `changed-${i}` } }, 'application/merge-patch+json'));
    const written = performance.now();
    await done;
    return { writes: n, writesPerSecond: n / ((written - t0) / 1000), eventsPerSecond: n / ((last - t0) / 1000), lagMs: last - written };
  } finally {
    await factory.shutdown();
    rest.close();
  }
}

/** Events replayed to an informer that was cut off while `sizes.burst` creates happened; events/s from its first to its last event. */
async function catchUp(cp: ControlPlane, writer: LoadClient): Promise<number> {
  const proxy = await TcpProxy.start(cp.port);
  const rest = informerClient(cp, proxy.url);
  const factory = new SharedInformerFactory(new Clientset(rest), newSharedInformerFactoryCore({ namespace: 'burst' }));
  try {
    const informer = factory.wardle().v1alpha1().flunders().informer();
    let events = 0;
    let first = 0;
    let last = 0;
    const done = new Promise<void>((resolve) => {
      informer.addEventHandler({
        onAdd: () => {
          last = performance.now();
          if (events++ === 0) first = last;
          if (events === sizes.burst) resolve();
        },
      });
    });
    factory.start();
    await factory.waitForCacheSync();
    await proxy.pause();
    await throughput(sizes.burst, CONCURRENCY, (i) => writer.expect(201, 'POST', coll('burst'), flunderV1alpha1.manifest(pad(i), 'burst')));
    await proxy.resume();
    await done;
    return (sizes.burst - 1) / ((last - first) / 1000);
  } finally {
    await factory.shutdown();
    rest.close();
    await proxy.close();
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const f0 = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');

async function bench(backend: Backend): Promise<string[]> {
  const cp = await ControlPlane.start({ backend });
  const writer = new LoadClient(cp.credentials, CONCURRENCY);
  try {
    for (const ns of ['sync', 'steady', 'burst']) await writer.expect(201, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const fill = await throughput(sizes.objects, CONCURRENCY, (i) => writer.expect(201, 'POST', coll('sync'), flunderV1alpha1.manifest(pad(i), 'sync')));
    const runs: SyncRun[] = [];
    for (let r = 0; r < sizes.syncRuns; r++) runs.push(await syncRun(cp));
    const steady = await steadyState(cp, writer);
    const burst = await catchUp(cp, writer);
    const synced = runs.map((r) => r.syncedMs);
    const med = median(synced);
    const pass = med < SYNC_TARGET_MS;
    const lines = [
      `## ${backend} (server ready in ${cp.readyMs} ms; ${sizes.objects} objects created at ${f0(fill.perSecond)}/s)`,
      `initial sync of ${sizes.objects} objects, start → synced: median ${f0(med)} ms, first ${f0(synced[0] ?? NaN)} ms, ` +
        `min ${f0(Math.min(...synced))} ms, max ${f0(Math.max(...synced))} ms (${runs.length} runs)` +
        (backend === 'sqlite' ? `  target < ${SYNC_TARGET_MS} ms: ${pass ? 'PASS' : 'FAIL'}` : ''),
      `  start → handler saw every initial add: median ${f0(median(runs.map((r) => r.handledMs)))} ms`,
      `steady state: ${steady.writes} writes (creates then merge patches) at ${f0(steady.writesPerSecond)}/s; ` +
        `${f0(steady.eventsPerSecond)} events/s delivered to the handler; last event ${f0(steady.lagMs)} ms from the last write's answer`,
      `catch-up: ${sizes.burst} events replayed after a cut-off, ${f0(burst)} events/s from the first to the last`,
      '',
    ];
    return lines;
  } finally {
    await writer.close();
    await cp.stop();
  }
}

async function main(): Promise<void> {
  const out = [
    `Informer benchmark${quick ? ' (BENCH_QUICK)' : ''}: ${cpus().length} vCPU, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    `sizes: ${JSON.stringify(sizes)}; informer = generated SharedInformerFactory over the HTTP REST client; server = runtime/controlplane/serve.ts subprocess`,
    '',
  ];
  for (const backend of ['sqlite', 'etcd3'] as const) out.push(...(await bench(backend)));
  console.log(out.join('\n'));
}

runBench(main);
