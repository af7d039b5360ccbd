// The store aligns an update's key order with the stored object so that a semantically
// unchanged update encodes to the stored bytes (and is skipped); managedFields are exempt: the
// field manager writes them in kube's canonical order, and aligning entries by position gave a
// forced apply's FieldsV1 the key order of the entry it replaced.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alignStoredKeyOrder } from '../../runtime/registry/generic/objects.js';

test('alignStoredKeyOrder takes the stored key order everywhere but metadata.managedFields', () => {
  const stored = {
    metadata: { name: 'a', labels: { b: '2', a: '1' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:metadata': {}, 'f:data': {} } }] },
    data: { y: '1', x: '2' },
  };
  const next = {
    data: { x: '2', y: '1' },
    metadata: { labels: { a: '1', b: '2' }, name: 'a', managedFields: [{ manager: 'm', fieldsV1: { 'f:data': {}, 'f:metadata': {} } }] },
  };
  const aligned = alignStoredKeyOrder(next, stored);
  assert.equal(JSON.stringify(aligned), '{"metadata":{"name":"a","labels":{"b":"2","a":"1"},"managedFields":[{"manager":"m","fieldsV1":{"f:data":{},"f:metadata":{}}}]},"data":{"y":"1","x":"2"}}');
  assert.equal(JSON.stringify(next.metadata.managedFields), '[{"manager":"m","fieldsV1":{"f:data":{},"f:metadata":{}}}]', 'input not mutated');
});

test('alignStoredKeyOrder treats __proto__ and constructor keys as data', () => {
  const stored = JSON.parse('{"metadata":{"name":"a"},"data":{"constructor":"1","__proto__":"2"}}') as Record<string, unknown>;
  const next = JSON.parse('{"data":{"__proto__":"2","constructor":"1"},"metadata":{"name":"a"}}') as Record<string, unknown>;
  assert.equal(JSON.stringify(alignStoredKeyOrder(next, stored)), '{"metadata":{"name":"a"},"data":{"constructor":"1","__proto__":"2"}}');
});
