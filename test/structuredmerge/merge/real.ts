// SMD's BenchmarkOperations (merge/real_test.go): real Kubernetes objects and schemas, and the
// operation sequences run on each. Shared by real.test.ts and test/bench/merge.bench.ts.
import { readFileSync } from 'node:fs';
import type { ParseableType } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { Operation } from '../fixture/index.js';
import { Apply, Update } from '../fixture/index.js';

export function read(file: string): string {
  return readFileSync(new URL(`../testdata/${file}`, import.meta.url), 'utf8');
}

const k8s = SchemaParser.fromYAML(read('k8s-schema.yaml'));
const k8s100pctOverrides = SchemaParser.fromYAML(read('k8s-schema-100pct-fieldoverride.yaml'));
const k8s10pctOverrides = SchemaParser.fromYAML(read('k8s-schema-10pct-fieldoverride.yaml'));

export const benches: { name: string; parseType: ParseableType; filename: string }[] = [
  { name: 'Pod', parseType: k8s.type('io.k8s.api.core.v1.Pod'), filename: 'pod.yaml' },
  { name: 'Node', parseType: k8s.type('io.k8s.api.core.v1.Node'), filename: 'node.yaml' },
  { name: 'Endpoints', parseType: k8s.type('io.k8s.api.core.v1.Endpoints'), filename: 'endpoints.yaml' },
  { name: 'Node100%override', parseType: k8s100pctOverrides.type('io.k8s.api.core.v1.Node'), filename: 'node.yaml' },
  { name: 'Node10%override', parseType: k8s10pctOverrides.type('io.k8s.api.core.v1.Node'), filename: 'node.yaml' },
  { name: 'Endpoints100%override', parseType: k8s100pctOverrides.type('io.k8s.api.core.v1.Endpoints'), filename: 'endpoints.yaml' },
  { name: 'Endpoints10%override', parseType: k8s10pctOverrides.type('io.k8s.api.core.v1.Endpoints'), filename: 'endpoints.yaml' },
];

/** The benchmark's operation sequences over one object. */
export function operations(obj: string): { name: string; returnInputOnNoop?: boolean; ops: Operation[] }[] {
  const apply = (manager: string): Operation => new Apply({ manager, apiVersion: 'v1', object: obj });
  const update = (manager: string, apiVersion = 'v1'): Operation => new Update({ manager, apiVersion, object: obj });
  return [
    { name: 'Create', ops: [update('controller')] },
    { name: 'Apply', ops: [apply('controller')] },
    { name: 'ApplyTwice', ops: [apply('controller'), apply('other-controller')] },
    { name: 'ApplyTwiceNoCompare', returnInputOnNoop: true, ops: [apply('controller'), apply('other-controller')] },
    { name: 'Update', ops: [update('controller'), update('other-controller')] },
    { name: 'UpdateVersion', ops: [update('controller'), update('other-controller', 'v2')] },
  ];
}
