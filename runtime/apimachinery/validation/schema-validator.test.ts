import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { formatFieldError } from './field.js';
import { FLOAT_LITERAL_KEYS, isFloat64AJSONInteger } from './gofloat.js';
import { SchemaValidator } from './schema-validator.js';

const validator = new SchemaValidator();
const errors = (schema: JSONSchemaProps, value: unknown): string[] => validator.validate(schema, value).map(formatFieldError);
const marked = <T extends object>(o: T, ...keys: string[]): T => Object.defineProperty(o, FLOAT_LITERAL_KEYS, { value: new Set(keys) });

const SPEC: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['image', 'name'],
      properties: {
        image: { type: 'string', maxLength: 3, pattern: '^a' },
        replicas: { type: 'integer', maximum: 10, minimum: 5 },
        size: { type: 'integer', format: 'int32' },
        when: { type: 'string', format: 'date-time' },
        port: { 'x-kubernetes-int-or-string': true },
        list: { type: 'array', maxItems: 1, items: { type: 'integer' } },
        n: { type: 'number', nullable: true },
        s: { type: 'string' },
      },
    },
  },
};

describe('kube-openapi typeValidator (swag v0.23.0 IsFloat64AJSONInteger)', () => {
  test('IsFloat64AJSONInteger: whole values within ±(2^53-1), and a relative error under 1e-9 above', () => {
    assert.deepEqual([1, -1, 0, 2 ** 53 - 1, 1e20, 2 ** 53, 1.5, -1.5, 600000000.5, -600000000.5, 0.5].map(isFloat64AJSONInteger), [
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
  });
  test('a float64 (1.0, marked) passes type integer; beyond 2^53 it is a "number", and bounds print Go %v of a float64', () => {
    assert.deepEqual(errors(SPEC, { spec: marked({ image: 'a', name: 'n', replicas: 6 }, 'replicas') }), []);
    assert.deepEqual(errors(SPEC, { spec: marked({ image: 'a', name: 'n', replicas: 1e20 }, 'replicas') }), [
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
      'spec.replicas: Invalid value: 1e+20: spec.replicas in body should be less than or equal to 10',
    ]);
    assert.deepEqual(errors(SPEC, { spec: marked({ image: 'a', name: 'n', replicas: 1000000 }, 'replicas') }), [
      'spec.replicas: Invalid value: 1e+06: spec.replicas in body should be less than or equal to 10',
    ]);
    assert.deepEqual(errors(SPEC, { spec: { image: 'a', name: 'n', replicas: 1000000 } }), ['spec.replicas: Invalid value: 1000000: spec.replicas in body should be less than or equal to 10']);
  });
  test('with a format, a value neither string nor list must have the type or the format', () => {
    assert.deepEqual(errors(SPEC, { spec: { image: 'a', name: 'n', size: true, when: 5, s: 1.5 } }), [
      'spec.size: Invalid value: "": spec.size in body must be of type int32: ""',
      'spec.when: Invalid value: "int64": spec.when in body must be of type date-time: "int64"',
      'spec.s: Invalid value: "number": spec.s in body must be of type string: "number"',
    ]);
    // A list passes a non-numeric type with a format (typeValidator returns early for it).
    assert.deepEqual(errors(SPEC, { spec: { image: 'a', name: 'n', size: [1], when: [] } }), ['spec.size: Invalid value: "array": spec.size in body must be of type integer: "array"']);
    assert.deepEqual(errors(SPEC, { spec: { image: 'a', name: 'n', size: 3000000000 } }), []);
  });
  test('int-or-string is [integer, string]; null needs nullable', () => {
    assert.deepEqual(errors(SPEC, { spec: marked({ image: 'a', name: 'n', port: 80, n: null }, 'port') }), []);
    assert.deepEqual(errors(SPEC, { spec: { image: 'a', name: 'n', port: true, s: null } }), [
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      'spec.s: Invalid value: "null": spec.s in body must be of type string: "null"',
    ]);
  });
});

describe('the order of kube-openapi SchemaValidator errors', () => {
  // Go ranges over a schema's properties in random order: ours keep the schema's.
  test("an object's properties before its Required; a string's first failing check only; a list's items before its count", () => {
    assert.deepEqual(errors(SPEC, { spec: { replicas: 'x', image: 'bbbb', list: [1, 'x', 2] } }), [
      'spec.image: Too long: may not be more than 3 bytes',
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      'spec.list[1]: Invalid value: "string": spec.list[1] in body must be of type integer: "string"',
      'spec.list: Too many: must have at most 1 items',
      'spec.name: Required value',
    ]);
  });
  test('minimum before maximum; additional properties before declared ones; hostile keys are data', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      required: ['__proto__'],
      properties: { a: { type: 'integer', minimum: 5, maximum: 1 }, __proto__: { type: 'string' } } as Record<string, JSONSchemaProps>,
      additionalProperties: { type: 'string' },
    };
    assert.deepEqual(errors(schema, JSON.parse('{"a":3,"constructor":1,"__proto__":2}')), [
      'constructor: Invalid value: "integer": constructor in body must be of type string: "integer"',
      '__proto__: Invalid value: "integer": __proto__ in body must be of type string: "integer"',
      'a: Invalid value: 3: a in body should be greater than or equal to 5',
      'a: Invalid value: 3: a in body should be less than or equal to 1',
    ]);
  });
});
