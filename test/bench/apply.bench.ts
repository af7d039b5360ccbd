// What server-side apply costs (issue 15's targets: an apply costs no more than 2× a merge patch of
// the same object on both backends; managedFields add no more than 30 % to the stored size of a
// typical object). For each backend the control plane command runs as users run it (a subprocess,
// on SQLite, then on a private etcd), and a typical ConfigMap (two labels, an annotation, eight
// data keys) is written over and over by 16 keep-alive HTTPS connections (undici):
// - merge patch: `{"data":{"counter":"<n>"}}` as application/merge-patch+json (the field manager
//   records the Update, as for every write);
// - apply: the whole object with data.counter = n as application/apply-patch+yaml (JSON body, as
//   kubectl and client-go send it), always by the same manager.
// Each op goes to one of 64 objects in turn (no hot key). Rounds alternate between the two kinds of
// write so that a change of machine load hits both; per round: ops/s and the server's CPU per op
// (/proc/<pid>/stat). The stored size is the object's compact JSON (what the registry stores, the
// identity transformer in front) with and without metadata.managedFields, for a few object shapes
// applied by "kubectl", then after a label added by merge patch as "kubectl-edit" (a second
// entry). BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- apply
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ControlPlane, etcdUnavailable, type Backend } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { LoadClient } from './lib/load.js';
import { runBench, withCpu } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const OPS = quick ? 600 : 1500;
const ROUNDS = quick ? 2 : 4;
const CONNECTIONS = 16;
const OBJECTS = 64;
const NS = 'bench';
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

type Obj = Record<string, unknown>;

/** A typical ConfigMap: a couple of labels, an annotation, eight settings. */
function configMap(name: string, counter: number): Obj {
  const data: Record<string, string> = { counter: String(counter) };
  for (let i = 0; i < 8; i++) data[`setting-${i}`] = `value-${i}-${'x'.repeat(24)}`;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: NS, labels: { app: 'bench', tier: 'backend' }, annotations: { 'example.com/owner': 'team-a' } },
    data,
  };
}

/** Runs `fns` with at most `n` in flight. */
async function pooled(n: number, count: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

interface Kind {
  readonly title: string;
  readonly prefix: string;
  create(c: LoadClient, name: string): Promise<void>;
  write(c: LoadClient, name: string, n: number): Promise<void>;
}

const merge: Kind = {
  title: 'merge patch',
  prefix: 'merge',
  create: (c, name) => c.expect(201, 'POST', `${COLLECTION}?fieldManager=bench-create`, configMap(name, 0)),
  write: (c, name, n) => c.expect(200, 'PATCH', `${COLLECTION}/${name}?fieldManager=bench-merge`, { data: { counter: String(n) } }, MERGE),
};

const apply: Kind = {
  title: 'apply',
  prefix: 'apply',
  create: (c, name) => c.expect(201, 'PATCH', `${COLLECTION}/${name}?fieldManager=bench-apply`, configMap(name, 0), APPLY),
  write: (c, name, n) => c.expect(200, 'PATCH', `${COLLECTION}/${name}?fieldManager=bench-apply`, configMap(name, n), APPLY),
};

interface Round {
  opsPerSecond: number;
  cpuUs: number;
}

async function round(cp: ControlPlane, c: LoadClient, k: Kind, base: number): Promise<Round> {
  const t0 = performance.now();
  const [, cpu] = await withCpu(cp.pid, OPS, () => pooled(CONNECTIONS, OPS, (i) => k.write(c, `${k.prefix}-${i % OBJECTS}`, base + i)));
  return { opsPerSecond: OPS / ((performance.now() - t0) / 1000), cpuUs: cpu.server * 1000 };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Bytes of the object as stored (compact JSON, runtime/storage/versioner.ts), and without its managedFields. */
async function sizes(h: HttpsClient, path: string): Promise<{ with: number; without: number; entries: number }> {
  const { status, body } = await h.json('GET', path);
  if (status !== 200) throw new Error(`GET ${path}: ${status}`);
  const meta = body['metadata'] as Obj;
  const entries = Array.isArray(meta['managedFields']) ? meta['managedFields'].length : 0;
  // Stored as the storage versioner encodes it: without resourceVersion.
  const { resourceVersion: _rv, ...stored } = meta;
  const { managedFields: _mf, ...rest } = stored;
  return { with: Buffer.byteLength(JSON.stringify({ ...body, metadata: stored })), without: Buffer.byteLength(JSON.stringify({ ...body, metadata: rest })), entries };
}

/** An object shape whose stored size is measured: applied by "kubectl", then a label added by merge patch as "kubectl-edit". */
interface Shape {
  readonly title: string;
  readonly collection: string;
  manifest(name: string): Obj;
}

const configFile = Array.from({ length: 40 }, (_, i) => `    location /api/v${i} { proxy_pass http://backend-${i}:8080; }`).join('\n');

const shapes: readonly Shape[] = [
  { title: 'ConfigMap, 9 short settings', collection: COLLECTION, manifest: (name) => configMap(name, 0) },
  {
    title: `ConfigMap, one ${configFile.length} B config file`,
    collection: COLLECTION,
    manifest: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, labels: { app: 'bench', tier: 'backend' } }, data: { 'nginx.conf': `server {\n${configFile}\n}\n` } }),
  },
  {
    title: 'Service, two ports',
    collection: `/api/v1/namespaces/${NS}/services`,
    manifest: (name) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: NS, labels: { app: 'bench', tier: 'backend' } },
      spec: {
        selector: { app: 'bench' },
        ports: [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'https', port: 443, targetPort: 8443 },
        ],
      },
    }),
  },
  {
    title: 'Flunder',
    collection: `/apis/wardle.example.com/v1beta1/namespaces/${NS}/flunders`,
    manifest: (name) => ({ apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name, namespace: NS, labels: { app: 'bench' } }, spec: { flunderReference: 'other' } }),
  },
];

async function storedSizes(backend: Backend, c: LoadClient, h: HttpsClient): Promise<void> {
  for (const [i, shape] of shapes.entries()) {
    const path = `${shape.collection}/size-${i}`;
    await c.expect(201, 'PATCH', `${path}?fieldManager=kubectl`, shape.manifest(`size-${i}`), APPLY);
    const applied = await sizes(h, path);
    await c.expect(200, 'PATCH', `${path}?fieldManager=kubectl-edit`, { metadata: { labels: { edited: 'yes' } } }, MERGE);
    const edited = await sizes(h, path);
    for (const [what, s] of [
      ['applied', applied],
      ['+ a label by a 2nd manager', edited],
    ] as const) {
      const pct = ((s.with - s.without) / s.without) * 100;
      console.log(`${backend} stored size, ${shape.title}, ${what} (${s.entries} entries): ${s.without} B → ${s.with} B, +${pct.toFixed(1)} % (target ≤ 30 %: ${pct <= 30 ? 'PASS' : 'FAIL'})`);
    }
  }
}

async function bench(backend: Backend): Promise<void> {
  const cp = await ControlPlane.start({ backend, readyTimeoutMs: 120_000 });
  const c = new LoadClient(cp.credentials, CONNECTIONS);
  const h = new HttpsClient(cp.credentials);
  try {
    await c.expect(201, 'POST', '/api/v1/namespaces', { metadata: { name: NS } });
    for (const k of [merge, apply]) await pooled(CONNECTIONS, OBJECTS, (i) => k.create(c, `${k.prefix}-${i}`));
    // Warm-up: a round of each, not counted.
    for (const k of [merge, apply]) await round(cp, c, k, 1);
    const results = new Map<Kind, Round[]>([
      [merge, []],
      [apply, []],
    ]);
    for (let r = 0; r < ROUNDS; r++) {
      for (const k of r % 2 === 0 ? [merge, apply] : [apply, merge]) results.get(k)?.push(await round(cp, c, k, (r + 2) * OPS));
    }
    const figures = new Map([...results].map(([k, rs]) => [k, { opsPerSecond: median(rs.map((x) => x.opsPerSecond)), cpuUs: median(rs.map((x) => x.cpuUs)), rounds: rs }]));
    for (const [k, f] of figures) {
      const per = f.rounds.map((x) => `${Math.round(x.opsPerSecond)}/s ${Math.round(x.cpuUs)} µs`).join(', ');
      console.log(`${backend} ${k.title}: ${Math.round(f.opsPerSecond)} ops/s, server CPU ${Math.round(f.cpuUs)} µs per op (rounds: ${per})`);
    }
    const m = figures.get(merge);
    const a = figures.get(apply);
    if (m && a) {
      const cpuRatio = a.cpuUs / m.cpuUs;
      const timeRatio = m.opsPerSecond / a.opsPerSecond;
      console.log(`${backend}: apply/merge patch = ${cpuRatio.toFixed(2)}× server CPU, ${timeRatio.toFixed(2)}× time per op (target ≤ 2×: ${Math.max(cpuRatio, timeRatio) <= 2 ? 'PASS' : 'FAIL'})`);
    }
    await storedSizes(backend, c, h);
  } finally {
    h.close();
    await c.close();
    await cp.stop();
  }
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${OPS} writes per round, ${ROUNDS} rounds per kind, ${CONNECTIONS} connections, ${OBJECTS} objects`,
  );
  await bench('sqlite');
  const skip = etcdUnavailable();
  if (skip) console.log(skip);
  else await bench('etcd3');
}

runBench(main);
