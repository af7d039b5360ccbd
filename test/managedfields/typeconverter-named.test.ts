// Named types in the typeconverter, as kube-openapi's schemaconv (makeOpenAPIRef,
// ToSchemaFromOpenAPI) converts OpenAPI definitions with `$ref`s: each referenced definition is
// one named type (so recursive definitions terminate), the referring schema contributes only
// its map type and nullability, Quantity and RawExtension are typed by name, a definition that
// is itself a reference makes no type. Then the CustomResourceDefinition kind typed from its
// published definition, as kube-apiserver types it: versions atomic (kube records
// `f:versions: {}`), and inside, JSONSchemaProps with x-kubernetes-validations keyed by rule,
// properties granular, required atomic.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { apiextensionsGroup } from '../../generated/registry/apiextensions.js';
import { kindSchemas } from '../../runtime/apimachinery/managedfields/gvk-schemas.js';
import type { GVKSchema } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import { newTypeConverter } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import type { TypeRef } from '../../runtime/apimachinery/structuredmerge/schema/index.js';
import { findField } from '../../runtime/apimachinery/structuredmerge/schema/index.js';
import { TypedValue } from '../../runtime/apimachinery/structuredmerge/typed/index.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const gvk = { apiVersion: 'example.com/v1', kind: 'K' };
const K = 'io.k8s.testcase.K';
const ref = (name: string): JSONSchemaProps => ({ $ref: `#/components/schemas/${name}` });

/** A kind K defined as `K` among `definitions`, as an OpenAPI document publishes it. */
function kind(definitions: Record<string, unknown>): GVKSchema {
  return { ...gvk, name: K, schema: definitions[K] as JSONSchemaProps, definitions };
}

/** The field set of `obj` (a K) as its string form, or the error typing it. */
function fieldSetOf(definitions: Record<string, unknown>, obj: JSONObject): string {
  try {
    const tc = newTypeConverter([kind(definitions)], { preserveUnknownFields: false });
    return tc
      .objectToTyped({ ...gvk, ...obj })
      .toFieldSet()
      .toString();
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

/** The type of field `f` of K. */
function fieldType(definitions: Record<string, unknown>): TypeRef {
  const tv = newTypeConverter([kind(definitions)], { preserveUnknownFields: false }).objectToTyped({ ...gvk });
  const map = tv.schema.resolve(tv.typeRef)?.map;
  assert.ok(map !== undefined);
  const f = findField(map, 'f');
  assert.ok(f !== undefined);
  return f.type;
}

const B: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string' } } };
const withField = (f: JSONSchemaProps, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  [K]: { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, f } },
  'io.k8s.testcase.B': B,
  ...extra,
});

describe('schemaconv named types', () => {
  const cases: Array<[string, JSONSchemaProps, TypeRef]> = [
    ['$ref', ref('io.k8s.testcase.B'), { namedType: 'io.k8s.testcase.B' }],
    ['allOf with one $ref', { allOf: [ref('io.k8s.testcase.B')], description: 'd' }, { namedType: 'io.k8s.testcase.B' }],
    ['map type beside the reference', { allOf: [ref('io.k8s.testcase.B')], 'x-kubernetes-map-type': 'atomic' }, { namedType: 'io.k8s.testcase.B', elementRelationship: 'atomic' }],
    ['nullable beside the reference', { ...ref('io.k8s.testcase.B'), nullable: true }, { namedType: 'io.k8s.testcase.B', nullable: true }],
    ['other markers beside the reference do not apply', { allOf: [ref('io.k8s.testcase.B')], 'x-kubernetes-preserve-unknown-fields': true }, { namedType: 'io.k8s.testcase.B' }],
  ];
  for (const [name, f, want] of cases) test(name, () => assert.deepEqual(fieldType(withField(f)), want));

  test('the referring schema does not make the named type keep unknown fields', () => {
    const defs = withField({ allOf: [ref('io.k8s.testcase.B')], 'x-kubernetes-preserve-unknown-fields': true });
    assert.equal(fieldSetOf(defs, { f: { a: 'x' } }), '.apiVersion\n.kind\n.f.a');
    assert.equal(fieldSetOf(defs, { f: { z: 'x' } }), 'error: .f.z: field not declared in schema');
  });

  test('a recursive definition converts once and types values of any depth', () => {
    const defs = {
      [K]: { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, tree: ref('io.k8s.testcase.Node') } },
      'io.k8s.testcase.Node': {
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: ref('io.k8s.testcase.Node'), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] } },
      },
    };
    assert.equal(
      fieldSetOf(defs, { tree: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] } }),
      [
        '.apiVersion',
        '.kind',
        '.tree.name',
        '.tree.children[name="b"]',
        '.tree.children[name="b"].name',
        '.tree.children[name="b"].children[name="c"]',
        '.tree.children[name="b"].children[name="c"].name',
      ].join('\n'),
    );
  });

  test('Quantity and RawExtension are typed by name, whatever their definitions say', () => {
    const defs = {
      [K]: {
        type: 'object',
        properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, q: ref('io.k8s.apimachinery.pkg.api.resource.Quantity'), raw: ref('io.k8s.apimachinery.pkg.runtime.RawExtension') },
      },
      'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
      'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
    };
    // An untyped scalar takes a number as well as a string; a RawExtension is one leaf.
    assert.equal(fieldSetOf(defs, { q: 1, raw: { a: { b: 1 } } }), '.apiVersion\n.kind\n.q\n.raw');
  });

  test('metadata refers to ObjectMeta, typed as every resource root types it', () => {
    const defs = withField({ type: 'string' }, {});
    (defs[K] as { properties: Record<string, unknown> }).properties['metadata'] = ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    assert.equal(fieldSetOf(defs, { metadata: { name: 'n', finalizers: ['a'] } }), '.apiVersion\n.kind\n.metadata.name\n.metadata.finalizers[="a"]');
  });

  test('a definition that is itself a reference makes no type (kube skips it)', () => {
    const defs = withField(ref('io.k8s.testcase.Alias'), { 'io.k8s.testcase.Alias': ref('io.k8s.testcase.B') });
    assert.equal(fieldSetOf(defs, {}), '.apiVersion\n.kind');
    assert.match(fieldSetOf(defs, { f: { a: 'x' } }), /^error: .*io\.k8s\.testcase\.Alias/);
  });

  test('a reference to no definition is a conversion error naming the referrer', () => {
    assert.equal(fieldSetOf(withField(ref('io.k8s.testcase.Missing')), {}), 'error: failed to convert models to schema: io.k8s.testcase.K: unresolvable reference to io.k8s.testcase.Missing');
  });

  test('errors in a referenced definition name it', () => {
    const defs = withField(ref('io.k8s.testcase.C'), {
      'io.k8s.testcase.C': { type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' } }, 'x-kubernetes-map-type': 'odd' },
    });
    assert.equal(fieldSetOf(defs, {}), 'error: failed to convert models to schema: inlined in io.k8s.testcase.C: unknown list type bag\nio.k8s.testcase.C: unknown map type odd');
  });

  test('__proto__ and constructor as definition names are data', () => {
    const text = `{
      "${K}": {"type": "object", "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
        "p": {"$ref": "#/components/schemas/__proto__"}, "c": {"$ref": "#/components/schemas/constructor"}}},
      "__proto__": {"type": "object", "properties": {"__proto__": {"type": "integer"}}}
    }`;
    // constructor names no definition of the document (not Object.prototype.constructor).
    assert.equal(fieldSetOf(JSON.parse(text) as Record<string, unknown>, {}), 'error: failed to convert models to schema: io.k8s.testcase.K: unresolvable reference to constructor');
    const defs = JSON.parse(text.replace(', "c": {"$ref": "#/components/schemas/constructor"}', '')) as Record<string, unknown>;
    assert.equal(fieldSetOf(defs, JSON.parse('{"p": {"__proto__": 1}}') as JSONObject), '.apiVersion\n.kind\n.p.__proto__');
  });

  test('a referenced definition is converted once for every converter', () => {
    const defs = withField(ref('io.k8s.testcase.B'));
    const atom = (): unknown => {
      const tv = newTypeConverter([kind(defs)], { preserveUnknownFields: false }).objectToTyped({ ...gvk });
      return tv.schema.resolve({ namedType: 'io.k8s.testcase.B' })?.map;
    };
    assert.equal(atom(), atom());
  });
});

const JSON_SCHEMA_PROPS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
const crdTypeConverter = newTypeConverter(kindSchemas(apiextensionsGroup, 'CustomResourceDefinition'), { preserveUnknownFields: false });
const gatewayClasses = parse(readFileSync(join(repoRoot, 'test/codegen/fixtures/crds/gateway-api/standard/gateway.networking.k8s.io_gatewayclasses.yaml'), 'utf8')) as JSONObject;

/** A JSONSchemaProps value typed as the CRD kind's schema types it. */
function schemaProps(v: JSONObject): TypedValue {
  const tv = crdTypeConverter.objectToTyped(gatewayClasses);
  return TypedValue.asTyped(v, tv.schema, { namedType: JSON_SCHEMA_PROPS });
}

describe('the CustomResourceDefinition kind', () => {
  test('typed from its published definition: versions is atomic, as kube records it (f:versions: {})', () => {
    assert.deepEqual(crdTypeConverter.objectToTyped(gatewayClasses).toFieldSet().toFieldsV1(), {
      'f:apiVersion': {},
      'f:kind': {},
      'f:metadata': {
        'f:annotations': { 'f:api-approved.kubernetes.io': {}, 'f:gateway.networking.k8s.io/bundle-version': {}, 'f:gateway.networking.k8s.io/channel': {} },
        'f:name': {},
      },
      'f:spec': { 'f:group': {}, 'f:names': { 'f:categories': {}, 'f:kind': {}, 'f:listKind': {}, 'f:plural': {}, 'f:shortNames': {}, 'f:singular': {} }, 'f:scope': {}, 'f:versions': {} },
    });
  });

  test('status conditions are keyed by type', () => {
    const obj = { ...gatewayClasses, status: { conditions: [{ type: 'Established', status: 'True' }], storedVersions: ['v1'] } };
    const fs = crdTypeConverter.objectToTyped(obj).toFieldSet().toFieldsV1() as { 'f:status': unknown };
    assert.deepEqual(fs['f:status'], { 'f:conditions': { 'k:{"type":"Established"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:storedVersions': {} });
  });

  test('x-kubernetes-validations in a version schema are keyed by rule: a duplicate rule is invalid', () => {
    const crd = structuredClone(gatewayClasses) as { spec: { versions: Array<{ schema: { openAPIV3Schema: JSONObject } }> } };
    const schema = crd.spec.versions[0]?.schema.openAPIV3Schema;
    assert.ok(schema !== undefined);
    schema['x-kubernetes-validations'] = [{ rule: 'true' }, { rule: 'true', message: 'again' }];
    assert.throws(
      () => crdTypeConverter.objectToTyped(crd as unknown as JSONObject),
      /\.spec\.versions\[0\]\.schema\.openAPIV3Schema\.x-kubernetes-validations: duplicate entries for key \[rule="true"\]/,
    );
  });

  test('JSONSchemaProps: x-kubernetes-validations by rule, properties granular, required atomic', () => {
    const v = schemaProps({
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != ""', message: 'empty' }] } },
    });
    assert.deepEqual(v.toFieldSet().toFieldsV1(), {
      'f:properties': { 'f:a': { '.': {}, 'f:type': {}, 'f:x-kubernetes-validations': { 'k:{"rule":"self != \\"\\""}': { '.': {}, 'f:message': {}, 'f:rule': {} } } } },
      'f:required': {},
      'f:type': {},
    });
  });

  test('JSONSchemaProps merges properties by name and validations by rule, replaces required whole', () => {
    const live = schemaProps({ required: ['a'], properties: { a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'r1' }] } } });
    const applied = schemaProps({ required: ['b'], properties: { a: { 'x-kubernetes-validations': [{ rule: 'r2' }] }, b: { type: 'integer' } } });
    assert.deepEqual(live.merge(applied).value, {
      required: ['b'],
      properties: { a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'r1' }, { rule: 'r2' }] }, b: { type: 'integer' } },
    });
  });

  test('every v1 CRD manifest of the fixtures (Gateway API, cert-manager, prometheus-operator, Argo CD) types, its versions one leaf', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.yaml') ? [p] : [];
      });
    let typed = 0;
    for (const f of files(join(repoRoot, 'test/codegen/fixtures/crds'))) {
      for (const doc of parseAllDocuments(readFileSync(f, 'utf8'))) {
        const o = doc.toJS() as JSONObject | null;
        if (o?.['kind'] !== 'CustomResourceDefinition' || o['apiVersion'] !== 'apiextensions.k8s.io/v1') continue;
        const spec = crdTypeConverter.objectToTyped(o).toFieldSet().toFieldsV1()['f:spec'] as Record<string, unknown>;
        assert.deepEqual(spec['f:versions'], {}, f);
        typed++;
      }
    }
    assert.ok(typed >= 40, `${typed} CRDs typed`);
  });

  test('deeply nested JSONSchemaProps type through the one named type', () => {
    let s: JSONObject = { type: 'string' };
    for (let i = 0; i < 200; i++) s = { type: 'object', properties: { p: s } };
    assert.equal(schemaProps(s).toFieldSet().size(), 2 * 200 + 1);
  });
});
