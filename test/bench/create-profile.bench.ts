// Where the server's CPU goes in a create (issue 17, "Performance goals"): the control plane
// command on SQLite as one process, run with node's --cpu-prof, under the HTTP bench's create load
// (64 keep-alive HTTPS clients through undici) for three kinds in turn: Flunder (built-in),
// ConfigMap (core) and CronTab (custom resource of apis/crds/). The profile's samples are cut to
// each kind's load window (V8's sample timestamps and this process's hrtime are both
// CLOCK_MONOTONIC on Linux), and self time is grouped by area (the file or node built-in a
// function comes from; a native function such as JSON.parse is charged to the area of its
// nearest caller that has a file), in CPU ms per create.
// After each kind's creates, the same number of GETs by name (resourceVersion "": on etcd one
// range each) is profiled the same way, in CPU ms per get.
// BENCH_BACKEND=etcd3 profiles the server on a private etcd (test/storage/etcdServer.ts) instead,
// and splits the etcd client's self time by layer (our runtime/storage/etcd3, the etcd3 package,
// cockatiel, @grpc/grpc-js, protobufjs, node's http2 under gRPC).
// BENCH_WORKERS=auto runs the server with --workers auto: every worker writes its own profile
// (cluster workers inherit --cpu-prof), the areas are the sums over all of them and the server
// CPU is the whole process tree's, so the table shows what a second worker adds to a create.
// The server runs as `npm start` runs it, from the bundle (hack/start.mjs); its frames are mapped
// back to their sources through the bundle's source maps (lib/cpuprofile.ts resolveBundledFrames).
// BENCH_FROM=source runs it from the sources through tsx instead, whose keepNames helper (`__name`)
// then costs every closure made at run time a call.
// BENCH_QUICK=1 shrinks the load; BENCH_PROFILE_KEEP=<dir> keeps the .cpuprofile files there,
// with windows.json: each load window (verb, kind, from, to) on the profiles' clock.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readCredentials } from '../integration/harness.js';
import { flunderV1beta1 } from '../integration/objects.js';
import { LoadClient } from './lib/load.js';
import { processCpuMs, processTree, runBench } from './lib/process.js';
import { pad, throughput } from '../storage/bench/stats.js';
import { cronTabKind, type BenchKind } from './lib/kinds.js';
import { resolveBundledFrames, selfTimeByArea, type AreaRule, type Profile } from './lib/cpuprofile.js';
import { startEtcd, type EtcdCluster } from '../storage/etcdServer.js';

const quick = process.env['BENCH_QUICK'] === '1';
const CREATES = quick ? 1000 : 6000;
const CONCURRENCY = 64;
const repoRoot = new URL('../../', import.meta.url).pathname;
const backend = process.env['BENCH_BACKEND'] === 'etcd3' ? 'etcd3' : 'sqlite';
const workers = process.env['BENCH_WORKERS'] === 'auto' ? 'auto' : '1';
const fromSource = process.env['BENCH_FROM'] === 'source';

type Kind = BenchKind;

const kinds: Kind[] = [
  { title: 'Flunder (built-in)', collection: (ns) => `/apis/wardle.example.com/v1beta1/namespaces/${ns}/flunders`, manifest: (n, ns) => flunderV1beta1.manifest(n, ns) },
  {
    title: 'ConfigMap',
    collection: (ns) => `/api/v1/namespaces/${ns}/configmaps`,
    manifest: (name, ns) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: { app: 'bench' } }, data: { key: 'value', other: 'x'.repeat(64) } }),
  },
  cronTabKind,
];

/** The areas of the breakdown, in the order printed; the first rule a frame's file matches wins. */
const AREAS: AreaRule[] = [
  ['GC', (_u, f) => f === '(garbage collector)'],
  ['V8/native, no JS caller', (u, f) => u === '' && f.startsWith('(')],
  // The etcd client, by layer (the load's clients speak HTTP/1.1: node's http2 is gRPC's).
  ['etcd: runtime/storage/etcd3 (ours)', (u) => /runtime\/storage\/etcd3\//.test(u)],
  ['etcd: etcd3 package', (u) => /node_modules\/etcd3\//.test(u)],
  ['etcd: cockatiel', (u) => /node_modules\/cockatiel\//.test(u)],
  ['etcd: @grpc/grpc-js', (u) => /node_modules\/@grpc\/grpc-js\//.test(u)],
  ['etcd: protobufjs (+ proto-loader, long)', (u) => /node_modules\/(protobufjs|@protobufjs|@grpc\/proto-loader|long)\//.test(u)],
  ['etcd: node http2 (gRPC transport)', (u) => backend === 'etcd3' && /^node:internal\/http2\//.test(u)],
  [
    'TLS/HTTP (node, fastify)',
    (u) =>
      /^node:(_tls|tls|_http|http|https|http2|net|stream|buffer|events|internal\/(tls|http|stream|streams|net|js_stream|child_process|timers|process\/task_queues|async_hooks|event_target|abort))/.test(
        u,
      ) ||
      /node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify|fast-content-type-parse|content-type|toad-cache|process-warning|abstract-logging|pino|secure-json-parse|fast-json-stringify|fast-querystring)\//.test(
        u,
      ),
  ],
  ['server handler chain, filters (authn, authz, inflight, audit)', (u) => /runtime\/(server|endpoints\/filters|authentication|authorization)\//.test(u)],
  ['field manager (managedFields)', (u) => /runtime\/(apimachinery\/(managedfields|structuredmerge|fields)|endpoints\/(fieldmanager|handlers\/managedfields))/.test(u)],
  ['admission', (u) => /runtime\/admission\//.test(u)],
  [
    'validation, defaulting (schemas, CEL)',
    (u) => /runtime\/(apimachinery\/(validation|cel|schema)|apiextensions)\//.test(u) || /apis\/.*\/(validation|defaults)/.test(u) || /node_modules\/(cel-js|@bufbuild)/.test(u),
  ],
  ['decode, convert, encode (serializer, scheme)', (u) => /runtime\/apimachinery\/(serializer|scheme|object|definition)/.test(u) || /apis\/.*\/(conversion|zz_generated|types|register|codec)/.test(u)],
  ['SQLite (better-sqlite3, kv)', (u) => /runtime\/storage\/sqlite\//.test(u) || /node_modules\/better-sqlite3\//.test(u)],
  ['storage (store, watch cache, transformer)', (u) => /runtime\/storage\//.test(u)],
  ['registry (strategy, rest)', (u) => /runtime\/registry\//.test(u) || /apis\/.*\/(strategy|registry)/.test(u)],
  ['endpoint handlers (create, negotiation, response)', (u) => /runtime\/endpoints\//.test(u)],
  ['apimachinery, other', (u) => /runtime\/apimachinery\//.test(u)],
  ['apis (generated, other)', (u) => /\/apis\//.test(u)],
  ['node, other', (u) => u.startsWith('node:')],
  ['node_modules, other', (u) => u.includes('node_modules')],
];

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'create-profile-'));
  const profDir = process.env['BENCH_PROFILE_KEEP'] ?? join(dir, 'prof');
  mkdirSync(profDir, { recursive: true });
  const dataDir = join(dir, 'data');
  const etcd: EtcdCluster | undefined = backend === 'etcd3' ? await startEtcd() : undefined;
  const storageArgs = etcd ? ['--storage-backend', 'etcd3', '--etcd-servers', etcd.endpoints.join(','), '--etcd-prefix', '/create-profile'] : ['--storage-backend', 'sqlite'];
  const proc = spawn(
    process.execPath,
    [
      '--cpu-prof',
      '--cpu-prof-dir',
      profDir,
      ...(fromSource ? ['--conditions=source', '--import', 'tsx', join(repoRoot, 'runtime/controlplane/serve.ts')] : [join(repoRoot, 'hack/start.mjs')]),
      '--secure-port',
      '0',
      '--bind-address',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      ...storageArgs,
      ...(workers === 'auto' ? ['--workers', 'auto'] : []),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let log = '';
  proc.stdout.on('data', (d: Buffer) => (log += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const windows: { kind: Kind; from: number; to: number; cpuMs: number; perSecond: number }[] = [];
  const getWindows: typeof windows = [];
  try {
    const deadline = Date.now() + 120_000;
    while (!/ready in \d+ ms/.test(log)) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server not ready:\n${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const load = new LoadClient(readCredentials(join(dataDir, 'admin.kubeconfig')), CONCURRENCY);
    try {
      await load.expect(201, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'p' } }));
      const crd = parse(readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8')) as unknown;
      await load.expect(201, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd));
      for (const until = Date.now() + 30_000; ;) {
        try {
          await load.expect(200, 'GET', kinds[2]!.collection('p'));
          break;
        } catch (err) {
          if (Date.now() > until) throw err;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      // Every server process (the workers too); the set is fixed once the server is ready.
      const pids = processTree(proc.pid ?? 0);
      const serverCpuMs = (): number => pids.reduce((sum, p) => sum + processCpuMs(p), 0);
      for (const kind of kinds) {
        // warm-up: connections, TLS handshakes, per-kind caches and the JIT
        await throughput(CREATES / 4, CONCURRENCY, (i) => load.expect(201, 'POST', kind.collection('p'), JSON.stringify(kind.manifest(`w-${pad(i)}`, 'p'))));
        const cpu0 = serverCpuMs();
        const from = nowUs();
        const t = await throughput(CREATES, CONCURRENCY, (i) => load.expect(201, 'POST', kind.collection('p'), JSON.stringify(kind.manifest(pad(i), 'p'))));
        const to = nowUs();
        windows.push({ kind, from, to, cpuMs: serverCpuMs() - cpu0, perSecond: t.perSecond });
        // GETs by name of what was just created (resourceVersion "": a consistent read)
        const g0 = serverCpuMs();
        const gFrom = nowUs();
        const g = await throughput(CREATES, CONCURRENCY, (i) => load.expect(200, 'GET', `${kind.collection('p')}/${pad(i)}`));
        getWindows.push({ kind, from: gFrom, to: nowUs(), cpuMs: serverCpuMs() - g0, perSecond: g.perSecond });
      }
    } finally {
      await load.close();
    }
  } finally {
    proc.kill('SIGTERM');
    await once(proc, 'exit');
    await etcd?.close();
  }
  const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile written in ${profDir}:\n${log.slice(-4000)}`);
  const profiles = files.map((f) => resolveBundledFrames(JSON.parse(readFileSync(join(profDir, f), 'utf8')) as Profile));
  // One profile per process (a --workers primary and each worker): the areas summed over all.
  const byArea = (window: { from: number; to: number }): Map<string, number> => {
    const sum = new Map<string, number>();
    for (const p of profiles) for (const [area, ms] of selfTimeByArea(p, AREAS, { window })) sum.set(area, (sum.get(area) ?? 0) + ms);
    return sum;
  };
  const table = (ws: typeof windows, what: string): string[] => {
    const tables = ws.map((w) => ({ w, b: byArea(w) }));
    const areas = [...new Set(tables.flatMap(({ b }) => [...b.keys()]))].sort((a, b) => (tables[0]?.b.get(b) ?? 0) - (tables[0]?.b.get(a) ?? 0));
    const rows = [
      ...areas.map((a) => [a, ...tables.map(({ b }) => ((b.get(a) ?? 0) / CREATES).toFixed(3))]),
      ['sum of sampled self time', ...tables.map(({ b }) => ([...b.values()].reduce((x, y) => x + y, 0) / CREATES).toFixed(3))],
      ['server CPU (/proc, user+sys)', ...tables.map(({ w }) => (w.cpuMs / CREATES).toFixed(3))],
      [`${what}s/s (profiler on)`, ...tables.map(({ w }) => w.perSecond.toFixed(0))],
    ];
    const head = [`CPU ms per ${what}, by area`, ...kinds.map((k) => k.title)];
    const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
    const line = (r: string[]): string =>
      r
        .map((x, i) => (i === 0 ? x.padEnd(widths[i] ?? 0) : x.padStart(widths[i] ?? 0)))
        .join('  ')
        .trimEnd();
    return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  };
  console.log(
    [
      `Create profile${quick ? ' (BENCH_QUICK)' : ''}: ${cpus().length} vCPU, Node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )}; ${backend === 'etcd3' ? 'etcd (a private etcd, one member)' : 'SQLite'}, ${workers === 'auto' ? `--workers auto (${profiles.length} profiles)` : 'one process'}, ${fromSource ? 'from source (tsx)' : 'from the bundle'}, --cpu-prof; ${CREATES} creates and ${CREATES} gets per kind, ${CONCURRENCY} clients`,
      ...table(windows, 'create'),
      '',
      ...table(getWindows, 'get'),
    ].join('\n'),
  );
  if (process.env['BENCH_PROFILE_KEEP'] === undefined) rmSync(dir, { recursive: true, force: true });
  else {
    rmSync(dataDir, { recursive: true, force: true });
    // the load windows on the profiles' clock, for reading a kept profile by verb and kind
    const described = (ws: typeof windows, verb: string): object[] => ws.map((w) => ({ verb, kind: w.kind.title, from: w.from, to: w.to }));
    writeFileSync(join(profDir, 'windows.json'), `${JSON.stringify([...described(windows, 'create'), ...described(getWindows, 'get')], null, 2)}\n`);
  }
}

runBench(main);
