// Type and version conversion micro-benchmark (issue 15), as k8s.io/apimachinery's
// BenchmarkObjectToTyped and BenchmarkVersionConverter measure them: a Deployment with n labels
// and n annotations typed by kube's test schema (objectToTyped validates the whole object), its
// conversion to the same version (the fast path) and across versions (typed again), and the
// one-time conversion of a kind's structural schema into SMD's (a fresh copy each call, so the
// per-schema cache does not answer). µs per call, median of the rounds.
// BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- typeconverter
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { newTypeConverter } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import { newVersionConverter } from '../../runtime/apimachinery/managedfields/versionconverter.js';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { swaggerKinds, swaggerTypeConverter } from '../managedfields/testdata/swagger-kinds.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const ROUNDS = quick ? 3 : 7;
const TARGET_MS = quick ? 60 : 250;

/** µs per call of fn, each call awaited: calls until TARGET_MS has passed, median of ROUNDS (after one round of warm-up). */
async function perCall(fn: () => unknown): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r <= ROUNDS; r++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    for (; t - t0 < TARGET_MS; t = performance.now(), n++) await fn();
    if (r > 0) rounds.push(((t - t0) * 1000) / n);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number;
}

function deployment(apiVersion: string, n: number): JSONObject {
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    labels[`k8s.io/label-${i}`] = `value-${i}`;
    annotations[`k8s.io/annotation-${i}`] = `value-${i}`;
  }
  return { apiVersion, kind: 'Deployment', metadata: { name: 'nginx-deployment', namespace: 'default', labels, annotations } };
}

runBench(async () => {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${ROUNDS} rounds of ${TARGET_MS} ms, median`,
  );
  const tc = swaggerTypeConverter();
  const vc = newVersionConverter(tc, { convert: (_obj, apiVersion) => deployment(apiVersion, 0) }, 'apps/__internal');
  console.log('| labels + annotations | objectToTyped µs | convert, same version µs | convert, cross version µs |');
  console.log('| --- | --- | --- | --- |');
  for (const n of [0, 10, 100, 1000]) {
    const obj = deployment('apps/v1beta1', n);
    const typed = tc.objectToTyped(obj);
    const toTyped = await perCall(() => tc.objectToTyped(obj));
    const same = await perCall(() => vc.convert(typed, 'apps/v1beta1'));
    const cross = await perCall(() => vc.convert(typed, 'apps/v1'));
    console.log(`| ${n} | ${toTyped.toFixed(2)} | ${same.toFixed(2)} | ${cross.toFixed(2)} |`);
  }
  const kinds = swaggerKinds('swagger.json');
  console.log('\n| kind (inlined schema, JSON bytes) | schema conversion µs |\n| --- | --- |');
  for (const kind of ['Deployment', 'Pod', 'ConfigMap']) {
    const k = kinds.find((x) => x.kind === kind);
    if (k === undefined) throw new Error(`no ${kind} in the test schema`);
    // A fresh copy per call (a converted schema object is cached); the copy's own cost is subtracted.
    const copy = await perCall(() => structuredClone(k.schema));
    const both = await perCall(() => newTypeConverter([{ ...k, schema: structuredClone(k.schema) }], { preserveUnknownFields: false }));
    console.log(`| ${kind} (${JSON.stringify(k.schema).length}) | ${(both - copy).toFixed(1)} |`);
  }
});
