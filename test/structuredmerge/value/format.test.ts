/**
 * How values print and serialize as SMD's Go code prints them: fmt's %v of
 * ints and floats and %q of strings inside paths (value.ToString), and
 * jsoniter's standard-library-compatible JSON inside fieldsV1 keys.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatGoFloat, formatNumber, goJSON, goJSONString, goQuote, valueToString } from '../../../runtime/apimachinery/structuredmerge/value/index.js';

describe('value.ToString', () => {
  test('numbers: integral as int64, others as %v of float64', () => {
    assert.equal(formatNumber(5), '5');
    assert.equal(formatNumber(-2147483648), '-2147483648');
    assert.equal(formatNumber(3.14159), '3.14159');
    assert.equal(formatGoFloat(1e6), '1e+06');
    assert.equal(formatGoFloat(123456.5), '123456.5');
    assert.equal(formatGoFloat(0.0001), '0.0001');
    assert.equal(formatGoFloat(0.00001234), '1.234e-05');
    assert.equal(formatGoFloat(1.5e300), '1.5e+300');
    assert.equal(formatGoFloat(-0), '-0');
  });
  test('strings as strconv.Quote', () => {
    assert.equal(goQuote('plain'), '"plain"');
    assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goQuote('\n\t\r\x07\b\f\v'), '"\\n\\t\\r\\a\\b\\f\\v"');
    assert.equal(goQuote('\x01\x7f'), '"\\x01\\x7f"');
    assert.equal(goQuote('\u00a0\u2028'), '"\\u00a0\\u2028"');
    assert.equal(goQuote('ünïcødé 🚀 你好'), '"ünïcødé 🚀 你好"');
    // A lone surrogate is what Go's JSON decoder makes U+FFFD of; strconv.Quote prints that printable rune as it is.
    assert.equal(goQuote('\ud800'), '"\ufffd"');
  });
  test('lists and maps', () => {
    assert.equal(valueToString([1, 'a', null, true, [2.5]]), '[1,"a",null,true,[2.5]]');
    assert.equal(valueToString({ b: 1, a: { c: 'x' } }), 'a=c="x"b=1');
    assert.equal(valueToString([]), '[]');
    assert.equal(valueToString({}), '');
  });
  test('values deeper than the call stack print', () => {
    let v: unknown = 1;
    for (let i = 0; i < 50_000; i++) v = [v];
    assert.equal(valueToString(v).length, 100_001);
  });
});

describe('JSON as SMD writes it', () => {
  test('strings: HTML characters, U+2028/9, \\b and \\f escaped as Go does', () => {
    assert.equal(goJSONString('a<b>&c'), '"a\\u003cb\\u003e\\u0026c"');
    assert.equal(goJSONString('\u2028\u2029'), '"\\u2028\\u2029"');
    assert.equal(goJSONString('\b\f\n\r\t\x01"\\'), '"\\u0008\\u000c\\n\\r\\t\\u0001\\"\\\\"');
    assert.equal(goJSONString('🚀'), '"🚀"');
    assert.equal(goJSONString('x\udc00'), '"x\\ufffd"');
  });
  test('objects with keys in byte order, compact', () => {
    assert.equal(goJSON({ b: [1, 2.5, null], a: { d: true, c: 'x' } }), '{"a":{"c":"x","d":true},"b":[1,2.5,null]}');
    assert.equal(goJSON({ '\uff61': 1, '🚀': 2 }), '{"｡":1,"🚀":2}');
    assert.equal(goJSON(JSON.parse('{"__proto__":1}')), '{"__proto__":1}');
  });
  test('values deeper than the call stack are written', () => {
    let v: unknown = 'x';
    for (let i = 0; i < 50_000; i++) v = { k: v };
    assert.equal(goJSON(v).length, 50_000 * 6 + 3);
  });
});
