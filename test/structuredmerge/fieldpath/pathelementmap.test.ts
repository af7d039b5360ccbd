/** sigs.k8s.io/structured-merge-diff fieldpath/pathelementmap_test.go. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldNameElement, PathElementMap } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { valueEquals, type Value } from '../../../runtime/apimachinery/structuredmerge/value/index.js';

test('TestPathElementValueMap', () => {
  const m = new PathElementMap<Value>();
  assert.equal(m.get(fieldNameElement('onion')), undefined, 'Unexpected path-element found in empty map');
  m.insert(fieldNameElement('carrot'), 'knife');
  m.insert(fieldNameElement('chive'), 2);
  assert.ok(!m.has(fieldNameElement('onion')), 'Unexpected path-element in map');
  assert.ok(valueEquals(m.get(fieldNameElement('carrot')), 'knife'));
  assert.ok(valueEquals(m.get(fieldNameElement('chive')), 2));
  m.insert(fieldNameElement('carrot'), 'fork');
  assert.ok(valueEquals(m.get(fieldNameElement('carrot')), 'fork'));
  assert.equal(m.size(), 2);
});
