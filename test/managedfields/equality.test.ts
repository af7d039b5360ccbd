// Port of k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager/equality_test.go, and tests of
// IgnoreManagedFieldsTimestampsTransformer over our objects.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { equalIgnoringValueAtPath, ignoreManagedFieldsTimestamps } from '../../runtime/apimachinery/managedfields/index.js';

describe('TestEqualIgnoringFieldValueAtPath', () => {
  const obj = (labels: JSONObject, spec: JSONObject, managedFields: unknown[] = []): JSONObject => ({ metadata: { labels, managedFields }, spec });
  const cases: Array<{ name: string; a: JSONObject; b: JSONObject; want: boolean }> = [
    { name: 'identical objects', a: obj({ env: 'dev' }, { field: 'value' }), b: obj({ env: 'dev' }, { field: 'value' }), want: true },
    { name: 'different metadata label value', a: obj({ env: 'dev' }, { field: 'value' }), b: obj({ env: 'prod' }, { field: 'value' }), want: false },
    { name: 'different spec value', a: obj({ env: 'dev' }, { field: 'value1' }), b: obj({ env: 'dev' }, { field: 'value2' }), want: false },
    { name: 'extra spec field', a: obj({ env: 'dev' }, { field: 'value1', otherField: 'other' }), b: obj({ env: 'dev' }, { field: 'value1' }), want: false },
    { name: 'different spec field', a: obj({ env: 'dev' }, { field: 'value1' }), b: obj({ env: 'dev' }, { field: 'value1', otherField: 'other' }), want: false },
    {
      name: 'different managed fields should be ignored',
      a: obj({ env: 'dev' }, { field: 'value' }, [{ manager: 'client1' }]),
      b: obj({ env: 'dev' }, { field: 'value' }, [{ manager: 'client2' }]),
      want: true,
    },
    {
      name: 'wrong type for metadata result in differences being ignored',
      a: { metadata: ['something'], spec: { field: 'value' } },
      b: { metadata: ['something else'], spec: { field: 'value' } },
      want: true,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.equal(equalIgnoringValueAtPath(c.a, c.b, ['metadata', 'managedFields']), c.want);
      // Commutative.
      assert.equal(equalIgnoringValueAtPath(c.b, c.a, ['metadata', 'managedFields']), c.want);
    });
  }
});

describe('ignoreManagedFieldsTimestamps', () => {
  const entry = (manager: string, time: string): JSONObject => ({ manager, operation: 'Apply', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } });
  const cm = (data: JSONObject, ...entries: JSONObject[]): JSONObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: entries }, data });

  test('only newer times: the old times are kept', () => {
    const oldObj = cm({ a: '1' }, entry('m', '2026-01-01T00:00:00Z'), entry('n', '2026-01-01T00:00:01Z'));
    const newObj = cm({ a: '1' }, entry('m', '2026-01-02T00:00:00Z'), entry('n', '2026-01-01T00:00:01Z'));
    assert.deepEqual(ignoreManagedFieldsTimestamps(newObj, oldObj), oldObj);
    assert.equal((newObj.metadata as { managedFields: JSONObject[] }).managedFields[0]?.time, '2026-01-02T00:00:00Z', 'the input is not changed');
  });
  test('anything else changed: the new object as it is', () => {
    const oldObj = cm({ a: '1' }, entry('m', '2026-01-01T00:00:00Z'));
    for (const newObj of [
      cm({ a: '2' }, entry('m', '2026-01-02T00:00:00Z')),
      cm({ a: '1' }, entry('other', '2026-01-02T00:00:00Z')),
      cm({ a: '1' }, entry('m', '2026-01-02T00:00:00Z'), entry('n', 'x')),
    ]) {
      assert.equal(ignoreManagedFieldsTimestamps(newObj, oldObj), newObj);
    }
  });
  test('same times, or no managedFields: the new object as it is', () => {
    const oldObj = cm({ a: '1' }, entry('m', '2026-01-01T00:00:00Z'));
    const same = cm({ a: '1' }, entry('m', '2026-01-01T00:00:00Z'));
    assert.equal(ignoreManagedFieldsTimestamps(same, oldObj), same);
    const none = cm({ a: '1' });
    assert.equal(ignoreManagedFieldsTimestamps(none, cm({ a: '1' })), none);
  });
});
