import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { importKubernetes, type LoadedDocument, loadDocuments, OpenAPIImportError } from '../../generator/openapi-import/index.js';

// Faithful or fail: what the import cannot represent as kube publishes it is an error naming the
// document and the JSON pointer, never a weaker type. Each case edits a copy of kube's
// coordination.k8s.io/v1 document (or core/v1's, for definitions two documents share).

const [lease, core] = [loadDocuments(['apis/coordination.k8s.io/v1.json'])[0]!, loadDocuments(['api/v1.json'])[0]!];
const FILE = 'generator/openapi-import/kube-1.32/apis/coordination.k8s.io/v1.json';
const SCHEMAS = '#/components/schemas';

type Json = Record<string, unknown>;

function edited(doc: LoadedDocument, edit: (document: { components: { schemas: Record<string, Json> }; paths: Record<string, Record<string, Json>> }) => void): LoadedDocument {
  const document = structuredClone(doc.document) as Parameters<typeof edit>[0];
  edit(document);
  return { ...doc, document };
}

function importError(...docs: LoadedDocument[]): string {
  try {
    importKubernetes(docs);
  } catch (err) {
    assert.ok(err instanceof OpenAPIImportError, String(err));
    return err.message;
  }
  assert.fail('the import succeeded');
}

const spec = (d: Parameters<Parameters<typeof edited>[1]>[0]) => d.components.schemas['io.k8s.api.coordination.v1.LeaseSpec']!['properties'] as Record<string, Json>;

describe('the import fails at the document and JSON pointer', () => {
  test('a keyword a structural schema does not have', () => {
    const doc = edited(lease, (d) => {
      spec(d)['holderIdentity'] = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
    });
    assert.equal(
      importError(doc),
      `${FILE}${SCHEMAS}/io.k8s.api.coordination.v1.LeaseSpec/properties/holderIdentity/oneOf: unsupported keyword "oneOf" (a tuple, a junctor outside kube's scalars, or an unknown extension)`,
    );
  });

  test('an unsupported type, and allOf that is not one reference', () => {
    const doc = edited(lease, (d) => {
      spec(d)['renewTime'] = { type: 'null' };
      spec(d)['acquireTime'] = { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' }, { type: 'string' }] };
    });
    const message = importError(doc);
    assert.match(message, new RegExp(`^${escape(`${FILE}${SCHEMAS}/io.k8s.api.coordination.v1.LeaseSpec/properties/acquireTime/allOf: allOf is only supported around a single $ref`)}$`, 'm'));
    assert.match(message, new RegExp(`^${escape(`${FILE}${SCHEMAS}/io.k8s.api.coordination.v1.LeaseSpec/properties/renewTime/type: unsupported type "null"`)}$`, 'm'));
  });

  test('a reference outside the document, or to a definition it does not have (even one named like an Object member)', () => {
    const outside = edited(lease, (d) => {
      spec(d)['holderIdentity'] = { $ref: 'https://example.com/schema.json' };
    });
    assert.match(importError(outside), /LeaseSpec\/properties\/holderIdentity\/\$ref: \$ref "https:\/\/example.com\/schema.json" does not name a definition of the document/);
    const missing = edited(lease, (d) => {
      spec(d)['holderIdentity'] = { $ref: '#/components/schemas/constructor' };
    });
    assert.equal(importError(missing), `${FILE}${SCHEMAS}/io.k8s.api.coordination.v1.Lease: inlineSchema: unknown definition constructor`);
  });

  test('a property named __proto__ is refused, not turned into a prototype', () => {
    const doc = edited(lease, (d) => {
      Object.defineProperty(spec(d), '__proto__', { value: { type: 'string' }, enumerable: true });
    });
    assert.equal(importError(doc), `${FILE}${SCHEMAS}/io.k8s.api.coordination.v1.LeaseSpec/properties/__proto__: a property named __proto__ cannot be represented`);
  });

  test('a kind without metadata', () => {
    const doc = edited(lease, (d) => {
      delete (d.components.schemas['io.k8s.api.coordination.v1.Lease']!['properties'] as Json)['metadata'];
    });
    assert.equal(importError(doc), `${FILE}${SCHEMAS}/io.k8s.api.coordination.v1.Lease: kind Lease (resource leases) has no metadata`);
  });

  test('paths that disagree on the kind of a resource', () => {
    const doc = edited(lease, (d) => {
      const put = d.paths['/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}']!['put']!;
      put['x-kubernetes-group-version-kind'] = { group: 'coordination.k8s.io', version: 'v1', kind: 'LeaseSpec' };
    });
    assert.match(importError(doc), /v1\.json#\/paths\/~1apis~1coordination\.k8s\.io~1v1~1namespaces~1\{namespace\}~1leases~1\{name\}\/put: resource leases is of kind Lease and LeaseSpec$/m);
  });

  test("kube's scalars must be published as kube publishes them", () => {
    const doc = edited(lease, (d) => {
      d.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1'] = { type: 'object', properties: { f: { type: 'string' } } };
    });
    assert.equal(
      importError(doc),
      `${FILE}${SCHEMAS}/io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1: io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1 is expected to be a bare object, as kube publishes it`,
    );
  });

  test('a definition two documents carry differently', () => {
    const apps = loadDocuments(['apis/apps/v1.json'])[0]!;
    const doc = edited(apps, (d) => {
      (d.components.schemas['io.k8s.api.core.v1.PodSpec']!['properties'] as Record<string, Json>)['hostname'] = { type: 'integer' };
    });
    assert.equal(
      importError(core, doc),
      `generator/openapi-import/kube-1.32/apis/apps/v1.json${SCHEMAS}/io.k8s.api.core.v1.PodSpec: differs from the same definition in generator/openapi-import/kube-1.32/api/v1.json`,
    );
  });

  test('a definition of a package no imported document owns', () => {
    // apps/v1 alone reaches core/v1's PodTemplateSpec: its types would have no module.
    const apps = loadDocuments(['apis/apps/v1.json'])[0]!;
    assert.match(importError(apps), /apps\/v1\.json#\/components\/schemas\/io\.k8s\.api\.core\.v1\.PodSpec: package io\.k8s\.api\.core\.v1 is not one of the imported group versions$/m);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
