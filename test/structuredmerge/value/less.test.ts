/**
 * sigs.k8s.io/structured-merge-diff value/less_test.go, on decoded JSON:
 * Go's 1. and 1 are both the JS number 1 (SMD compares ints and floats by
 * numeric value, so the cases hold as written), and SMD's invalid value is
 * `undefined`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareValues, valueEquals, valueLess, type Value } from '../../../runtime/apimachinery/structuredmerge/value/index.js';

const invalidValue = undefined;

interface Case {
  readonly name: string;
  readonly a: Value;
  readonly b: Value;
  readonly eq?: boolean;
}

const table: Case[] = [
  { name: 'Invalid-1', a: invalidValue, b: invalidValue, eq: true },
  { name: 'Invalid-2', a: 1.5, b: invalidValue },
  { name: 'Invalid-3', a: 1, b: invalidValue },
  { name: 'Invalid-4', a: 'aoeu', b: invalidValue },
  { name: 'Invalid-5', a: true, b: invalidValue },
  { name: 'Invalid-6', a: [], b: invalidValue },
  { name: 'Invalid-7', a: {}, b: invalidValue },
  { name: 'Invalid-8', a: null, b: invalidValue },
  { name: 'Float-1', a: 1.14, b: 3.14 },
  { name: 'Float-2', a: 1.0, b: 1.0, eq: true },
  { name: 'Float-3', a: 1.0, b: 1, eq: true },
  { name: 'Float-4', a: 1.0, b: 2 },
  { name: 'Float-5', a: 1.0, b: 'aoeu' },
  { name: 'Float-6', a: 1.0, b: true },
  { name: 'Float-7', a: 1.0, b: [] },
  { name: 'Float-8', a: 1.0, b: {} },
  { name: 'Float-9', a: 1.0, b: null },
  { name: 'Int-1', a: 1, b: 2 },
  { name: 'Int-2', a: 1, b: 1, eq: true },
  { name: 'Int-3', a: 1, b: 1.0, eq: true },
  { name: 'Int-4', a: 1, b: 2.0 },
  { name: 'Int-5', a: 1, b: 'aoeu' },
  { name: 'Int-6', a: 1, b: true },
  { name: 'Int-7', a: 1, b: [] },
  { name: 'Int-8', a: 1, b: {} },
  { name: 'Int-9', a: 1, b: null },
  { name: 'String-1', a: 'b-12', b: 'b-9' },
  { name: 'String-2', a: 'folate', b: 'folate', eq: true },
  { name: 'String-3', a: 'folate', b: true },
  { name: 'String-4', a: 'folate', b: [] },
  { name: 'String-5', a: 'folate', b: {} },
  { name: 'String-6', a: 'folate', b: null },
  { name: 'Bool-1', a: false, b: true },
  { name: 'Bool-2', a: false, b: false, eq: true },
  { name: 'Bool-3', a: true, b: true, eq: true },
  { name: 'Bool-4', a: false, b: [] },
  { name: 'Bool-5', a: false, b: {} },
  { name: 'Bool-6', a: false, b: null },
  { name: 'List-1', a: [], b: [], eq: true },
  { name: 'List-2', a: [1], b: [1], eq: true },
  { name: 'List-3', a: [1], b: [2] },
  { name: 'List-4', a: [1], b: [1, 1] },
  { name: 'List-5', a: [1, 1], b: [2] },
  { name: 'List-6', a: [], b: {} },
  { name: 'List-7', a: [], b: null },
  { name: 'Map-1', a: { carotine: 1 }, b: { carotine: 1 }, eq: true },
  { name: 'Map-2', a: { carotine: 1 }, b: { carotine: 2 } },
  { name: 'Map-3', a: { carotine: 1 }, b: { ethanol: 1 } },
  { name: 'Map-4', a: { carotine: 1 }, b: { ethanol: 1, carotine: 2 } },
  { name: 'Map-5', a: { carotine: 1 }, b: { carotine: 1, ethanol: 1 } },
  { name: 'Map-6', a: { carotine: 1, ethanol: 1 }, b: { carotine: 2 } },
  { name: 'Map-7', a: {}, b: null },
];

describe('TestValueLess', () => {
  for (const tt of table) {
    test(tt.name, () => {
      if (tt.eq) {
        assert.ok(valueEquals(tt.a, tt.b), 'a != b');
        assert.ok(valueEquals(tt.b, tt.a), 'b != a');
        assert.ok(!valueLess(tt.a, tt.b), 'a < b');
        assert.equal(compareValues(tt.a, tt.b), 0);
        assert.equal(compareValues(tt.b, tt.a), 0);
      } else {
        assert.ok(!valueEquals(tt.a, tt.b), 'a == b');
        assert.ok(!valueEquals(tt.b, tt.a), 'b == a');
        assert.ok(valueLess(tt.a, tt.b), 'a >= b');
        assert.ok(compareValues(tt.a, tt.b) < 0);
        assert.ok(compareValues(tt.b, tt.a) > 0);
      }
      assert.ok(!valueLess(tt.b, tt.a), 'b < a');
    });
  }
});

describe('value order on decoded JSON', () => {
  test('strings compare by UTF-8 bytes as Go does, not by UTF-16 units', () => {
    // U+FF61 is one UTF-16 unit above the high surrogate of U+1F680, but below it in code points.
    assert.ok(compareValues('\uff61', '🚀') < 0);
    assert.ok(compareValues('🚀', '\uff61') > 0);
    assert.ok(compareValues('a', 'ab') < 0);
  });

  test('map keys named __proto__ and constructor are data', () => {
    const a: unknown = JSON.parse('{"__proto__":1,"constructor":2}');
    const b: unknown = JSON.parse('{"__proto__":1,"constructor":3}');
    assert.ok(compareValues(a, b) < 0);
    assert.ok(!valueEquals(a, b));
    assert.ok(valueEquals(a, JSON.parse('{"constructor":2,"__proto__":1}')));
    assert.ok(!valueEquals({}, JSON.parse('{"__proto__":{}}')));
    assert.ok(compareValues({}, JSON.parse('{"constructor":1}')) < 0);
  });

  test('map equality ignores key order; comparison walks keys in byte order', () => {
    assert.ok(valueEquals({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }));
    assert.equal(compareValues({ b: 1, a: 2 }, { a: 2, b: 1 }), 0);
    assert.ok(compareValues({ a: 1, b: 2 }, { a: 1, b: 3 }) < 0);
  });

  test('values nested deeper than the call stack compare and equal without overflow', () => {
    const deep = (leaf: Value): Value => {
      let v: Value = leaf;
      for (let i = 0; i < 50_000; i++) v = i % 2 === 0 ? [v] : { k: v };
      return v;
    };
    assert.equal(compareValues(deep(1), deep(1)), 0);
    assert.ok(compareValues(deep(1), deep(2)) < 0);
    assert.ok(valueEquals(deep('x'), deep('x')));
    assert.ok(!valueEquals(deep('x'), deep('y')));
  });
});
