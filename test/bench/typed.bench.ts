// The typed operations of the merge core (issue 15), as structured-merge-diff's typed benchmarks
// measure them (BenchmarkValidateStructured, BenchmarkConvertUnstructured and the field-set, merge
// and compare walks its merge benchmarks run): on a Deployment typed by kube's test schema with n
// containers, and on a plain associative list of n keyed items, validation (fromUnstructured),
// toFieldSet, merge (the object with a changed copy), compare, removeItems and extractItems of the
// copy's field set. µs per call, median of the rounds.
// BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- typed
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import type { ParseableType } from '../../runtime/apimachinery/structuredmerge/typed/index.js';
import { Parser } from '../../runtime/apimachinery/structuredmerge/typed/index.js';
import { swaggerTypeConverter } from '../managedfields/testdata/swagger-kinds.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const ROUNDS = quick ? 3 : 7;
const TARGET_MS = quick ? 60 : 250;

/** µs per call of fn: calls until TARGET_MS has passed, median of ROUNDS (after one round of warm-up). */
function perCall(fn: () => unknown): number {
  const rounds: number[] = [];
  for (let r = 0; r <= ROUNDS; r++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    for (; t - t0 < TARGET_MS; t = performance.now(), n++) fn();
    if (r > 0) rounds.push(((t - t0) * 1000) / n);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number;
}

function deployment(containers: number, image: string): JSONObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: Array.from({ length: containers }, (_, i) => ({
            name: `c${i}`,
            image,
            ports: [{ containerPort: 8080 + i, protocol: 'TCP' }],
            env: [{ name: 'MODE', value: 'prod' }],
            resources: { limits: { cpu: '1', memory: '1Gi' } },
          })),
        },
      },
    },
  };
}

const itemsType: ParseableType = Parser.fromYAML(
  `types:
- name: root
  map:
    fields:
    - name: items
      type:
        list:
          elementType: {namedType: item}
          elementRelationship: associative
          keys: [name]
- name: item
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: value
      type: {scalar: numeric}
    - name: tags
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: associative
`,
).type('root');

const items = (n: number, value: number): JSONObject => ({ items: Array.from({ length: n }, (_, i) => ({ name: `item-${i}`, value: value + (i % 2), tags: ['a', 'b'] })) });

function row(label: string, parse: (v: JSONObject) => ReturnType<ParseableType['fromUnstructured']>, a: JSONObject, b: JSONObject): void {
  const ta = parse(a);
  const tb = parse(b);
  const set = tb.toFieldSet();
  const cells = [
    perCall(() => parse(a)),
    perCall(() => ta.toFieldSet()),
    perCall(() => ta.merge(tb)),
    perCall(() => ta.compare(tb)),
    perCall(() => ta.removeItems(set)),
    perCall(() => ta.extractItems(set)),
  ];
  console.log(`| ${label} | ${cells.map((c) => c.toFixed(1)).join(' | ')} |`);
}

runBench(async () => {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${ROUNDS} rounds of ${TARGET_MS} ms, median`,
  );
  const tc = swaggerTypeConverter();
  console.log('| object | validate µs | toFieldSet µs | merge µs | compare µs | removeItems µs | extractItems µs |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const n of [1, 10, 100]) row(`Deployment, ${n} containers`, (v) => tc.objectToTyped(v), deployment(n, 'nginx:1'), deployment(n, 'nginx:2'));
  for (const n of [10, 100, 1000]) row(`list of ${n} keyed items`, (v) => itemsType.fromUnstructured(v), items(n, 1), items(n, 2));
  await Promise.resolve();
});
