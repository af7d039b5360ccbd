import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { applyDefaults, fieldSchema, propertySchema, prune, pruneNonNullableNullsWithoutDefaults, validateEmbeddedResources, validateListSetsAndMaps } from './index.js';

// Client keys named like Object's members are fields: looked up as own properties of the schema.

const parse = (s: string): Record<string, unknown> => JSON.parse(s) as Record<string, unknown>;

describe('schema lookups by a client key', () => {
  afterEach(() => assert.deepEqual(Object.keys(Object.prototype), []));
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { a: { type: 'string', default: 'd' } } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };

  test('propertySchema and fieldSchema never return Object members', () => {
    for (const k of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
      assert.equal(propertySchema(schema, k), undefined, k);
      assert.equal(fieldSchema(schema, k), undefined, k);
      assert.deepEqual(fieldSchema(schema.properties?.['labels'], k), { type: 'string' });
    }
  });

  test('unknown __proto__ and constructor fields are pruned at the root, in metadata and below', () => {
    const obj = parse(
      '{"apiVersion":"v1","kind":"K","metadata":{"name":"a","__proto__":{"isAdmin":true},"constructor":1},"__proto__":{"x":1},"constructor":{"prototype":{}},"spec":{"a":"x","__proto__":2,"toString":3}}',
    );
    const pruned = prune(obj, schema, { isResourceRoot: true });
    assert.deepEqual(pruned, ['metadata.__proto__', 'metadata.constructor', '__proto__', 'constructor', 'spec.__proto__', 'spec.toString']);
    assert.equal(JSON.stringify(obj), '{"apiVersion":"v1","kind":"K","metadata":{"name":"a"},"spec":{"a":"x"}}');
  });

  test('such keys are kept where the schema keeps unknown fields or maps every key', () => {
    const obj = parse('{"free":{"__proto__":{"a":1},"constructor":"c"},"labels":{"__proto__":"p","constructor":"c"}}');
    assert.deepEqual(prune(obj, schema, { isResourceRoot: false }), []);
    assert.equal(JSON.stringify(obj), '{"free":{"__proto__":{"a":1},"constructor":"c"},"labels":{"__proto__":"p","constructor":"c"}}');
  });

  test('defaulting and null pruning read only own properties', () => {
    const obj = parse('{"spec":{"constructor":null,"__proto__":null},"labels":{"constructor":null}}');
    applyDefaults(obj, schema);
    pruneNonNullableNullsWithoutDefaults(obj, schema);
    assert.equal(JSON.stringify(obj), '{"spec":{"constructor":null,"__proto__":null,"a":"d"},"labels":{}}');
  });

  test('list-map keys named constructor are read as fields', () => {
    const s: JSONSchemaProps = { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['constructor'], items: { type: 'object' } };
    assert.deepEqual(
      validateListSetsAndMaps([{}, {}], s, 'l').map((e) => e.field),
      ['l[1]'],
    );
    assert.deepEqual(validateListSetsAndMaps([{ constructor: 'a' }, { constructor: 'b' }], s, 'l'), []);
    assert.deepEqual(validateEmbeddedResources(parse('{"constructor":{}}'), { type: 'object', properties: {} }), []);
  });
});
