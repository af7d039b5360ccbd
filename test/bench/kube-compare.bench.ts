// Side by side with an upstream API server (issue 17): the CronTab custom resources of
// apis/crds/ served by this control plane (on etcd and on SQLite, as one process and with
// --workers auto) and by an upstream server that
// serves CRDs from etcd, in one run on one machine, each on a fresh etcd 3.4 of its own, through
// the same client (undici, 64 keep-alive HTTPS connections, the same client certificate):
// creates, gets and JSON merge patches per second with p50/p99 and the server's CPU per request,
// and the median time of a consistent list of 1,000 CronTabs. The targets are the issue's: on
// etcd, creates ≥ 1.0× and gets ≥ 2× upstream; on SQLite, creates and gets ≥ 3× upstream on etcd.
//
// BENCH_KUBE_APISERVER names the upstream binary; nothing here builds one (none can be fetched
// on these machines: see test/bench/README.md for how the one measured was made). It must take
// k8s.io/apiextensions-apiserver's flags: its standalone server, which is the code kube-apiserver
// embeds to serve custom resources, with delegated authentication and authorization. Its
// delegation core (authorization webhooks, the namespaces of NamespaceLifecycle) is a control
// plane of ours on SQLite, idle while it is measured; the admin client certificate
// (system:masters) is authorized without a webhook call. Priority and fairness is off (it needs
// FlowSchemas from a kube-apiserver), so upstream limits in-flight requests as ours does
// (400 reads, 200 writes). BENCH_KUBE_ARGS adds flags, space-separated. BENCH_ROUNDS sets the
// number of rounds (2).
// Without BENCH_KUBE_APISERVER the bench says so and passes. BENCH_QUICK=1 shrinks every size.
import { cpus, loadavg, totalmem } from 'node:os';
import { ControlPlane } from '../integration/harness.js';
import { CONCURRENCY, meanFigures, measureCronTabs, ours, workloadSizes, type Figures, type PerVerb } from './lib/crontab-workload.js';
import { LoadClient } from './lib/load.js';
import { runBench } from './lib/process.js';
import { upstream } from './lib/upstream.js';
import type { Throughput } from '../storage/bench/stats.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const quick = process.env['BENCH_QUICK'] === '1';
const sizes = workloadSizes;

/** A server measured: upstream, or ours on a backend as one process or --workers auto. */
interface Target {
  label: string;
  ours?: { backend: 'sqlite' | 'etcd3'; workers: '1' | 'auto' };
}

const TARGETS: readonly Target[] = [
  { label: 'upstream, etcd' },
  { label: 'ours, etcd', ours: { backend: 'etcd3', workers: '1' } },
  { label: 'ours, etcd, auto', ours: { backend: 'etcd3', workers: 'auto' } },
  { label: 'ours, SQLite', ours: { backend: 'sqlite', workers: '1' } },
  { label: 'ours, SQLite, auto', ours: { backend: 'sqlite', workers: 'auto' } },
];

const f0 = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const f2 = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');

/**
 * One column per target, then per backend the best of ours against upstream with the issue's
 * target ("with the best --workers for the machine"): on etcd creates ≥ 1× and gets ≥ 2×, on
 * SQLite creates and gets ≥ 3× upstream on etcd.
 */
function report(fig: ReadonlyMap<Target, Figures>): string[] {
  const kube = fig.get(TARGETS[0]!)!;
  const best = (backend: 'etcd3' | 'sqlite', pick: (f: Figures) => number, workers?: '1' | 'auto'): number =>
    Math.max(...TARGETS.filter((t) => t.ours?.backend === backend && (workers === undefined || t.ours.workers === workers)).map((t) => pick(fig.get(t)!)));
  const verdict = (backend: 'etcd3' | 'sqlite', pick: (f: Figures) => number, want: number | undefined, workers?: '1' | 'auto'): string[] => {
    const r = best(backend, pick, workers) / pick(kube);
    return [`${r.toFixed(2)}×`, want === undefined ? '' : `≥ ${want}×: ${r >= want ? 'PASS' : 'FAIL'}`];
  };
  const each = (cell: (f: Figures) => string): string[] => TARGETS.map((t) => cell(fig.get(t)!));
  const lat =
    (pick: (f: Figures) => Throughput) =>
    (f: Figures): string =>
      `${f1(pick(f).p50)} / ${f1(pick(f).p99)}`;
  const rate = (pick: (f: Figures) => number, wantEtcd?: number, wantSqlite?: number): string[] => [
    ...each((f) => f0(pick(f))),
    ...verdict('etcd3', pick, wantEtcd),
    ...verdict('sqlite', pick, wantSqlite),
  ];
  const blank = ['', '', '', ''];
  // What each server and its store spend per request, the client's CPU apart. A server that uses
  // every core (upstream's Go, ours with --workers auto) and has the cores to itself is bounded
  // by this, so the ratio, against ours with `auto` only, is the capacity each would have without
  // the client on the same two cores. One process of ours is bounded by one core instead.
  const perRequest = (verb: keyof PerVerb) => (f: Figures) => 1 / (f.cpu[verb] + f.storeCpu[verb]);
  const cpuRows = (verb: keyof PerVerb, wantEtcd: number | undefined, wantSqlite: number | undefined): string[][] => [
    [`  etcd CPU ms per ${verb}`, ...each((f) => f2(f.storeCpu[verb])), ...blank],
    [
      `  server + etcd CPU ms per ${verb} (capacity, auto)`,
      ...each((f) => f2(f.cpu[verb] + f.storeCpu[verb])),
      ...verdict('etcd3', perRequest(verb), wantEtcd, 'auto'),
      ...verdict('sqlite', perRequest(verb), wantSqlite, 'auto'),
    ],
    [`  client CPU ms per ${verb}`, ...each((f) => f2(f.clientCpu[verb])), ...blank],
  ];
  const rows: string[][] = [
    ['creates/s', ...rate((f) => f.creates.perSecond, 1, 3)],
    ['  p50 / p99 ms', ...each(lat((f) => f.creates)), ...blank],
    ['  server CPU ms per create', ...each((f) => f2(f.cpu.create)), ...blank],
    ...cpuRows('create', 1, 3),
    ['gets/s', ...rate((f) => f.gets.perSecond, 2, 3)],
    ['  p50 / p99 ms', ...each(lat((f) => f.gets)), ...blank],
    ['  server CPU ms per get', ...each((f) => f2(f.cpu.get)), ...blank],
    ...cpuRows('get', 2, 3),
    ['merge patches/s', ...rate((f) => f.patches.perSecond)],
    ['  p50 / p99 ms', ...each(lat((f) => f.patches)), ...blank],
    ['  server CPU ms per patch', ...each((f) => f2(f.cpu.patch)), ...blank],
    ...cpuRows('patch', undefined, undefined),
    // A list: upstream's time over ours (higher is faster for ours).
    [
      `consistent list of ${sizes.list.toLocaleString('en-US')}, median ms`,
      ...each((f) => f1(f.listMs)),
      ...verdict('etcd3', (f) => 1 / f.listMs, undefined),
      ...verdict('sqlite', (f) => 1 / f.listMs, undefined),
    ],
  ];
  const head = ['figure', ...TARGETS.map((t) => t.label), 'best etcd/upstream', 'target', 'best SQLite/upstream', 'target'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]): string =>
    r
      .map((x, i) => x.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    "(CPU: every process of the server, a --workers primary with its workers; etcd: its members; a capacity ratio is upstream's server + etcd CPU per request over ours with --workers auto; a list ratio is upstream time over ours)",
  ];
}

async function main(): Promise<void> {
  const bin = process.env['BENCH_KUBE_APISERVER'];
  if (bin === undefined || bin === '') {
    console.log('kube-compare: skipped, BENCH_KUBE_APISERVER is not set (the path of an upstream apiextensions-apiserver; see test/bench/README.md)');
    return;
  }
  const loadAt = (): string =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const out = [
    `Side by side with ${bin}${quick ? ' (BENCH_QUICK)' : ''}: ${cpus().length} vCPU, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadAt()} at start`,
    `sizes: ${JSON.stringify(sizes)}, ${CONCURRENCY} keep-alive HTTPS connections (undici), ${ROUNDS} rounds, the targets taking turns; each server on a fresh etcd 3.4 of its own (ours on SQLite: none)`,
  ];
  // The upstream server's delegation core, idle throughout.
  const core = await ControlPlane.start({ backend: 'sqlite' });
  const runs = new Map<Target, Figures[]>(TARGETS.map((t) => [t, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of round % 2 === 0 ? TARGETS : [...TARGETS].reverse()) {
        const subject = target.ours ? await ours(target.ours.backend, target.ours.workers) : await upstream(bin, core);
        try {
          if (!target.ours && round === 0) {
            const probe = new LoadClient(subject.credentials, 1);
            out.push(`upstream /version: ${(await probe.get('/version')).text.replace(/\s+/g, ' ')}`);
            await probe.close();
          }
          runs.get(target)!.push(await measureCronTabs(subject, round));
        } finally {
          await subject.stop();
        }
      }
    }
  } finally {
    await core.stop();
  }
  const figures = new Map([...runs].map(([t, f]) => [t, meanFigures(f)]));
  out.push('', ...report(figures), '', `load average ${loadAt()} at the end`);
  console.log(out.join('\n'));
}

runBench(main);
