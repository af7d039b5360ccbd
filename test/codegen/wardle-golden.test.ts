import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { before, test } from 'node:test';
import { generate } from '../../generator/codegen.js';
import type { JSONSchemaProps } from '../../generator/model/schema.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { SchemaValidator } from '../../runtime/apimachinery/validation/schema-validator.js';
import { ROOT } from './harness.js';

// The reviewed output for the wardle group lives in golden/ (`<path>.golden`).
// A change to the generator that changes these files must update them on
// purpose: UPDATE_GOLDEN=1 npm test -- test/codegen/wardle-golden.test.ts
const GOLDEN = join(ROOT, 'test/codegen/golden');
let files: Map<string, string>;

before(async () => {
  const result = await generate(ROOT);
  files = new Map(result.files.map((f) => [relative('generated', f.path), f.text]));
});

function goldenFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? goldenFiles(path) : [path];
  });
}

test('generated wardle schemas, CRDs, clients and registry match the golden files', async () => {
  const goldens = goldenFiles(GOLDEN);
  assert.ok(goldens.length >= 9);
  for (const golden of goldens) {
    const rel = relative(GOLDEN, golden).replace(/\.golden$/, '');
    const actual = files.get(rel);
    assert.ok(actual !== undefined, `generator no longer writes ${rel}`);
    if (process.env['UPDATE_GOLDEN'] === '1') {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(golden, actual);
    }
    assert.equal(actual, readFileSync(golden, 'utf8'), `generated/${rel} differs from its golden file`);
  }
});

test('two runs are byte-identical', async () => {
  const again = await generate(ROOT);
  assert.deepEqual(new Map(again.files.map((f) => [relative('generated', f.path), f.text])), files);
});

function schema(rel: string): JSONSchemaProps {
  return JSON.parse(files.get(rel)!) as JSONSchemaProps;
}

const validator = new SchemaValidator();
const flunder = (spec: unknown): unknown => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f' }, spec });

test('the v1alpha1 Flunder schema accepts valid Flunders', () => {
  const s = schema('schemas/wardle/v1alpha1/flunder.json');
  assert.deepEqual(validator.validate(s, flunder({ reference: 'other-flunder', referenceType: 'Flunder' })), []);
  assert.deepEqual(validator.validate(s, flunder({})), []);
  assert.deepEqual(validator.validate(s, flunder({ reference: 'a.b-c', referenceType: 'Fischer' })), []);
});

test('the v1alpha1 Flunder schema rejects invalid Flunders with Kubernetes field paths', () => {
  const s = schema('schemas/wardle/v1alpha1/flunder.json');
  const messages = (spec: unknown): string[] => validator.validate(s, flunder(spec)).map(formatFieldError);
  assert.deepEqual(messages({ reference: 'Bad_Name' }), [
    `spec.reference: Invalid value: "Bad_Name": spec.reference in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'`,
  ]);
  assert.deepEqual(messages({ reference: 'x', referenceType: 'Pony' }), ['spec.referenceType: Unsupported value: "Pony": supported values: "Flunder", "Fischer"']);
  assert.deepEqual(messages({ reference: 'x'.repeat(254) }), ['spec.reference: Too long: may not be more than 253 bytes']);
  assert.deepEqual(messages({ reference: 7 }), ['spec.reference: Invalid value: "integer": spec.reference in body must be of type string: "integer"']);
});

test('every pattern of a schema runs its own expression (status conditions beside spec.reference)', () => {
  const s = schema('schemas/wardle/v1alpha1/flunder.json');
  const condition = { type: 'ReferenceResolved', status: 'True', reason: 'FlunderFound', message: '', lastTransitionTime: '2024-01-01T00:00:00Z' };
  const withStatus = (c: unknown): unknown => ({ ...(flunder({ reference: 'other' }) as object), status: { conditions: [c] } });
  assert.deepEqual(validator.validate(s, withStatus(condition)), []);
  assert.deepEqual(validator.validate(s, withStatus({ ...condition, reason: 'no spaces allowed' })).map(formatFieldError), [
    `status.conditions[0].reason: Invalid value: "no spaces allowed": status.conditions[0].reason in body should match '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$'`,
  ]);
});

test('the Fischer schema bounds and types its list', () => {
  const s = schema('schemas/wardle/v1alpha1/fischer.json');
  const fischer = (disallowedFlunders: unknown): unknown => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'f' }, disallowedFlunders });
  assert.deepEqual(validator.validate(s, fischer(['a', 'b'])), []);
  assert.deepEqual(validator.validate(s, fischer([1])).map(formatFieldError), ['disallowedFlunders[0]: Invalid value: "integer": disallowedFlunders[0] in body must be of type string: "integer"']);
  assert.equal(s['properties']?.['disallowedFlunders']?.['x-kubernetes-list-type'], 'set');
});

test('the CRD carries both versions, v1alpha1 as storage, and the status subresource', () => {
  const crd = files.get('crds/wardle.example.com_flunders.yaml')!;
  assert.match(crd, /name: v1beta1\n\s+schema:/);
  assert.match(crd, /served: true\n\s+storage: true\n\s+subresources:\n\s+status: \{\}/);
  assert.match(crd, /x-kubernetes-validations:\n\s+- fieldPath: \.reference/);
});
