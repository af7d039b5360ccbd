// fieldpath.Set micro-benchmark (issue 15): the set operations every write runs through the field
// manager, as sigs.k8s.io/structured-merge-diff's BenchmarkFieldSet measures them (fieldpath/set_test.go):
// sets of 20–1,000 random paths of 2–8 elements over an alphabet of field names, keys, values and
// indices; per operation the µs per call (median of the rounds) on operands out of 100 (insert: a
// whole set of that size built from paths drawn beforehand).
// Beside them, a typical object's managed fields: a Deployment-like set of 60 fields read from its
// fieldsV1 object and written back, what decoding and encoding managedFields costs per manager entry.
// BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- fieldset
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { keyByFields, makePath, Set, type Path } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Rand } from '../fuzz/prng.js';
import { makeRandomPath } from '../structuredmerge/fieldpath/helpers.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const ROUNDS = quick ? 3 : 7;
const TARGET_MS = quick ? 60 : 250;
const OPERANDS = 100;
const CASES: ReadonlyArray<readonly [size: number, minLen: number, maxLen: number]> = [
  [20, 2, 3],
  [50, 2, 4],
  [100, 3, 6],
  [500, 3, 7],
  [1000, 3, 8],
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** µs per call of fn: calls in batches until TARGET_MS has passed, median of ROUNDS. */
function measure(fn: (i: number) => unknown): number {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < TARGET_MS) {
      for (let k = 0; k < 20; k++) fn(n++);
      t = performance.now();
    }
    rounds.push(((t - t0) * 1000) / n);
  }
  return median(rounds);
}

/** A Deployment's fields as a client applies them: metadata, a pod template with two containers. */
function deploymentSet(): Set {
  const paths: Path[] = [];
  const add = (...p: Parameters<typeof makePath>): void => void paths.push(makePath(...p));
  for (const f of ['name', 'namespace']) add('metadata', f);
  for (const l of ['app', 'tier', 'version']) add('metadata', 'labels', l);
  add('metadata', 'annotations', 'example.com/owner');
  add('spec', 'replicas');
  for (const l of ['app', 'tier']) add('spec', 'selector', 'matchLabels', l);
  for (const l of ['app', 'tier', 'version']) add('spec', 'template', 'metadata', 'labels', l);
  for (const c of ['web', 'sidecar']) {
    const k = keyByFields('name', c);
    add('spec', 'template', 'spec', 'containers', k);
    for (const f of ['name', 'image', 'imagePullPolicy']) add('spec', 'template', 'spec', 'containers', k, f);
    for (const p of [8080, 9090]) {
      const pk = keyByFields('containerPort', p, 'protocol', 'TCP');
      add('spec', 'template', 'spec', 'containers', k, 'ports', pk);
      for (const f of ['containerPort', 'protocol', 'name']) add('spec', 'template', 'spec', 'containers', k, 'ports', pk, f);
    }
    for (const e of ['MODE', 'LEVEL', 'REGION']) {
      const ek = keyByFields('name', e);
      add('spec', 'template', 'spec', 'containers', k, 'env', ek);
      for (const f of ['name', 'value']) add('spec', 'template', 'spec', 'containers', k, 'env', ek, f);
    }
    for (const r of ['limits', 'requests']) for (const q of ['cpu', 'memory']) add('spec', 'template', 'spec', 'containers', k, 'resources', r, q);
  }
  return new Set(...paths);
}

runBench(async () => {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${ROUNDS} rounds of ${TARGET_MS} ms, median`,
  );
  const rand = new Rand(15);
  const ops = ['insert', 'has', 'serialize', 'deserialize', 'union', 'intersection', 'difference', 'recursive-difference', 'leaves'] as const;
  console.log(`| set size (path length) | ${ops.join(' µs | ')} µs |`);
  console.log(`| --- | ${ops.map(() => '---').join(' | ')} |`);
  for (const [size, minLen, maxLen] of CASES) {
    // Paths drawn beforehand, so that insert measures the set, not the drawing.
    const pool = Array.from({ length: 20 * size }, () => makeRandomPath(rand, minLen, maxLen));
    let drawn = 0;
    const makeSet = (): Set => {
      const x = new Set();
      for (let j = 0; j < size; j++) x.insert(pool[drawn++ % pool.length]!);
      return x;
    };
    const operands = Array.from({ length: OPERANDS }, makeSet);
    const serialized = operands.map((s) => s.toJSON());
    const probes = Array.from({ length: 1000 }, () => makeRandomPath(rand, minLen, maxLen));
    const at = (i: number): Set => operands[i % OPERANDS]!;
    const other = (i: number): Set => operands[(i * 7 + 3) % OPERANDS]!;
    const figures: Record<(typeof ops)[number], number> = {
      insert: measure(() => makeSet()),
      has: measure((i) => at(i).has(probes[i % probes.length]!)),
      serialize: measure((i) => at(i).toJSON()),
      deserialize: measure((i) => Set.fromJSON(serialized[i % OPERANDS]!)),
      union: measure((i) => at(i).union(other(i))),
      intersection: measure((i) => at(i).intersection(other(i))),
      difference: measure((i) => at(i).difference(other(i))),
      'recursive-difference': measure((i) => at(i).recursiveDifference(other(i))),
      leaves: measure((i) => at(i).leaves()),
    };
    console.log(`| ${size} (${minLen}–${maxLen}) | ${ops.map((o) => figures[o].toFixed(2)).join(' | ')} |`);
  }
  const d = deploymentSet();
  const v1 = d.toFieldsV1();
  const text = d.toJSON();
  console.log(`\nDeployment-like managed fields: ${d.size()} fields, fieldsV1 ${text.length} bytes`);
  console.log(`| op | µs |\n| --- | --- |`);
  console.log(`| fromFieldsV1 (decoded object) | ${measure(() => Set.fromFieldsV1(v1)).toFixed(2)} |`);
  console.log(`| toFieldsV1 | ${measure(() => d.toFieldsV1()).toFixed(2)} |`);
  console.log(`| fromJSON (text) | ${measure(() => Set.fromJSON(text)).toFixed(2)} |`);
  console.log(`| toJSON | ${measure(() => d.toJSON()).toFixed(2)} |`);
  const copy = d.copy();
  console.log(`| equals (a copy) | ${measure(() => d.equals(copy)).toFixed(2)} |`);
  const half = new Set(...[...d].filter((_, i) => i % 2 === 0));
  console.log(`| union with half | ${measure(() => d.union(half)).toFixed(2)} |`);
  console.log(`| difference with half | ${measure(() => d.difference(half)).toFixed(2)} |`);
});
