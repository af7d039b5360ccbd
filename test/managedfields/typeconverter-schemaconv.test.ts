// The conversion rules of kube-openapi's schemaconv (ToSchemaFromOpenAPI) as our typeconverter
// applies them to structural schemas: scalar kinds, list and map types, the patch markers of
// built-in kinds, preserve-unknown-fields, ObjectMeta at a resource root and in embedded resources.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { newTypeConverter } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import type { Atom, TypeRef } from '../../runtime/apimachinery/structuredmerge/schema/index.js';
import { findField } from '../../runtime/apimachinery/structuredmerge/schema/index.js';

const gvk = { apiVersion: 'example.com/v1', kind: 'K' };
const deduced: TypeRef = { namedType: '__untyped_deduced_' };

/** The root atom of a kind with `schema`. */
function rootAtom(schema: JSONSchemaProps, preserveUnknownFields = false): Atom {
  const tv = newTypeConverter([{ ...gvk, schema, name: 'io.k8s.testcase.K' }], { preserveUnknownFields }).objectToTyped({ ...gvk });
  const atom = tv.schema.resolve(tv.typeRef);
  assert.ok(atom !== undefined);
  return atom;
}

/** The type of field `f` of a kind whose only declared field `f` has schema `s`. */
function fieldType(s: JSONSchemaProps): TypeRef {
  const map = rootAtom({ type: 'object', properties: { f: s } }).map;
  assert.ok(map !== undefined);
  const field = findField(map, 'f');
  assert.ok(field !== undefined);
  return field.type;
}

/** The field set of `obj` (a K) as its string form, or the error converting it. */
function fieldSetOf(schema: JSONSchemaProps, obj: JSONObject, preserveUnknownFields = false): string {
  const tc = newTypeConverter([{ ...gvk, schema }], { preserveUnknownFields });
  try {
    return tc
      .objectToTyped({ ...gvk, ...obj })
      .toFieldSet()
      .toString();
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

describe('schemaconv scalars', () => {
  const cases: Array<[string, JSONSchemaProps, TypeRef]> = [
    ['integer', { type: 'integer', format: 'int64' }, { scalar: 'numeric' }],
    ['number', { type: 'number' }, { scalar: 'numeric' }],
    ['boolean', { type: 'boolean' }, { scalar: 'boolean' }],
    ['string', { type: 'string' }, { scalar: 'string' }],
    ['byte', { type: 'string', format: 'byte' }, { scalar: 'string' }],
    ['date-time', { type: 'string', format: 'date-time' }, { scalar: 'untyped' }],
    ['nullable', { type: 'string', nullable: true }, { scalar: 'string', nullable: true }],
    [
      'int-or-string (no type)',
      { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      { scalar: 'untyped', list: { elementType: { namedType: '__untyped_atomic_' }, elementRelationship: 'atomic' }, map: { fields: [], elementType: deduced } },
    ],
  ];
  for (const [name, s, want] of cases) test(name, () => assert.deepEqual(fieldType(s), want));
});

describe('schemaconv maps', () => {
  const cases: Array<[string, JSONSchemaProps, TypeRef]> = [
    ['Empty', { type: 'object' }, { map: { fields: [], elementType: deduced } }],
    ['EmptyPreserveUnknownFieldsObject', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, { map: { fields: [], elementType: deduced } }],
    [
      'PopulatedPreserveUnknownFieldsObject',
      { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { innerField: { type: 'string' } } },
      { map: { fields: [{ name: 'innerField', type: { scalar: 'string' } }], elementType: deduced } },
    ],
    [
      'AtomicMapField',
      { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
      { map: { fields: [], elementType: { scalar: 'string' }, elementRelationship: 'atomic' } },
    ],
    [
      'granular',
      { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular' },
      { map: { fields: [], elementType: { scalar: 'string' }, elementRelationship: 'separable' } },
    ],
    ['properties only: unknown keys are invalid', { type: 'object', properties: { a: { type: 'string' } } }, { map: { fields: [{ name: 'a', type: { scalar: 'string' } }] } }],
    ['additionalProperties: false', { type: 'object', additionalProperties: false }, { map: { fields: [] } }],
    [
      'additionalProperties: true',
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
      { map: { fields: [{ name: 'a', type: { scalar: 'string' } }], elementType: deduced } },
    ],
    ['defaults', { type: 'object', properties: { a: { type: 'string', default: 'x' } } }, { map: { fields: [{ name: 'a', type: { scalar: 'string' }, default: 'x' }] } }],
  ];
  for (const [name, s, want] of cases) test(name, () => assert.deepEqual(fieldType(s), want));

  test('preserve-unknown-fields reaches every object below it', () => {
    const s: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { inner: { type: 'object', properties: { a: { type: 'string' } } } } };
    assert.equal(fieldSetOf({ type: 'object', properties: { f: s } }, { f: { inner: { a: 'x', b: { c: 1 } } } }), '.apiVersion\n.kind\n.f.inner.a\n.f.inner.b\n.f.inner.b.c');
    assert.equal(fieldSetOf({ type: 'object', properties: { g: s.properties?.['inner'] ?? {} } }, { g: { b: 1 } }), 'error: .g.b: field not declared in schema');
  });

  test('preserveUnknownFields for the whole kind (a CRD with spec.preserveUnknownFields)', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } };
    assert.equal(fieldSetOf(s, { spec: { b: 1 } }), 'error: .spec.b: field not declared in schema');
    assert.equal(fieldSetOf(s, { spec: { b: 1 }, other: 'x' }, true), '.apiVersion\n.kind\n.other\n.spec.b');
  });
});

describe('schemaconv lists', () => {
  const items: JSONSchemaProps = { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } };
  const itemType = fieldType({ type: 'array', items }) as { list: { elementType: TypeRef } };
  const list = (extra: Record<string, unknown>): TypeRef => fieldType({ type: 'array', items, ...extra } as JSONSchemaProps);
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['no markers: atomic', {}, { elementRelationship: 'atomic' }],
    ['list-type atomic', { 'x-kubernetes-list-type': 'atomic' }, { elementRelationship: 'atomic' }],
    ['list-type set', { 'x-kubernetes-list-type': 'set' }, { elementRelationship: 'associative' }],
    ['list-type map', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port'] }, { elementRelationship: 'associative', keys: ['name', 'port'] }],
    ['patch strategy merge with a key', { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' }, { elementRelationship: 'associative', keys: ['name'] }],
    ['patch strategy merge,retainKeys', { 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'name' }, { elementRelationship: 'associative', keys: ['name'] }],
    ['patch strategy merge without a key: a set', { 'x-kubernetes-patch-strategy': 'merge' }, { elementRelationship: 'associative' }],
    ['patch strategy retainKeys', { 'x-kubernetes-patch-strategy': 'retainKeys' }, { elementRelationship: 'atomic' }],
    [
      'the list type wins over the patch strategy',
      { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'name'], 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'port' },
      { elementRelationship: 'associative', keys: ['port', 'name'] },
    ],
  ];
  for (const [name, extra, want] of cases) test(name, () => assert.deepEqual(list(extra), { list: { elementType: itemType.list.elementType, ...want } }));

  test('an associative list merges by its keys', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { ports: { type: 'array', items, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port'] } } };
    assert.equal(fieldSetOf(s, { ports: [{ name: 'a', port: 1 }] }), '.apiVersion\n.kind\n.ports[name="a",port=1]\n.ports[name="a",port=1].name\n.ports[name="a",port=1].port');
    assert.equal(
      fieldSetOf(s, {
        ports: [
          { name: 'a', port: 1 },
          { name: 'a', port: 1 },
        ],
      }),
      'error: .ports: duplicate entries for key [name="a",port=1]',
    );
  });
});

describe('schemaconv resources', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
      },
    },
  };

  test('metadata at the root is ObjectMeta, apiVersion and kind are strings', () => {
    const obj = { metadata: { name: 'a', finalizers: ['f'], ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'o', uid: 'u' }], labels: { l: 'v' } } };
    assert.equal(fieldSetOf(s, obj), ['.apiVersion', '.kind', '.metadata.name', '.metadata.finalizers[="f"]', '.metadata.labels.l', '.metadata.ownerReferences[uid="u"]'].join('\n'));
    assert.equal(fieldSetOf(s, { metadata: { bogus: 1 } }), 'error: .metadata.bogus: field not declared in schema');
  });

  test('an embedded resource has TypeMeta and ObjectMeta', () => {
    const obj = { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', finalizers: ['f'] }, spec: { a: [1] } } } };
    assert.equal(
      fieldSetOf(s, obj),
      // A key the schema does not declare is a leaf too (its value may be anything), as in SMD.
      [
        '.apiVersion',
        '.kind',
        '.spec.template.apiVersion',
        '.spec.template.kind',
        '.spec.template.spec',
        '.spec.template.metadata.name',
        '.spec.template.metadata.finalizers[="f"]',
        '.spec.template.spec.a',
      ].join('\n'),
    );
  });

  test('a kind is converted once per schema and flag', () => {
    const a = rootAtom(s);
    const b = rootAtom(s);
    assert.equal(a.map, b.map);
    assert.notEqual(rootAtom(s, true).map, a.map);
  });
});

describe('schemaconv field names are data', () => {
  const s = { type: 'object', properties: JSON.parse('{"__proto__": {"type": "string"}, "constructor": {"type": "integer"}}') as Record<string, JSONSchemaProps> } as JSONSchemaProps;
  test('__proto__ and constructor as declared fields', () => {
    assert.equal(fieldSetOf(s, JSON.parse('{"__proto__": "x", "constructor": 1}') as JSONObject), '.__proto__\n.apiVersion\n.constructor\n.kind');
  });
  test('__proto__ undeclared', () => {
    const t: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string' } } };
    assert.equal(fieldSetOf(t, JSON.parse('{"__proto__": "x"}') as JSONObject), 'error: .__proto__: field not declared in schema');
  });
});

describe('schemaconv errors', () => {
  const convert = (s: JSONSchemaProps): string => {
    try {
      newTypeConverter([{ ...gvk, schema: s, name: 'io.k8s.testcase.K' }], { preserveUnknownFields: false });
      return 'ok';
    } catch (err) {
      return (err as Error).message;
    }
  };
  const cases: Array<[string, JSONSchemaProps, string]> = [
    ['unknown list type', { type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' } } }, 'inlined in io.k8s.testcase.K: unknown list type bag'],
    ['missing map keys', { type: 'object', properties: { l: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'map' } } }, 'inlined in io.k8s.testcase.K: missing map keys'],
    ['unknown map type', { type: 'object', properties: { m: { type: 'object', 'x-kubernetes-map-type': 'fine' } } }, 'inlined in io.k8s.testcase.K: unknown map type fine'],
    [
      'unknown patch strategy',
      { type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'glue' } as JSONSchemaProps } },
      'inlined in io.k8s.testcase.K: unknown patch strategy glue',
    ],
    [
      'items as a list',
      { type: 'object', properties: { l: { type: 'array', items: [{ type: 'string' }] } } },
      'inlined in io.k8s.testcase.K: structural schema arrays must have exactly one member subtype',
    ],
    ['array without items', { type: 'object', properties: { l: { type: 'array' } } }, 'inlined in io.k8s.testcase.K: `items` must be specified on arrays'],
    ['unrecognized type', { type: 'object', properties: { o: { type: 'object', properties: { x: { type: 'null' } } } } }, "inlined in inlined in io.k8s.testcase.K: unrecognized type: 'null'"],
    ['root', { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' }, 'io.k8s.testcase.K: unknown list type bag'],
  ];
  for (const [name, s, want] of cases) test(name, () => assert.equal(convert(s), `failed to convert models to schema: ${want}`));

  test('every problem, one per line', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { a: { type: 'array' }, b: { type: 'object', 'x-kubernetes-map-type': 'x' } } };
    assert.equal(convert(s), 'failed to convert models to schema: inlined in io.k8s.testcase.K: `items` must be specified on arrays\ninlined in io.k8s.testcase.K: unknown map type x');
  });
});

describe('schemaconv deep schemas', () => {
  test('a schema nested deeper than the stack is an error, not a crash', () => {
    let s: JSONSchemaProps = { type: 'string' };
    for (let i = 0; i < 50000; i++) s = { type: 'object', properties: { a: s } };
    assert.throws(() => newTypeConverter([{ ...gvk, schema: s, name: 'io.k8s.testcase.K' }], { preserveUnknownFields: false }), {
      message: 'failed to convert models to schema: io.k8s.testcase.K: schema is nested too deeply',
    });
  });
});
