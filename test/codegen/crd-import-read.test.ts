import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readManifest } from '../../generator/crd-import/read.js';
import { ROOT } from './harness.js';

// Reading manifests for --crd: v1beta1 CRDs as v1 (kube's conversion), other kinds
// skipped, every problem at its line.
const fixture = (name: string): string => readFileSync(join(ROOT, 'test/codegen/fixtures/crds/import', name), 'utf8');

test('a v1beta1 CRD is read as v1: the top-level version, validation, subresources and columns move into every version', () => {
  const { crds, problems, skipped } = readManifest(fixture('v1beta1-backups.yaml'));
  assert.deepEqual(problems, []);
  assert.deepEqual(skipped, []);
  assert.equal(crds.length, 2);
  const backup = crds[0]!;
  assert.equal(backup.line, 3);
  assert.equal(backup.crd.apiVersion, 'apiextensions.k8s.io/v1');
  assert.equal(backup.crd.spec.scope, 'Namespaced', 'v1beta1 defaults the scope');
  assert.equal(backup.crd.spec.versions.length, 1);
  const v = backup.crd.spec.versions[0]!;
  assert.equal(v.name, 'v1beta1');
  assert.equal(v.served, true);
  assert.equal(v.storage, true);
  assert.deepEqual(v.subresources, { status: {} });
  assert.deepEqual(v.additionalPrinterColumns, [{ name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' }]);
  assert.deepEqual(v.schema?.openAPIV3Schema?.properties?.['spec']?.required, ['schedule']);
  const spec = backup.crd.spec as unknown as Record<string, unknown>;
  for (const gone of ['version', 'validation', 'subresources', 'additionalPrinterColumns']) assert.equal(spec[gone], undefined, gone);
  // Without any schema every field was preserved in v1beta1; so it stays.
  const restore = crds[1]!;
  assert.equal(restore.line, 37);
  assert.equal(restore.crd.spec.scope, 'Cluster');
  assert.deepEqual(
    restore.crd.spec.versions.map((x) => [x.name, x.schema?.openAPIV3Schema]),
    [
      ['v1', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
      ['v1alpha1', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
    ],
  );
});

test('documents of other kinds are skipped, and the CRD among them keeps its line', () => {
  const { crds, problems, skipped } = readManifest(fixture('mixed-operator.yaml'));
  assert.deepEqual(problems, []);
  assert.deepEqual(
    crds.map((c) => [c.crd.spec.names.kind, c.line]),
    [['Queue', 16]],
  );
  assert.deepEqual(skipped, [
    { line: 2, what: 'Namespace v1' },
    { line: 7, what: 'ClusterRole rbac.authorization.k8s.io/v1' },
    { line: 41, what: 'Deployment apps/v1' },
  ]);
});

test('a problem is reported at the line of the field it concerns, after the documents that were fine', () => {
  const { crds, problems } = readManifest(fixture('broken-late.yaml'));
  assert.deepEqual(
    crds.map((c) => c.crd.spec.names.kind),
    ['Job'],
  );
  assert.deepEqual(problems, [
    {
      line: 38,
      message: 'CustomResourceDefinition runs.batchx.example.com: spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
    },
  ]);
});

test('YAML errors, non-object documents and CRDs without names are reported at their lines', () => {
  const text = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata: {name: a.example.com}',
    'spec:',
    '  group: example.com',
    '---',
    '- just',
    '- a list',
    '---',
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'spec:',
    '  group: example.com',
    '  group: twice',
  ].join('\n');
  const { problems } = readManifest(text);
  assert.deepEqual(
    problems.map((p) => p.line),
    [4, 7, 14],
  );
  assert.match(problems[0]!.message, /spec\.names\.kind: Required value/);
  assert.match(problems[1]!.message, /must be an object/);
  assert.match(problems[2]!.message, /not valid YAML: Map keys must be unique/);
});
