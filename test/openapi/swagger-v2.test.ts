import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { openAPIFromGroupDefinition, toGnosticDocument, toSwaggerV2, type OpenAPIV3Document } from '../../runtime/server/openapi/index.js';

const documents: OpenAPIV3Document[] = apiGroups.flatMap((def) => openAPIFromGroupDefinition(def).map((gv) => gv.document));

function single(schemas: Record<string, unknown>): OpenAPIV3Document {
  return { openapi: '3.0.0', info: { title: 't', version: 'v' }, paths: {}, components: { schemas } } as OpenAPIV3Document;
}

/** Every object of a JSON value, depth first, except maps keyed by property name (whose keys are data). */
function* nodes(value: unknown): Generator<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const v of value) yield* nodes(v);
    return;
  }
  yield value as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) {
    if (k === 'properties' || k === 'definitions' || k === 'paths') for (const each of Object.values(v as object)) yield* nodes(each);
    else yield* nodes(v);
  }
}

describe('toSwaggerV2: references as Swagger 2.0 readers follow them', () => {
  const v2 = toSwaggerV2(documents);
  const definitions = v2.definitions as Record<string, { properties?: Record<string, unknown> }>;

  it('writes a described reference as a plain $ref beside its description (kube-openapi’s v2 form)', () => {
    assert.deepEqual(definitions['io.k8s.api.core.v1.Service']?.properties?.['spec'], {
      $ref: '#/definitions/io.k8s.api.core.v1.ServiceSpec',
      description: 'The desired state of the Service.',
    });
  });

  it('leaves no allOf anywhere in the built-in document, and every $ref resolves', () => {
    for (const node of nodes(v2)) {
      assert.equal(node['allOf'], undefined, JSON.stringify(node).slice(0, 200));
      const ref = node['$ref'];
      if (typeof ref === 'string') assert.ok(definitions[ref.replace('#/definitions/', '')], `${ref} resolves`);
    }
  });

  it('drops value-validation allOf (no reference) as kube’s CRD v2 builder does, and keeps an own $ref first', () => {
    const out = toSwaggerV2([
      single({
        A: { type: 'object', properties: { n: { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 3 }] }, r: { $ref: '#/components/schemas/B', description: 'own' } } },
        B: { type: 'object' },
      }),
    ]);
    assert.deepEqual((out.definitions as Record<string, unknown>)['A'], {
      type: 'object',
      properties: { n: { type: 'integer' }, r: { $ref: '#/definitions/B', description: 'own' } },
    });
  });

  it('gives gnostic a Schema whose ref field is set (what kubectl 1.27/1.28 decode)', () => {
    const doc = toGnosticDocument(v2) as {
      definitions: { additionalProperties: { name: string; value: { properties: { additionalProperties: { name: string; value: Record<string, unknown> }[] } } }[] };
    };
    const service = doc.definitions.additionalProperties.find((d) => d.name === 'io.k8s.api.core.v1.Service')!;
    const spec = service.value.properties.additionalProperties.find((p) => p.name === 'spec')!.value;
    assert.equal(spec['ref'], '#/definitions/io.k8s.api.core.v1.ServiceSpec');
    assert.equal(spec['allOf'], undefined);
  });
});
