// The etcd client path on its own (issue 17, "Performance goals"): what a create and a get cost
// this process in CPU on etcd, without HTTP. A private etcd (test/storage/etcdServer.ts), then
// EtcdKV (runtime/storage/etcd3) as the store uses it: creates are optimisticPut of a new key
// (one txn), gets are get of one key (one range), 64 at a time. Beside it the leanest path the
// etcd3 package offers: its generated KV service client on one member's gRPC client, the same
// request objects, no policies, no call-options resolution. Each case reports CPU ms per call of
// this process (process.cpuUsage, user+sys) and, from an in-process V8 CPU profile, the self time
// per call grouped by layer (etcd3 package, cockatiel, @grpc/grpc-js, protobufjs, our
// runtime/storage/etcd3, node internals, GC). CPU per call is the figure to compare: the machine
// is shared, throughput is not.
// BENCH_QUICK=1 shrinks the sizes; BENCH_ONLY=<text> runs the cases whose title has it (e.g. EtcdKV);
// BENCH_TOP=<n> lists the n heaviest functions of each case;
// BENCH_PROFILE_KEEP=<dir> writes each measured run's .cpuprofile there.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { createRequire } from 'node:module';
import type { Etcd3 } from 'etcd3';
import { newEtcdClient } from '../../runtime/storage/etcd3/client.js';
import { EtcdKV } from '../../runtime/storage/etcd3/kv.js';
import { runBench } from './lib/process.js';
import { selfTimeByArea, type AreaRule, type Profile } from './lib/cpuprofile.js';
import { pad } from '../storage/bench/stats.js';
import { startEtcd } from '../storage/etcdServer.js';

const quick = process.env['BENCH_QUICK'] === '1';
const N = quick ? 2000 : 20000;
const CONCURRENCY = 64;
const RUNS = 2;

/** A stored object of the size the HTTP bench writes (a Flunder: ~400 bytes of JSON). */
const value = Buffer.from(
  JSON.stringify({
    apiVersion: 'wardle.example.com/v1beta1',
    kind: 'Flunder',
    metadata: { name: 'x', namespace: 'c', uid: '6f1c3b1e-0000-4000-8000-000000000000', labels: { app: 'bench' } },
    spec: { reference: 'x'.repeat(200) },
  }),
);

const LAYERS: AreaRule[] = [
  ['GC', (_u, f) => f === '(garbage collector)'],
  ['runtime/storage/etcd3 (ours)', (u) => /runtime\/storage\/etcd3\//.test(u)],
  ['etcd3 package', (u) => /node_modules\/etcd3\//.test(u)],
  ['cockatiel', (u) => /node_modules\/cockatiel\//.test(u)],
  ['@grpc/grpc-js', (u) => /node_modules\/@grpc\/grpc-js\//.test(u)],
  ['protobufjs (+ @grpc/proto-loader, long)', (u) => /node_modules\/(protobufjs|@protobufjs|@grpc\/proto-loader|long)\//.test(u)],
  ['node: http2, net, streams', (u) => /^node:(internal\/)?(http2|net|stream|streams|_stream|buffer)/.test(u)],
  ['node: timers, promises, events, other', (u) => u.startsWith('node:')],
  ['bench, other JS', (u) => u !== ''],
];

/** The heaviest functions by self ms (BENCH_TOP=<n>), as "layer: function url:line". */
function topFunctions(p: Profile, n: number): [string, number][] {
  const nodes = new Map(p.nodes.map((x) => [x.id, x]));
  const self = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const f = nodes.get(p.samples[i]!)?.callFrame as { functionName: string; url: string; lineNumber?: number } | undefined;
    if (!f || f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/main\//, '')}:${(f.lineNumber ?? 0) + 1}`;
    self.set(name, (self.get(name) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, n);
}

async function pool(n: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

interface Case {
  title: string;
  run: (round: number) => (i: number) => Promise<unknown>;
}

const TOP = Number(process.env['BENCH_TOP'] ?? 0);

async function measure(session: Session, c: Case, round: number): Promise<{ cpuMs: number; perSecond: number; layers: Map<string, number>; top: [string, number][] }> {
  await pool(N / 10, c.run(round * 2)); // warm-up: JIT, connections
  await session.post('Profiler.start');
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  await pool(N, c.run(round * 2 + 1));
  const wallMs = performance.now() - w0;
  const t = process.cpuUsage(t0);
  const { profile } = await session.post('Profiler.stop');
  if (process.env['BENCH_PROFILE_KEEP']) writeFileSync(join(process.env['BENCH_PROFILE_KEEP'], `${c.title.replace(/[^a-z]+/gi, '-')}-${round}.cpuprofile`), JSON.stringify(profile));
  return {
    cpuMs: (t.user + t.system) / 1000 / N,
    perSecond: (N * 1000) / wallMs,
    layers: selfTimeByArea(profile as unknown as Profile, LAYERS, { idle: ['(idle)', '(program)'] }),
    top: topFunctions(profile as unknown as Profile, TOP),
  };
}

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const client: Etcd3 = newEtcdClient({ endpoints: etcd.endpoints });
  const kv = new EtcdKV(client);
  // The lean path: etcd3's generated KV service on the pool's one host, called with grpc-js directly.
  const raw = newEtcdClient({ endpoints: etcd.endpoints }) as unknown as {
    pool: { hosts: { getServiceClient(name: string): Record<string, (req: unknown, md: unknown, opts: unknown, cb: (e: Error | null, r: unknown) => void) => void> }[] };
  };
  const grpcKV = raw.pool.hosts[0]!.getServiceClient('KV');
  const { Metadata } = createRequire(import.meta.url)('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
  const unary = (method: string, req: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => grpcKV[method]!(req, new Metadata(), { deadline: Date.now() + 10_000 }, (e, r) => (e ? reject(e) : resolve(r))));
  const key = (tag: string, i: number): string => `/bench-client/${tag}/${pad(i)}`;
  const cases: Case[] = [
    {
      title: 'create: EtcdKV.optimisticPut (txn)',
      run: (r) => async (i) => {
        if (!(await kv.optimisticPut(key(`kv${r}`, i), value, 0)).succeeded) throw new Error(`create ${key(`kv${r}`, i)}: exists`);
      },
    },
    {
      title: 'get: EtcdKV.get (range of one key)',
      run: () => async (i) => {
        if (!(await kv.get(key('kv1', i))).kv) throw new Error(`get ${key('kv1', i)}: not found`);
      },
    },
    {
      title: 'create: bare grpc-js KV.Txn (lean path)',
      run: (r) => (i) => {
        const k = Buffer.from(key(`raw${r}`, i));
        return unary('txn', { compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: 0 }], success: [{ request_put: { key: k, value } }], failure: [{ request_range: { key: k } }] });
      },
    },
    {
      title: 'get: bare grpc-js KV.Range (lean path)',
      run: () => async (i) => {
        if (((await unary('range', { key: Buffer.from(key('raw1', i)) })) as { kvs: unknown[] }).kvs.length !== 1) throw new Error(`range ${key('raw1', i)}: not found`);
      },
    },
  ];
  const only = process.env['BENCH_ONLY'];
  const selected = only ? cases.filter((c) => c.title.includes(only)) : cases;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  const out: string[] = [
    `etcd client path: ${cpus().length} vCPU, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${N} calls per case, ${CONCURRENCY} at a time, ${RUNS} runs; CPU ms per call of this process (etcd is another process)`,
  ];
  try {
    for (const c of selected) {
      const runs: Awaited<ReturnType<typeof measure>>[] = [];
      for (let r = 0; r < RUNS; r++) runs.push(await measure(session, c, r));
      const layers = [...new Set(runs.flatMap((x) => [...x.layers.keys()]))].sort((a, b) => (runs[0]!.layers.get(b) ?? 0) - (runs[0]!.layers.get(a) ?? 0));
      out.push('', `${c.title}: ${runs.map((x) => x.cpuMs.toFixed(3)).join(' / ')} ms CPU per call (process.cpuUsage); ${runs.map((x) => x.perSecond.toFixed(0)).join(' / ')} calls/s`);
      for (const l of layers) out.push(`  ${l.padEnd(42)} ${runs.map((x) => ((x.layers.get(l) ?? 0) / N).toFixed(3)).join(' / ')}`);
      out.push(`  ${'sum of sampled self time'.padEnd(42)} ${runs.map((x) => ([...x.layers.values()].reduce((a, b) => a + b, 0) / N).toFixed(3)).join(' / ')}`);
      for (const [f, ms] of runs[RUNS - 1]!.top) out.push(`    ${(ms / N).toFixed(4)}  ${f}`);
    }
  } finally {
    session.disconnect();
    await kv.close();
    (raw as unknown as Etcd3).close();
    await etcd.close();
  }
  console.log(out.join('\n'));
}

runBench(main);
