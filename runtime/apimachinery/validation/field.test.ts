import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError, formatGoFloat, goSyntax } from './field.js';

describe('formatFieldError (field.Error.ErrorBody, v0.32)', () => {
  it('a nil bad value is the string "null", printed with %q', () => {
    assert.equal(
      formatFieldError({
        type: 'FieldValueInvalid',
        field: '<nil>',
        badValue: null,
        detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      }),
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
    assert.equal(formatFieldError({ type: 'FieldValueDuplicate', field: 'a', badValue: undefined, detail: '' }), 'a: Duplicate value: "null"');
  });
  it("a string is %q: control bytes as \\xNN, not JSON's \\u00NN", () => {
    assert.equal(
      formatFieldError({ type: 'FieldValueInvalid', field: 'fieldManager', badValue: 'a\x01b', detail: 'invalid character U+0001 (at position 1)' }),
      'fieldManager: Invalid value: "a\\x01b": invalid character U+0001 (at position 1)',
    );
  });
  it('a number is int64 when it is one, else float64 %v', () => {
    assert.equal(formatFieldError({ type: 'FieldValueInvalid', field: 'spec.replicas', badValue: -1, detail: 'x' }), 'spec.replicas: Invalid value: -1: x');
    assert.equal(formatFieldError({ type: 'FieldValueInvalid', field: 'spec.replicas', badValue: 1e20, detail: 'x' }), 'spec.replicas: Invalid value: 1e+20: x');
    assert.equal(formatFieldError({ type: 'FieldValueInvalid', field: 'spec.ratio', badValue: 1.5, detail: 'x' }), 'spec.ratio: Invalid value: 1.5: x');
  });
  it('Required, Forbidden, TooLong and Internal never show the value', () => {
    assert.equal(formatFieldError({ type: 'FieldValueRequired', field: 'a', badValue: '', detail: '' }), 'a: Required value');
    assert.equal(formatFieldError({ type: 'FieldValueTooLong', field: 'a', badValue: 'xxxx', detail: 'may not be more than 3 bytes' }), 'a: Too long: may not be more than 3 bytes');
  });
});

describe('formatGoFloat (fmt %v of a float64)', () => {
  it('uses %e when the exponent is < -4 or >= 6 (strconv g, shortest)', () => {
    assert.deepEqual([1e20, 1e6, 123456, 123456.5, 0.0001, 0.00001, 1.5e-5, -2.25, 1e21, 1, -0, NaN, Infinity, -Infinity].map(formatGoFloat), [
      '1e+20',
      '1e+06',
      '123456',
      '123456.5',
      '0.0001',
      '1e-05',
      '1.5e-05',
      '-2.25',
      '1e+21',
      '1',
      '-0',
      'NaN',
      '+Inf',
      '-Inf',
    ]);
  });
});

describe('goSyntax (%#v of unstructured values)', () => {
  it('maps as map[string]interface {} with sorted keys, lists as []interface {}', () => {
    assert.equal(goSyntax({ name: 'a' }).text, 'map[string]interface {}{"name":"a"}');
    assert.equal(goSyntax({ port: 80, protocol: 'TCP', A: 1.5 }).text, 'map[string]interface {}{"A":1.5, "port":80, "protocol":"TCP"}');
    assert.equal(goSyntax(['x', 1, null, true, {}, []]).text, '[]interface {}{"x", 1, interface {}(nil), true, map[string]interface {}{}, []interface {}{}}');
  });
  it('keys from clients are data', () => {
    const m = JSON.parse('{"__proto__":{"a":"\\u0001"},"constructor":1}') as unknown;
    assert.equal(goSyntax(m).text, 'map[string]interface {}{"__proto__":map[string]interface {}{"a":"\\x01"}, "constructor":1}');
  });
  it('keys sort by UTF-8 bytes as Go compares strings', () => {
    assert.equal(goSyntax({ '\u{1f600}': 1, '\uff5e': 2 }).text, 'map[string]interface {}{"\uff5e":2, "\u{1f600}":1}');
  });
});
