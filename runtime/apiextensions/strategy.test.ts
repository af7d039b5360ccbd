import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatFieldError } from '../apimachinery/validation/field.js';
import type { KubeObject } from '../registry/rest.js';
import { FLOAT_LITERAL_KEYS } from '../apimachinery/validation/gofloat.js';
import { customResourceStrategy } from './strategy.js';

const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
const strategy = customResourceStrategy(scale);
const validate = (obj: unknown): string[] => (strategy.validate?.(obj as KubeObject) ?? []).map(formatFieldError);

describe('customResourceStrategy scale checks (ValidateScaleSpec / ValidateScaleStatus, v0.32.9)', () => {
  test('a replica count that is not an int64 is an accessor error with Go %v and %T', () => {
    assert.deepEqual(validate({ spec: { replicas: 1.5 } }), ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64']);
    assert.deepEqual(validate({ spec: { replicas: 1e20 } }), ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1e+20 is of the type float64, expected int64']);
    assert.deepEqual(validate({ spec: { replicas: '2' } }), ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 2 is of the type string, expected int64']);
    assert.deepEqual(validate({ spec: { replicas: true } }), ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: true is of the type bool, expected int64']);
    assert.deepEqual(validate({ spec: { replicas: { b: 1, a: 'x' } } }), [
      '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: map[a:x b:1] is of the type map[string]interface {}, expected int64',
    ]);
    assert.deepEqual(validate({ spec: { replicas: null } }), ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: <nil> is of the type <nil>, expected int64']);
  });
  test("a step of the path that is not an object is NestedFieldNoCopy's error", () => {
    assert.deepEqual(validate({ spec: ['a', 1] }), ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: [a 1] is of the type []interface {}, expected map[string]interface{}']);
    assert.deepEqual(validate({ spec: null }), []);
  });
  test('negative and above int32', () => {
    assert.deepEqual(validate({ spec: { replicas: -1 } }), ['.spec.replicas: Invalid value: -1: should be a non-negative integer']);
    assert.deepEqual(validate({ status: { replicas: 2147483648 } }), ['.status.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647']);
  });
  test('a whole number the decoder marked as a float64 literal (1.0) is a float64', () => {
    const spec = { replicas: 1 };
    Object.defineProperty(spec, FLOAT_LITERAL_KEYS, { value: new Set(['replicas']), enumerable: false });
    assert.deepEqual(validate({ spec }), ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1 is of the type float64, expected int64']);
  });
  test('the label selector must be a string', () => {
    assert.deepEqual(validate({ status: { selector: 5 } }), ['.status.selector: Invalid value: "": .status.selector accessor error: 5 is of the type int64, expected string']);
  });
});
