import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import namespaceSchema from '../../../generated/schemas/core/v1/namespace.json' with { type: 'json' };
import { formatFieldError } from '../validation/field.js';
import { applyDefaults, objectMetaSchema, objectMetaTypeSchema, prune, pruneNonNullableNullsWithoutDefaults, validateListSetsAndMaps } from './index.js';

const spec: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, mode: { type: 'string', default: 'rw' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string', default: 'x' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } },
        embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: {} } } },
        nullableField: { type: 'string', nullable: true },
        plain: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        byName: { type: 'object', additionalProperties: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
      },
    },
  },
};

describe('prune', () => {
  const cases: Array<{ name: string; in: unknown; out: unknown; pruned: string[]; root?: boolean; schema?: JSONSchemaProps }> = [
    { name: 'unknown spec field', in: { spec: { replicas: 2, foo: 1 } }, out: { spec: { replicas: 2 } }, pruned: ['spec.foo'] },
    { name: 'inside array items', in: { spec: { items: [{ name: 'a', x: 1 }, { y: 2 }] } }, out: { spec: { items: [{ name: 'a' }, {}] } }, pruned: ['spec.items[0].x', 'spec.items[1].y'] },
    { name: 'additionalProperties keeps every key', in: { spec: { labels: { a: 'b', c: 'd' } } }, out: { spec: { labels: { a: 'b', c: 'd' } } }, pruned: [] },
    {
      name: 'preserve-unknown-fields keeps unknown, prunes inside known',
      in: { spec: { free: { any: { deep: 1 }, known: { a: 'x', b: 'y' } } } },
      out: { spec: { free: { any: { deep: 1 }, known: { a: 'x' } } } },
      pruned: ['spec.free.known.b'],
    },
    {
      name: 'embedded resource keeps type meta, prunes metadata as ObjectMeta',
      in: { spec: { embedded: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n', bogus: 1 }, spec: { z: 1 }, other: 1 } } },
      out: { spec: { embedded: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n' }, spec: {} } } },
      pruned: ['spec.embedded.metadata.bogus', 'spec.embedded.other', 'spec.embedded.spec.z'],
    },
    {
      name: 'root keeps apiVersion/kind/metadata; unknown metadata fields pruned',
      root: true,
      in: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n', labels: { a: 'b' }, foo: 1, managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': {} } }] }, status: {} },
      out: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n', labels: { a: 'b' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': {} } }] } },
      pruned: ['metadata.foo', 'status'],
    },
    {
      name: "root: metadata's unknown fields lead, as the CR codec reads ObjectMeta before it prunes",
      root: true,
      in: { apiVersion: 'v1', kind: 'X', aTop: 1, metadata: { name: 'n', zMeta: 2 }, spec: { replicas: 1, foo: 1 } },
      out: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n' }, spec: { replicas: 1 } },
      pruned: ['metadata.zMeta', 'aTop', 'spec.foo'],
    },
    { name: 'non-root drops apiVersion too', in: { apiVersion: 'v1', spec: {} }, out: { spec: {} }, pruned: ['apiVersion'] },
    {
      name: 'Namespace schema: spec.foo',
      root: true,
      schema: namespaceSchema as JSONSchemaProps,
      in: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' }, spec: { finalizers: ['kubernetes'], foo: true } },
      out: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' }, spec: { finalizers: ['kubernetes'] } },
      pruned: ['spec.foo'],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const obj = structuredClone(c.in);
      assert.deepEqual(prune(obj, c.schema ?? spec, { isResourceRoot: c.root ?? false }), c.pruned);
      assert.deepEqual(obj, c.out);
    });
  }
  test('deeply nested unknown arrays do not exhaust the stack', () => {
    const deep = JSON.parse(`{"spec":{"foo":${'['.repeat(9000)}{"a":1}${']'.repeat(9000)}}}`) as unknown;
    assert.deepEqual(prune(deep, spec, { isResourceRoot: false }), ['spec.foo']);
  });
  test('ObjectMeta schema carries the patch markers', () => {
    assert.equal(objectMetaSchema.properties?.['ownerReferences']?.['x-kubernetes-patch-merge-key' as keyof JSONSchemaProps], 'uid');
    assert.equal(
      objectMetaSchema.properties?.['ownerReferences']?.items && !Array.isArray(objectMetaSchema.properties['ownerReferences'].items)
        ? objectMetaSchema.properties['ownerReferences'].items.properties?.['uid']?.type
        : undefined,
      'string',
    );
  });
});

describe('applyDefaults', () => {
  const cases: Array<{ name: string; in: unknown; out: unknown }> = [
    { name: 'missing property', in: { spec: {} }, out: { spec: { replicas: 1 } } },
    { name: 'present property kept', in: { spec: { replicas: 3 } }, out: { spec: { replicas: 3 } } },
    { name: 'non-nullable null replaced', in: { spec: { replicas: null } }, out: { spec: { replicas: 1 } } },
    {
      name: 'array items',
      in: { spec: { items: [{ name: 'a' }, { name: 'b', mode: 'ro' }] } },
      out: {
        spec: {
          replicas: 1,
          items: [
            { name: 'a', mode: 'rw' },
            { name: 'b', mode: 'ro' },
          ],
        },
      },
    },
    { name: 'additionalProperties null', in: { spec: { labels: { a: null, b: 'y' } } }, out: { spec: { replicas: 1, labels: { a: 'x', b: 'y' } } } },
    { name: 'no spec, no defaulting of spec', in: {}, out: {} },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const obj = structuredClone(c.in);
      applyDefaults(obj, spec);
      assert.deepEqual(obj, c.out);
    });
  }
  test('defaults are deep copies', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { a: { type: 'object', default: { x: [1] } } } };
    const one: Record<string, { x: number[] }> = {};
    const two: Record<string, { x: number[] }> = {};
    applyDefaults(one, s);
    applyDefaults(two, s);
    one['a']?.x.push(2);
    assert.deepEqual(two, { a: { x: [1] } });
  });
  test('pruneNonNullableNullsWithoutDefaults', () => {
    const obj = { spec: { plain: null, nullableField: null, replicas: null, labels: { a: null } } };
    pruneNonNullableNullsWithoutDefaults(obj, spec);
    assert.deepEqual(obj, { spec: { nullableField: null, replicas: null, labels: { a: null } } });
  });
});

describe('validateListSetsAndMaps', () => {
  test('set duplicates, once per value', () => {
    const errs = validateListSetsAndMaps({ spec: { tags: ['a', 'b', 'a', 'a', 'b'] } }, spec).map(formatFieldError);
    assert.deepEqual(errs, ['spec.tags[2]: Duplicate value: "a"', 'spec.tags[4]: Duplicate value: "b"']);
  });
  test('map duplicates by key tuple', () => {
    const errs = validateListSetsAndMaps(
      {
        spec: {
          ports: [
            { port: 80, protocol: 'TCP' },
            { port: 80, protocol: 'UDP' },
            { protocol: 'TCP', port: 80, name: 'x' },
          ],
        },
      },
      spec,
    ).map(formatFieldError);
    assert.deepEqual(errs, ['spec.ports[2]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}']);
  });
  test('map element not an object', () => {
    assert.deepEqual(validateListSetsAndMaps({ spec: { ports: [1] } }, spec).map(formatFieldError), ['spec.ports[0]: Invalid value: 1: must be an object for an array of list-type map']);
  });
  test('inside additionalProperties uses [key] paths', () => {
    assert.deepEqual(validateListSetsAndMaps({ spec: { byName: { k: ['x', 'x'] } } }, spec).map(formatFieldError), ['spec.byName[k][1]: Duplicate value: "x"']);
  });
  test('compound set members compare by content', () => {
    const s: JSONSchemaProps = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
    assert.equal(
      validateListSetsAndMaps(
        [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
        s,
        'list',
      ).length,
      1,
    );
  });
});

describe('objectMetaTypeSchema', () => {
  test('ownerReferences keep their types but require nothing (the typed decode does not)', () => {
    const ref = objectMetaTypeSchema.properties?.['ownerReferences']?.items;
    assert.ok(ref !== undefined && !Array.isArray(ref));
    assert.equal(ref.required, undefined);
    assert.equal(ref.properties?.['uid']?.type, 'string');
    const orig = objectMetaSchema.properties?.['ownerReferences']?.items;
    assert.ok(orig !== undefined && !Array.isArray(orig) && (orig.required ?? []).includes('uid'));
  });
});
