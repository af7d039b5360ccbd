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
// (/proc/<pid>/stat). The stored size is the bytes the backend holds for an object (read from the
// SQLite file or etcd once the server exited; managedFields in the codec's frame,
// runtime/storage/kvstore/managedfields-frame.ts), against the object's plain storage JSON
// without managedFields, for a few object shapes applied by "kubectl", and applied and then
// labelled by merge patch as "kubectl-edit" (a second entry). BENCH_QUICK=1 shrinks the rounds.
// Run: npm run bench -- apply
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ControlPlane, etcdUnavailable, type Backend } from '../integration/harness.js';
import { rawValue } from '../integration/stored.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { parseStoredObject } from '../../runtime/storage/kvstore/managedfields-frame.js';
import { apiObjectVersioner } from '../../runtime/storage/versioner.js';
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

/**
 * The bytes the store holds for a REST key (read around the server: test/integration/stored.ts),
 * and what it would hold for the same object without managedFields (its plain storage JSON).
 */
async function sizes(cp: ControlPlane, key: string): Promise<Size> {
  const raw = await rawValue(cp, key);
  if (raw === undefined) throw new Error(`nothing stored at ${key}`);
  const obj = parseStoredObject(raw) as StoredObject;
  const { managedFields, ...rest } = obj.metadata ?? {};
  return {
    with: raw.length,
    without: Buffer.byteLength(apiObjectVersioner.encodeForStorage({ ...obj, metadata: rest })),
    plainJSON: Buffer.byteLength(apiObjectVersioner.encodeForStorage(obj)),
    entries: Array.isArray(managedFields) ? managedFields.length : 0,
  };
}

interface Size {
  readonly with: number;
  readonly without: number;
  /** The object with its managedFields as plain JSON (how they were stored before the frame). */
  readonly plainJSON: number;
  readonly entries: number;
}

/** An object shape whose stored size is measured: applied by "kubectl", then a label added by merge patch as "kubectl-edit". */
interface Shape {
  readonly title: string;
  readonly collection: string;
  /** The REST key prefix of the collection in storage (`configmaps/<ns>`). */
  readonly storage: string;
  manifest(name: string): Obj;
}

const configFile = Array.from({ length: 40 }, (_, i) => `    location /api/v${i} { proxy_pass http://backend-${i}:8080; }`).join('\n');

const shapes: readonly Shape[] = [
  { title: 'ConfigMap, 9 short settings', collection: COLLECTION, storage: `configmaps/${NS}`, manifest: (name) => configMap(name, 0) },
  {
    title: `ConfigMap, one ${configFile.length} B config file`,
    collection: COLLECTION,
    storage: `configmaps/${NS}`,
    manifest: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, labels: { app: 'bench', tier: 'backend' } }, data: { 'nginx.conf': `server {\n${configFile}\n}\n` } }),
  },
  {
    title: 'Service, two ports',
    collection: `/api/v1/namespaces/${NS}/services`,
    storage: `services/${NS}`,
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
    storage: `wardle.example.com/flunders/${NS}`,
    manifest: (name) => ({ apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name, namespace: NS, labels: { app: 'bench' } }, spec: { flunderReference: 'other' } }),
  },
];

/** REST keys of the objects whose stored size is measured, by shape: one applied, one applied and then labelled by a 2nd manager. */
interface SizeSample {
  readonly shape: Shape;
  readonly applied: string;
  readonly edited: string;
}

async function writeSizeSamples(c: LoadClient): Promise<SizeSample[]> {
  const samples: SizeSample[] = [];
  for (const [i, shape] of shapes.entries()) {
    for (const name of [`size-${i}-a`, `size-${i}-e`]) await c.expect(201, 'PATCH', `${shape.collection}/${name}?fieldManager=kubectl`, shape.manifest(name), APPLY);
    await c.expect(200, 'PATCH', `${shape.collection}/size-${i}-e?fieldManager=kubectl-edit`, { metadata: { labels: { edited: 'yes' } } }, MERGE);
    samples.push({ shape, applied: `${shape.storage}/size-${i}-a`, edited: `${shape.storage}/size-${i}-e` });
  }
  return samples;
}

/** Reads the samples' stored bytes (after the server exited: SQLite's file is its alone while it runs). */
async function reportSizes(backend: Backend, cp: ControlPlane, samples: readonly SizeSample[]): Promise<void> {
  for (const { shape, applied, edited } of samples) {
    for (const [what, s] of [
      ['applied', await sizes(cp, applied)],
      ['+ a label by a 2nd manager', await sizes(cp, edited)],
    ] as const) {
      const pct = ((s.with - s.without) / s.without) * 100;
      const asJSON = ((s.plainJSON - s.without) / s.without) * 100;
      console.log(
        `${backend} stored size, ${shape.title}, ${what} (${s.entries} entries): ${s.without} B → ${s.with} B, +${pct.toFixed(1)} % (target ≤ 30 %: ${pct <= 30 ? 'PASS' : 'FAIL'}; as plain JSON ${s.plainJSON} B, +${asJSON.toFixed(1)} %)`,
      );
    }
  }
}

async function bench(backend: Backend): Promise<void> {
  const cp = await ControlPlane.start({ backend, readyTimeoutMs: 120_000 });
  try {
    const samples = await writeLoad(backend, cp);
    // SQLite: the server holds the file; the bytes are read once the process has exited.
    await cp.terminate();
    await reportSizes(backend, cp, samples);
  } finally {
    await cp.stop();
  }
}

/** The rounds of merge patches and applies, then the objects whose stored size is measured. */
async function writeLoad(backend: Backend, cp: ControlPlane): Promise<SizeSample[]> {
  const c = new LoadClient(cp.credentials, CONNECTIONS);
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
    return await writeSizeSamples(c);
  } finally {
    await c.close();
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
