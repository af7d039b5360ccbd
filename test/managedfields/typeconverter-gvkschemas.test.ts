// The schemas of this repository's kinds as the field manager sees them (gvk-schemas.ts): every
// served kind converts, kinds are typed by their published OpenAPI definition (the markers kube's
// OpenAPI carries) with their documents' definitions as named types (recursive ones too), a
// version without a document falls back to the validation schema.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { coreGroup } from '../../generated/registry/core.js';
import { apiextensionsGroup } from '../../generated/registry/apiextensions.js';
import { kindSchemas } from '../../runtime/apimachinery/managedfields/gvk-schemas.js';
import { newTypeConverter } from '../../runtime/apimachinery/managedfields/typeconverter.js';

describe('kindSchemas', () => {
  for (const group of apiGroups) {
    const kinds = new Set(group.versions.flatMap((v) => v.resources.map((r) => r.kind)));
    for (const kind of kinds) {
      test(`${group.name || 'core'} ${kind} converts in every served version`, () => {
        const schemas = kindSchemas(group, kind);
        assert.equal(schemas.length, group.versions.filter((v) => v.resources.some((r) => r.kind === kind)).length);
        const tc = newTypeConverter(schemas, { preserveUnknownFields: false });
        for (const s of schemas) {
          const obj = { apiVersion: s.apiVersion, kind, metadata: { name: 'n', labels: { a: 'b' } } };
          assert.equal(tc.typedToObject(tc.objectToTyped(obj)), obj);
        }
      });
    }
  }

  test('Service ports are keyed by port and protocol, as kube keys them (the validation schema leaves that to the strategy)', () => {
    const tc = newTypeConverter(kindSchemas(coreGroup, 'Service'), { preserveUnknownFields: false });
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }, { port: 80, protocol: 'UDP' }] } };
    // A missing protocol is the key's default, TCP.
    assert.deepEqual(tc.objectToTyped(svc).toFieldSet().toFieldsV1(), {
      'f:apiVersion': {},
      'f:kind': {},
      'f:metadata': { 'f:name': {} },
      'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {} }, 'k:{"port":80,"protocol":"UDP"}': { '.': {}, 'f:port': {}, 'f:protocol': {} } } },
    });
  });

  test('the same schema objects from one call to the next', () => {
    const a = kindSchemas(coreGroup, 'ConfigMap');
    const b = kindSchemas(coreGroup, 'ConfigMap');
    assert.equal(a[0]?.schema, b[0]?.schema);
    assert.equal(a[0]?.name, 'io.k8s.api.core.v1.ConfigMap');
  });

  test('a recursive definition (JSONSchemaProps) is typed from the published document too', () => {
    const [crd] = kindSchemas(apiextensionsGroup, 'CustomResourceDefinition');
    const v = apiextensionsGroup.versions[0];
    assert.equal(crd?.name, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition');
    assert.equal(crd?.definitions, v?.openapi?.components.schemas);
    assert.equal(crd?.schema, v?.openapi?.components.schemas[crd?.name ?? '']);
  });

  test('a version without a document falls back to the validation schema', () => {
    const v = apiextensionsGroup.versions[0];
    assert.ok(v !== undefined);
    const [crd] = kindSchemas({ name: apiextensionsGroup.name, versions: [{ name: v.name, resources: v.resources }] }, 'CustomResourceDefinition');
    assert.equal(crd?.schema, v.resources.find((x) => x.kind === 'CustomResourceDefinition')?.schema);
    assert.equal(crd?.definitions, undefined);
  });

  test('a kind no version serves', () => {
    assert.deepEqual(kindSchemas(coreGroup, 'Nope'), []);
  });
});
