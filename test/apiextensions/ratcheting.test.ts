// Validation ratcheting on its own (kube-openapi's ratcheting validator, as CRDValidationRatcheting
// applies it): which schema errors an update keeps, given the stored object.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { ratchetedAt } from '../../runtime/apimachinery/schema/correlation.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { SchemaValidator } from '../../runtime/apimachinery/validation/schema-validator.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['must'],
      properties: {
        must: { type: 'string' },
        name: { type: 'string', maxLength: 3 },
        other: { type: 'string' },
        map: { type: 'object', additionalProperties: { type: 'string', maxLength: 3 } },
        atomic: { type: 'array', items: { type: 'string', maxLength: 3 } },
        keyed: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer', maximum: 9 } } },
        },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

const validator = new SchemaValidator();
const errors = (obj: unknown, old?: unknown): string[] => validator.validate(schema, obj, old === undefined ? undefined : ratchetedAt(schema, obj, old)).map(formatFieldError);

const stored = {
  spec: {
    name: 'toolong',
    // Decoded as a request body is: `__proto__` an own key like any other.
    map: JSON.parse('{"__proto__": "toolong", "a/b": "toolong", "keep": "x"}') as Record<string, string>,
    atomic: ['toolong'],
    keyed: [{ k: 'a', v: 10 }],
  },
};

describe('validation ratcheting', () => {
  test('without an old object every error counts; an unchanged object has none', () => {
    assert.equal(errors(stored).length, 6);
    assert.deepEqual(errors(structuredClone(stored), stored), []);
  });

  test('an unchanged invalid property is ratcheted, a changed one is not', () => {
    const obj = structuredClone(stored);
    obj.spec.map.keep = 'y';
    assert.deepEqual(errors({ ...obj, spec: { ...obj.spec, must: 'x' } }, stored), []);
    assert.deepEqual(errors({ spec: { ...obj.spec, must: 'x', name: 'toolonger' } }, stored), ['spec.name: Too long: may not be more than 3 bytes']);
  });

  test('a required field still missing is reported once its parent changed (the error is raised at the parent)', () => {
    assert.deepEqual(errors({ spec: { ...stored.spec, other: 'x' } }, stored), ['spec.must: Required value']);
  });

  test('map values correlate by key, whatever the key (prototype names, slashes)', () => {
    const map = JSON.parse('{"__proto__": "toolong", "a/b": "long", "keep": "x"}') as Record<string, string>;
    assert.deepEqual(errors({ spec: { ...stored.spec, must: 'x', map } }, stored), ['spec.map["a/b"]: Too long: may not be more than 3 bytes']);
  });

  test('list-type=map items correlate by key; plain list items never do', () => {
    const keyed = {
      spec: {
        ...stored.spec,
        must: 'x',
        keyed: [
          { k: 'b', v: 11 },
          { k: 'a', v: 10 },
        ],
      },
    };
    assert.deepEqual(errors(keyed, stored), ['spec.keyed[0].v: Invalid value: 11: spec.keyed[0].v in body should be less than or equal to 9']);
    const atomic = { spec: { ...stored.spec, must: 'x', atomic: ['toolong', 'ok'] } };
    assert.deepEqual(errors(atomic, stored), ['spec.atomic[0]: Too long: may not be more than 3 bytes']);
  });
});
