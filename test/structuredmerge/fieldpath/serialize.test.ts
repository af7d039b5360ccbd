/** sigs.k8s.io/structured-merge-diff fieldpath/serialize_test.go, plus the decoded-object reader kube's objects need. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyByFields, Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Rand } from '../../fuzz/prng.js';
import { _NS, _P, _V, makeRandomPath } from './helpers.js';
import { goldenData, nonNormalized, tokenTypeErrors, validJSON } from './serialize-data.js';

describe('TestSerializeV1', () => {
  const rand = new Rand(20261126);
  for (let i = 0; i < 500; i++) {
    test(String(i), () => {
      const x = new Set();
      for (let j = 0; j < 50; j++) x.insert(makeRandomPath(rand, 2, 5));
      const b = x.toJSON();
      const x2 = Set.fromJSON(b);
      assert.ok(x2.equals(x), `failed to reproduce original:\n${x.toString()}\n\n${b}\n\n${x2.toJSON()}`);
      // The decoded object form reads back the same, and writes the same text.
      const fromObject = Set.fromFieldsV1(x.toFieldsV1());
      assert.ok(fromObject.equals(x));
      assert.equal(JSON.stringify(x.toFieldsV1()), b);
    });
  }
});

describe('TestSerializeV1GoldenData', () => {
  goldenData.forEach((str, i) => {
    test(String(i), () => {
      const x = Set.fromJSON(str);
      assert.equal(x.toJSON(), str);
      assert.equal(JSON.stringify(x.toFieldsV1()), str);
    });
  });
});

describe('TestDeserializeForValidNonNormalized', () => {
  nonNormalized.forEach((tc, i) => {
    test(String(i), () => {
      const nonNormSet = Set.fromJSON(tc.nonNormalizedString);
      const normSet = Set.fromJSON(tc.normalizedString);
      assert.equal(nonNormSet.toJSON(), normSet.toJSON());
      assert.ok(normSet.equals(nonNormSet), 'expected both set to be equal.');
    });
  });
});

describe('TestSetFromJSONTokenTypeErrors', () => {
  for (const [name, input] of tokenTypeErrors) {
    test(name, () => assert.throws(() => Set.fromJSON(input)));
  }
});

describe('TestSetFromJSON', () => {
  for (const [name, input] of validJSON) {
    test(name, () => assert.doesNotThrow(() => Set.fromJSON(input)));
  }
});

test('TestDropUnknown', () => {
  assert.equal(Set.fromJSON('{"f:aaa":{},"r:aab":{}}').toJSON(), '{"f:aaa":{}}');
});

describe('fieldsV1 object form', () => {
  test('"." marks a parent that is also a member, first in its object', () => {
    const s = _NS(_P('spec', 'containers', keyByFields('name', 'a')), _P('spec', 'containers', keyByFields('name', 'a'), 'image'), _P('spec', 'replicas'));
    const v = s.toFieldsV1();
    assert.deepEqual(Object.keys(((v['f:spec'] as Record<string, unknown>)['f:containers'] as Record<string, unknown>)['k:{"name":"a"}'] as object), ['.', 'f:image']);
    assert.equal(s.toJSON(), '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{}}},"f:replicas":{}}}');
  });

  test('errors are worded as the reader and Go decoder word them', () => {
    assert.throws(() => Set.fromJSON(''), { message: 'unexpected end of JSON input' });
    assert.throws(() => Set.fromJSON('{"f:a":{}}}'), { message: "invalid character '}' after top-level value" });
    assert.throws(() => Set.fromJSON('{"x":{}}'), { message: 'parsing key as path element: key must be 2 characters long:' });
    assert.throws(() => Set.fromFieldsV1({ 'f:a': 1 }), { message: 'ReadMapCB: expect { or n, but found 1' });
    assert.throws(() => Set.fromFieldsV1([]), { message: 'ReadMapCB: expect { or n, but found [' });
    assert.ok(Set.fromFieldsV1(null).empty());
    assert.ok(Set.fromFieldsV1({ 'f:a': null }).equals(_NS(_P('a'))));
  });

  test('__proto__ and constructor are data, never the prototype', () => {
    assert.throws(() => Set.fromFieldsV1(JSON.parse('{"__proto__":{}}')), { message: 'parsing key as path element: missing colon: __proto__' });
    assert.throws(() => Set.fromJSON('{"constructor":{}}'), /missing colon: constructor/);
    const s = Set.fromJSON('{"f:__proto__":{"f:constructor":{}},"k:{\\"__proto__\\":1}":{}}');
    assert.ok(s.has(_P('__proto__', 'constructor')));
    assert.ok(s.has(_P([{ name: '__proto__', value: 1 }])));
    const v = s.toFieldsV1();
    assert.ok(Object.prototype.hasOwnProperty.call(v, 'f:__proto__'));
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.ok(Set.fromFieldsV1(v).equals(s));
    assert.equal(({} as Record<string, unknown>)['f:constructor'], undefined);
  });

  test('deep nesting is read and written without exhausting the stack; past the limit it is refused', () => {
    const deep = (n: number): string => '{"f:a":'.repeat(n) + '{}' + '}'.repeat(n);
    const s = Set.fromJSON(deep(9000));
    assert.equal(s.size(), 1);
    assert.equal(s.toJSON(), deep(9000));
    assert.ok(s.equals(s.copy()));
    assert.ok(s.union(s).difference(s).empty());
    let v: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) v = { 'f:a': v };
    assert.throws(() => Set.fromFieldsV1(v), { message: 'exceeded max depth' });
  });

  test('a huge key is read or refused cleanly', () => {
    const big = 'x'.repeat(1 << 20);
    assert.ok(Set.fromFieldsV1({ [`f:${big}`]: {} }).has(_P(big)));
    assert.ok(Set.fromFieldsV1({ [`v:"${big}"`]: {} }).has(_P(_V(big))));
    assert.throws(() => Set.fromFieldsV1({ [`i:${'1'.repeat(1 << 20)}`]: {} }), /value out of range/);
  });

  test('keys naming one element twice read as one', () => {
    const s = Set.fromFieldsV1({ 'k:{"a":1,"b":2}': { 'f:x': {} }, 'k:{"b":2,"a":1}': { 'f:y': {} }, 'i:1': {}, 'i:01': {} });
    assert.equal(s.toJSON(), '{"k:{\\"a\\":1,\\"b\\":2}":{"f:y":{}},"i:1":{}}');
  });
});

describe('sets with empty subsets', () => {
  test('an empty child is written as SMD writes it: no "." marker, an empty object', () => {
    const s = _NS(_P('a'));
    s.children.descend({ fieldName: 'a' });
    s.children.descend({ fieldName: 'b' });
    assert.equal(s.toJSON(), '{"f:a":{},"f:b":{}}');
    assert.deepEqual(s.toFieldsV1(), { 'f:a': {}, 'f:b': {} });
  });
});
