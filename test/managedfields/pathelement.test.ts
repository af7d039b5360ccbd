// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/pathelement_test.go.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newPathElement, pathElementString } from '../../runtime/apimachinery/managedfields/index.js';

describe('TestPathElementRoundTrip', () => {
  const tests = [
    'i:0',
    'i:1234',
    'f:',
    'f:spec',
    'f:more-complicated-string',
    'k:{"name":"my-container"}',
    'k:{"port":"8080","protocol":"TCP"}',
    'k:{"optionalField":null}',
    'k:{"jsonField":{"A":1,"B":null,"C":"D","E":{"F":"G"}}}',
    'k:{"listField":["1","2","3"]}',
    'v:null',
    'v:"some-string"',
    'v:1234',
    'v:{"some":"json"}',
    'k:{"__proto__":"x"}',
  ];
  for (const s of tests) {
    test(s, () => {
      const pe = newPathElement(s);
      assert.ok(pe !== undefined);
      assert.equal(pathElementString(pe), s);
    });
  }
});

test('TestPathElementIgnoreUnknown', () => {
  assert.equal(newPathElement('r:Hello'), undefined);
  assert.equal(newPathElement('rr:Hello'), undefined);
});

describe('TestNewPathElementError', () => {
  for (const s of ['', 'no-colon', 'i:index is not a number', 'i:1.23', 'i:', 'v:invalid json', 'v:', 'k:invalid json', 'k:{"name":invalid}']) {
    test(s, () => assert.throws(() => newPathElement(s), Error));
  }
  test('kube words a key without a colon', () => assert.throws(() => newPathElement('no-colon'), { message: 'missing colon: no-colon' }));
});
