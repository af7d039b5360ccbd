// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/fields_test.go: FieldsV1 ↔ field sets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyFields, fieldsToSet, setToFields } from '../../runtime/apimachinery/managedfields/index.js';
import { makePath, Set as FieldSet } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { Path } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';

test('TestFieldsRoundTrip', () => {
  for (const input of [{ 'f:metadata': { '.': {}, 'f:name': {} } }, emptyFields()]) {
    const output = setToFields(fieldsToSet(input));
    assert.equal(JSON.stringify(output), JSON.stringify(input));
  }
});

test('TestFieldsToSetError', () => {
  assert.throws(() => fieldsToSet({ 'k:{invalid json}': { 'f:name': {}, '.': {} } }), Error);
  assert.throws(() => fieldsToSet(['f:name']), { message: /ReadMapCB/ });
});

test('TestSetToFieldsError', () => {
  const invalidPath = [{} as never, { fieldName: 'ok' }] as Path;
  assert.throws(() => setToFields(new FieldSet(invalidPath)), { message: /invalid PathElement/ });
});

test('FieldsV1 keys are data: __proto__ and constructor round trip', () => {
  const set = new FieldSet(makePath('metadata', 'labels', '__proto__'), makePath('metadata', 'labels', 'constructor'));
  const fields = setToFields(set);
  assert.equal(JSON.stringify(fields), '{"f:metadata":{"f:labels":{"f:__proto__":{},"f:constructor":{}}}}');
  const back = fieldsToSet(JSON.parse(JSON.stringify(fields)) as unknown);
  assert.ok(back.equals(set));
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});
