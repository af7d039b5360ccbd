// The CronTab workload of the side-by-side benches (kube-compare, ab): the CronTab CRD of
// apis/crds/ created on a server, then through one client (undici, 64 keep-alive HTTPS
// connections) warm-up creates, gets and patches, then measured creates, consistent gets by
// name, JSON merge patches of a label, and consistent lists of 1,000 CronTabs, each with
// requests/s, p50/p99 and the server's CPU per request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ControlPlane, repoRoot, type Credentials } from '../../integration/harness.js';
import { medianMs, pad, throughput, type Throughput } from '../../storage/bench/stats.js';
import { cronTabKind } from './kinds.js';
import { LoadClient } from './load.js';
import { withCpu } from './process.js';
import type { EtcdCluster } from '../../storage/etcdServer.js';

export interface WorkloadSizes {
  warm: number;
  creates: number;
  gets: number;
  patches: number;
  list: number;
  listIterations: number;
}

/** BENCH_QUICK=1 shrinks every size. */
export const workloadSizes: WorkloadSizes =
  process.env['BENCH_QUICK'] === '1'
    ? { warm: 1000, creates: 1000, gets: 4000, patches: 1000, list: 1000, listIterations: 5 }
    : { warm: 2000, creates: 5000, gets: 20_000, patches: 5000, list: 1000, listIterations: 10 };

export const CONCURRENCY = 64;
const NS = 'bench';

export interface PerVerb {
  create: number;
  get: number;
  patch: number;
}

export interface Figures {
  creates: Throughput;
  gets: Throughput;
  patches: Throughput;
  /** Server CPU ms per request (/proc/<pid>/stat of the server and every process below it). */
  cpu: PerVerb;
  /** CPU ms per request of the server's etcd members (zero on SQLite, which is in the server). */
  storeCpu: PerVerb;
  /** CPU ms per request of the client (this process). */
  clientCpu: PerVerb;
  listMs: number;
}

/** A server under test: where to reach it, which process to charge, and how to stop it. */
export interface Subject {
  credentials: Credentials;
  pid: number;
  /** The processes of its store (etcd members), charged apart from the server; none on SQLite. */
  storePids: readonly number[];
  /** Makes namespace `ns` exist where the server looks for it. */
  namespace(ns: string): Promise<void>;
  stop(): Promise<void>;
}

const crd = parse(readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8')) as unknown;

export async function postNamespace(load: LoadClient, ns: string): Promise<void> {
  await load.expect(201, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
}

/**
 * Our control plane on `backend`, as one process or `--workers auto`, from this checkout or the
 * one at `root` (another commit, for a before-and-after), run as `npm start` runs it: from the
 * bundle. From source through tsx, every function made at run time also pays esbuild's keepNames
 * helper (about 3 % of a create's CPU in a profile).
 */
export async function ours(backend: 'sqlite' | 'etcd3', workers: '1' | 'auto', root?: string): Promise<Subject> {
  const cp = await ControlPlane.start({ backend, bundled: true, extraArgs: workers === 'auto' ? ['--workers', 'auto'] : [], ...(root !== undefined ? { root } : {}) });
  const load = new LoadClient(cp.credentials, 1);
  return {
    credentials: cp.credentials,
    pid: cp.pid,
    storePids: etcdPids(cp.etcd),
    namespace: (ns) => postNamespace(load, ns),
    stop: async () => {
      await load.close();
      await cp.stop();
    },
  };
}

/** The pids of an etcd cluster's running members (none without one). */
export function etcdPids(etcd: EtcdCluster | undefined): number[] {
  return (etcd?.members ?? []).flatMap((m) => (m.pid === undefined ? [] : [m.pid]));
}

async function establishCronTabs(load: LoadClient): Promise<void> {
  await load.expect(201, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await load.expect(200, 'GET', cronTabKind.collection(NS));
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** One subject's figures: CRD established, warmed, then each verb with 64 clients. */
export async function measureCronTabs(subject: Subject, round: number, sizes: WorkloadSizes = workloadSizes): Promise<Figures> {
  const load = new LoadClient(subject.credentials, CONCURRENCY);
  const coll = (ns: string): string => cronTabKind.collection(ns);
  const body = (name: string, ns: string): string => JSON.stringify(cronTabKind.manifest(name, ns));
  try {
    for (const ns of [NS, 'warm', 'list']) await subject.namespace(ns);
    await establishCronTabs(load);
    // Connections opened, caches filled and (ours) V8's optimizing tiers reached before anything
    // is measured: a cold Node server spends about twice the CPU on its first thousand creates.
    await throughput(sizes.warm, CONCURRENCY, (i) => load.expect(201, 'POST', coll('warm'), body(`warm-${pad(i)}`, 'warm')));
    await throughput(sizes.warm, CONCURRENCY, (i) => load.expect(200, 'GET', `${coll('warm')}/warm-${pad(i)}`));
    await throughput(sizes.warm, CONCURRENCY, (i) =>
      load.expect(200, 'PATCH', `${coll('warm')}/warm-${pad(i)}`, JSON.stringify({ metadata: { labels: { warm: '1' } } }), 'application/merge-patch+json'),
    );
    const name = (i: number): string => `r${round}-${pad(i)}`;
    const [creates, create] = await withCpu(subject.pid, sizes.creates, () => throughput(sizes.creates, CONCURRENCY, (i) => load.expect(201, 'POST', coll(NS), body(name(i), NS))), subject.storePids);
    const [gets, get] = await withCpu(subject.pid, sizes.gets, () => throughput(sizes.gets, CONCURRENCY, (i) => load.expect(200, 'GET', `${coll(NS)}/${name(i % sizes.creates)}`)), subject.storePids);
    const [patches, patch] = await withCpu(
      subject.pid,
      sizes.patches,
      () =>
        throughput(sizes.patches, CONCURRENCY, (i) =>
          load.expect(200, 'PATCH', `${coll(NS)}/${name(i % sizes.creates)}`, JSON.stringify({ metadata: { labels: { patched: String(i) } } }), 'application/merge-patch+json'),
        ),
      subject.storePids,
    );
    await throughput(sizes.list, CONCURRENCY, (i) => load.expect(201, 'POST', coll('list'), body(pad(i), 'list')));
    const listMs = await medianMs(sizes.listIterations, () => load.expect(200, 'GET', coll('list')));
    const perVerb = (pick: (c: typeof create) => number): PerVerb => ({ create: pick(create), get: pick(get), patch: pick(patch) });
    return { creates, gets, patches, cpu: perVerb((c) => c.server), storeCpu: perVerb((c) => c.store), clientCpu: perVerb((c) => c.client), listMs };
  } finally {
    await load.close();
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

const meanVerbs = (xs: readonly PerVerb[]): PerVerb => ({ create: mean(xs.map((x) => x.create)), get: mean(xs.map((x) => x.get)), patch: mean(xs.map((x) => x.patch)) });

/** The mean of several rounds' figures. */
export function meanFigures(runs: readonly Figures[]): Figures {
  const tp = (pick: (f: Figures) => Throughput): Throughput => ({
    n: runs.reduce((sum, f) => sum + pick(f).n, 0),
    seconds: runs.reduce((sum, f) => sum + pick(f).seconds, 0),
    perSecond: mean(runs.map((f) => pick(f).perSecond)),
    p50: mean(runs.map((f) => pick(f).p50)),
    p99: mean(runs.map((f) => pick(f).p99)),
  });
  return {
    creates: tp((f) => f.creates),
    gets: tp((f) => f.gets),
    patches: tp((f) => f.patches),
    cpu: meanVerbs(runs.map((f) => f.cpu)),
    storeCpu: meanVerbs(runs.map((f) => f.storeCpu)),
    clientCpu: meanVerbs(runs.map((f) => f.clientCpu)),
    listMs: mean(runs.map((f) => f.listMs)),
  };
}
