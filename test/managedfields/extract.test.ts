// Port of k8s.io/apimachinery/pkg/util/managedfields/extract_test.go (TestExtractInto), plus
// extract through a TypeConverter, errors and field names that are data.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ManagedFieldsEntry } from '../../apis/meta/v1/types.js';
import { extract, extractInto } from '../../runtime/apimachinery/managedfields/extract.js';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { deducedParseableType, Parser } from '../../runtime/apimachinery/structuredmerge/typed/index.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';

// kube's trimmed schema of the test.
const schemaYAML = `types:
- name: io.k8s.api.apps.v1.Deployment
  map:
    fields:
    - name: apiVersion
      type:
        scalar: string
    - name: kind
      type:
        scalar: string
    - name: metadata
      type:
        namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta
    - name: spec
      type:
        namedType: io.k8s.api.apps.v1.DeploymentSpec
    - name: status
      type:
        namedType: io.k8s.api.apps.v1.DeploymentStatus
- name: io.k8s.api.apps.v1.DeploymentSpec
  map:
    fields:
    - name: paused
      type:
        scalar: boolean
    - name: replicas
      type:
        scalar: numeric
- name: io.k8s.api.apps.v1.DeploymentStatus
  map:
    fields:
    - name: replicas
      type:
        scalar: numeric
- name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta
  map:
    fields:
    - name: creationTimestamp
      type:
        namedType: io.k8s.apimachinery.pkg.apis.meta.v1.Time
    - name: managedFields
      type:
        list:
          elementType:
            namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry
          elementRelationship: atomic
- name: io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry
  map:
    fields:
    - name: apiVersion
      type:
        scalar: string
    - name: fieldsType
      type:
        scalar: string
    - name: fieldsV1
      type:
        namedType: io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1
    - name: manager
      type:
        scalar: string
    - name: operation
      type:
        scalar: string
    - name: time
      type:
        namedType: io.k8s.apimachinery.pkg.apis.meta.v1.Time
    - name: subresource
      type:
        scalar: string
- name: io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1
  map:
    elementType:
      scalar: untyped
      list:
        elementType:
          namedType: __untyped_atomic_
        elementRelationship: atomic
      map:
        elementType:
          namedType: __untyped_atomic_
        elementRelationship: atomic
- name: io.k8s.apimachinery.pkg.apis.meta.v1.Time
  scalar: untyped
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
`;

function applyFieldsEntry(fieldManager: string, fieldsJSON: string, subresource: string): ManagedFieldsEntry {
  const e: ManagedFieldsEntry = { manager: fieldManager, operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: JSON.parse(fieldsJSON) as Record<string, unknown> };
  return subresource === '' ? e : { ...e, subresource };
}

/** The JSON of kube's fakeDeployment (a structured object): every field but `paused` is written, even when nil. */
function fakeDeployment(spec: { replicas?: number; paused?: boolean }, status: { replicas?: number }): JSONObject {
  return {
    metadata: { creationTimestamp: null },
    spec: { replicas: spec.replicas ?? null, ...(spec.paused === true ? { paused: true } : {}) },
    status: { replicas: status.replicas ?? null },
  };
}

/** `obj` with `entries` as its managedFields (accessor.SetManagedFields). */
function withManagedFields(obj: JSONObject, entries: ManagedFieldsEntry[]): JSONObject {
  return { ...obj, metadata: { ...((obj['metadata'] as JSONObject | undefined) ?? {}), managedFields: entries } };
}

describe('TestExtractInto', () => {
  const parser = Parser.fromYAML(schemaYAML);
  const objType = parser.type('io.k8s.api.apps.v1.Deployment');
  const cases: Array<{ name: string; obj: JSONObject; managedFields: ManagedFieldsEntry[]; fieldManager: string; expectedOut: JSONObject; subresource?: string }> = [
    {
      name: 'unstructured, no matching manager',
      obj: { spec: { replicas: 1 } },
      managedFields: [applyFieldsEntry('mgr999', `{ "f:spec": { "f:replicas": {}}}`, '')],
      fieldManager: 'mgr1',
      expectedOut: {},
    },
    {
      name: 'unstructured, one manager',
      obj: { spec: { replicas: 1 } },
      managedFields: [applyFieldsEntry('mgr1', `{ "f:spec": { "f:replicas": {}}}`, '')],
      fieldManager: 'mgr1',
      expectedOut: { spec: { replicas: 1 } },
    },
    {
      name: 'unstructured, multiple manager',
      obj: { spec: { paused: true } },
      managedFields: [applyFieldsEntry('mgr1', `{ "f:spec": { "f:replicas": {}}}`, ''), applyFieldsEntry('mgr2', `{ "f:spec": { "f:paused": {}}}`, '')],
      fieldManager: 'mgr2',
      expectedOut: { spec: { paused: true } },
    },
    {
      name: 'structured, no matching manager',
      obj: fakeDeployment({ replicas: 1 }, {}),
      managedFields: [applyFieldsEntry('mgr999', `{ "f:spec": { "f:replicas": {}}}`, '')],
      fieldManager: 'mgr1',
      expectedOut: {},
    },
    {
      name: 'structured, one manager',
      obj: fakeDeployment({ replicas: 1 }, {}),
      managedFields: [applyFieldsEntry('mgr1', `{ "f:spec": { "f:replicas": {}}}`, '')],
      fieldManager: 'mgr1',
      expectedOut: { spec: { replicas: 1 } },
    },
    {
      name: 'structured, multiple manager',
      obj: fakeDeployment({ replicas: 1, paused: true }, {}),
      managedFields: [applyFieldsEntry('mgr1', `{ "f:spec": { "f:replicas": {}}}`, ''), applyFieldsEntry('mgr2', `{ "f:spec": { "f:paused": {}}}`, '')],
      fieldManager: 'mgr2',
      expectedOut: { spec: { paused: true } },
    },
    {
      name: 'subresource',
      obj: fakeDeployment({}, { replicas: 1 }),
      managedFields: [applyFieldsEntry('mgr1', `{ "f:status": { "f:replicas": {}}}`, 'status')],
      fieldManager: 'mgr1',
      expectedOut: { status: { replicas: 1 } },
      subresource: 'status',
    },
  ];
  for (const tc of cases) {
    test(tc.name, () => {
      const obj = withManagedFields(tc.obj, tc.managedFields);
      const before = structuredClone(obj);
      assert.deepEqual(extractInto(obj, objType, tc.fieldManager, tc.subresource ?? ''), tc.expectedOut);
      assert.deepEqual(obj, before, 'the object is not changed');
    });
  }

  test('an Update entry, or the entry of another subresource, is not the applied configuration', () => {
    const update = { ...applyFieldsEntry('mgr1', `{ "f:spec": { "f:replicas": {}}}`, ''), operation: 'Update' as const };
    const status = applyFieldsEntry('mgr1', `{ "f:spec": { "f:replicas": {}}}`, 'status');
    assert.deepEqual(extractInto(withManagedFields({ spec: { replicas: 1 } }, [update, status]), objType, 'mgr1', ''), {});
  });

  test('errors', () => {
    assert.throws(() => extractInto({ spec: { bogus: 1 } }, objType, 'mgr1', ''), { message: 'error converting obj to typed: .spec.bogus: field not declared in schema' });
    const bad = withManagedFields({ spec: { replicas: 1 } }, [applyFieldsEntry('mgr1', `{ "f:spec": [] }`, '')]);
    assert.throws(
      () => extractInto(bad, objType, 'mgr1', ''),
      (err: unknown) => (err as Error).message.startsWith('error marshalling FieldsV1 to JSON: '),
    );
    // An entry that owns nothing extracts nothing, not even an empty object (kube's error too).
    const nothing = withManagedFields({ spec: { replicas: 1 } }, [applyFieldsEntry('mgr1', `{ "x:unknown": {} }`, '')]);
    assert.throws(() => extractInto(nothing, objType, 'mgr1', ''), { message: 'unable to convert managed fields for mgr1 to unstructured, expected map, got <nil>' });
  });
});

describe('extract', () => {
  const tc = swaggerTypeConverter();
  const pod = (): JSONObject =>
    withManagedFields({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b', c: 'd' } }, spec: { containers: [{ name: 'c', image: 'i', args: ['x'] }] } }, [
      applyFieldsEntry('mgr1', `{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:name":{},"f:image":{}}}}}`, ''),
    ]);

  test('the fields a manager applied, typed by the kind, with its apiVersion and kind', () => {
    assert.deepEqual(extract(pod(), 'mgr1', tc, ''), { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } });
  });

  test('a manager without an Apply entry owns nothing', () => {
    assert.deepEqual(extract(pod(), 'mgr2', tc, ''), {});
  });

  test('a kind the converter does not know', () => {
    assert.throws(() => extract({ apiVersion: 'v1', kind: 'Nope' }, 'mgr1', tc, ''), { message: 'error converting obj to typed: no corresponding type for /v1, Kind=Nope' });
  });

  test('__proto__ and constructor are field names', () => {
    const obj = JSON.parse(
      '{"spec": {"__proto__": {"x": 1}, "constructor": 2, "other": 3}, "metadata": {"managedFields": [{"manager": "m", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:__proto__": {"f:x": {}}, "f:constructor": {}}}}]}}',
    ) as JSONObject;
    const out = extractInto(obj, deducedParseableType, 'm', '');
    assert.equal(JSON.stringify(out), '{"spec":{"__proto__":{"x":1},"constructor":2}}');
    assert.equal(Object.getPrototypeOf(out['spec']), Object.prototype);
  });
});

describe('extract of an object that does not name its kind', () => {
  test('the kind is given', () => {
    const obj = withManagedFields({ metadata: { name: 'p', labels: { a: 'b' } } }, [applyFieldsEntry('m', '{"f:metadata":{"f:labels":{"f:a":{}}}}', '')]);
    assert.throws(() => extract(obj, 'm', swaggerTypeConverter(), ''), { message: 'error converting obj to typed: no corresponding type for /, Kind=' });
    assert.deepEqual(extract(obj, 'm', swaggerTypeConverter(), '', { apiVersion: 'v1', kind: 'Pod' }), { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' } } });
  });
});
