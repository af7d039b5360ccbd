// CRD kinds in /openapi/v2 as kube's CRD v2 builder publishes them (ToStructuralOpenAPIV2 and its
// test cases in apiextensions-apiserver pkg/controller/openapi/v2, buildKubeNative's v2 branch,
// PruneDefaults), through the OpenAPIService that merges the documents.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { crdGroupVersionOpenAPI } from '../../runtime/apiextensions/controllers/index.js';
import { crdSwaggerV2Schemas } from '../../runtime/apiextensions/controllers/openapi-builder.js';
import { pruneDefaults, toStructuralOpenAPIV2 } from '../../runtime/apiextensions/controllers/openapi-v2.js';
import { OpenAPIService } from '../../runtime/server/openapi/index.js';
import { newCRD } from '../apiextensions/controllers-helpers.js';

type Schema = Record<string, unknown>;

describe('toStructuralOpenAPIV2 (kube’s cases)', () => {
  const cases: ReadonlyArray<[string, Schema, Schema]> = [
    ['description', { description: 'test' }, { description: 'test' }],
    ['type and format', { type: 'string', format: 'test2' }, { type: 'string', format: 'test2' }],
    ['nullable', { type: 'object', nullable: true }, {}],
    [
      'nullable required',
      { type: 'object', properties: { a: { nullable: true, type: 'string' }, b: { nullable: true, type: 'string' }, c: { type: 'string' } }, required: ['a', 'c'] },
      { type: 'object', properties: { a: {}, b: {}, c: { type: 'string' } }, required: ['c'] },
    ],
    ['nullable required additionalProperties', { type: 'object', additionalProperties: { nullable: true, type: 'string' }, required: ['a', 'c'] }, { type: 'object', additionalProperties: {} }],
    ['nullable drops items and properties', { type: 'array', nullable: true, items: { type: 'string' } }, {}],
    ['allOf', { allOf: [{ type: 'boolean' }, { type: 'string' }] }, {}],
    ['oneOf', { oneOf: [{ type: 'boolean' }, { type: 'string' }] }, {}],
    ['anyOf', { anyOf: [{ type: 'boolean' }, { type: 'string' }] }, {}],
    ['not', { not: { type: 'boolean' } }, {}],
    ['int-or-string keeps only its extension', { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, { 'x-kubernetes-int-or-string': true }],
    [
      'preserve-unknown-fields object: no type, items or properties',
      { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } }, description: 'd' },
      { 'x-kubernetes-preserve-unknown-fields': true, description: 'd' },
    ],
    ['an array left without items has no type', { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } }, { 'x-kubernetes-preserve-unknown-fields': true }],
    ['items', { type: 'array', items: { type: 'boolean' } }, { type: 'array', items: { type: 'boolean' } }],
    ['properties', { properties: { test: { type: 'boolean' } } }, { properties: { test: { type: 'boolean' } } }],
    ['additionalProperties schema', { additionalProperties: { type: 'boolean' } }, { additionalProperties: { type: 'boolean' } }],
    [
      'validations are kept',
      { type: 'integer', minimum: 1, maximum: 6.4, enum: [1, 2], 'x-kubernetes-validations': [{ rule: 'self > 0' }] },
      { type: 'integer', minimum: 1, maximum: 6.4, enum: [1, 2], 'x-kubernetes-validations': [{ rule: 'self > 0' }] },
    ],
    [
      'nested: a nullable child is untyped after its parent drops it from required',
      { type: 'object', properties: { spec: { type: 'object', required: ['x'], properties: { x: { type: 'object', nullable: true, properties: { y: { type: 'string' } } } } } } },
      { type: 'object', properties: { spec: { type: 'object', properties: { x: {} } } } },
    ],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => {
      const before = structuredClone(input);
      assert.deepEqual(toStructuralOpenAPIV2(input), want);
      assert.deepEqual(input, before, 'the input is not mutated');
    });
  }

  it('a property named __proto__ is data', () => {
    const input = JSON.parse('{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"string","nullable":true}}}') as Schema;
    const out = toStructuralOpenAPIV2(input);
    assert.deepEqual(Object.keys(out['properties'] as object), ['__proto__']);
    assert.equal(out['required'], undefined);
  });

  it('pruneDefaults removes default at every node', () => {
    const input = { type: 'object', default: {}, properties: { a: { type: 'integer', default: 1 } }, items: { default: 'x' }, additionalProperties: { type: 'string', default: 'y' } };
    assert.deepEqual(pruneDefaults(input), { type: 'object', properties: { a: { type: 'integer' } }, items: {}, additionalProperties: { type: 'string' } });
  });
});

const G = 'v2.example.com';
const KIND_DEFINITION = 'com.example.v2.v1.Widget';
const GVK = [{ group: G, kind: 'Widget', version: 'v1' }];

function established(crd: CustomResourceDefinition): CustomResourceDefinition {
  return { ...crd, status: { conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'm' }] } };
}

function widgetCRD(schema: Schema, o: { preserveUnknownFields?: boolean } = {}): CustomResourceDefinition {
  const crd = newCRD(G, 'widgets', 'Widget', { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema as never } }] });
  if (o.preserveUnknownFields !== undefined) crd.spec.preserveUnknownFields = o.preserveUnknownFields;
  return established(crd);
}

/** The Widget definition of the merged /openapi/v2, as the OpenAPIService serves it with the CRD controller's inputs. */
function servedV2(crd: CustomResourceDefinition): Schema {
  const service = new OpenAPIService();
  service.setGroupVersion(G, 'v1', crdGroupVersionOpenAPI(G, 'v1', [crd])!, crdSwaggerV2Schemas(G, 'v1', [crd]));
  const doc = JSON.parse(service.swaggerV2().body.toString()) as { definitions: Record<string, Schema> };
  return doc.definitions[KIND_DEFINITION]!;
}

const METADATA_V2 = {
  $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
};

describe('CRD kinds in /openapi/v2', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['note', 'port'],
        properties: {
          note: { type: 'string', nullable: true },
          tags: { type: 'array', nullable: true, items: { type: 'string' } },
          port: { 'x-kubernetes-int-or-string': true },
          replicas: { type: 'integer', default: 1, minimum: 0 },
          config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'string' } } },
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          ref: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'string' } } },
          choice: { type: 'string', oneOf: [{ enum: ['a'] }, { enum: ['b'] }] },
        },
      },
    },
  };

  it('are cut down as kube’s builder cuts them; /openapi/v3 keeps the full schema', () => {
    const crd = widgetCRD(schema);
    const v2 = servedV2(crd);
    assert.deepEqual(v2['x-kubernetes-group-version-kind'], GVK);
    assert.deepEqual((v2['properties'] as Record<string, unknown>)['metadata'], METADATA_V2);
    const spec = (v2['properties'] as Record<string, Schema>)['spec']!;
    const props = spec['properties'] as Record<string, Schema>;
    assert.deepEqual(spec['required'], ['port']);
    assert.deepEqual(props['note'], {});
    assert.deepEqual(props['tags'], {});
    assert.deepEqual(props['port'], { 'x-kubernetes-int-or-string': true });
    assert.deepEqual(props['replicas'], { type: 'integer', minimum: 0 });
    assert.deepEqual(props['config'], { 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(props['template'], { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }, 'no embedded properties under preserved fields');
    assert.deepEqual(Object.keys(props['ref']!['properties'] as object).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
    assert.deepEqual(props['ref']!['required'], ['kind', 'apiVersion']);
    assert.deepEqual(props['choice'], { type: 'string' });

    const v3 = crdGroupVersionOpenAPI(G, 'v1', [crd])!.components.schemas[KIND_DEFINITION] as Schema;
    const v3props = (v3['properties'] as Record<string, Schema>)['spec']!['properties'] as Record<string, Schema>;
    assert.deepEqual(v3props['note'], { type: 'string', nullable: true });
    assert.deepEqual(v3props['template']!['required'], ['kind', 'apiVersion']);
  });

  it('a root that preserves unknown fields, or a CRD with spec.preserveUnknownFields, is an open object', () => {
    assert.deepEqual(servedV2(widgetCRD({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'object' } } })), {
      type: 'object',
      'x-kubernetes-group-version-kind': GVK,
    });
    assert.deepEqual(servedV2(widgetCRD(schema, { preserveUnknownFields: true })), { type: 'object', 'x-kubernetes-group-version-kind': GVK });
  });
});
