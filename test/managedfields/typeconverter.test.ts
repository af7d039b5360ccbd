// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/typeconverter_test.go, and of the
// conversion rules of kube-openapi's schemaconv (openapi.go, smd.go and their testdata cases
// preserve-unknown and atomic-types) as our structural schemas reach them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import type { TypeConverter } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import { deducedTypeConverter, NoCorrespondingTypeError, newTypeConverter } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import { decodeYAML } from '../../runtime/apimachinery/serializer/yaml.js';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';

const testTypeConverter = swaggerTypeConverter();

const deployment = (apiVersion: string): string => `
apiVersion: ${apiVersion}
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.15.4
`;

const cases: Array<{ name: string; yaml: string }> = [
  { name: 'apps/v1.Deployment', yaml: deployment('apps/v1') },
  { name: 'extensions/v1beta1.Deployment', yaml: deployment('extensions/v1beta1') },
  {
    name: 'v1.Pod',
    yaml: `
apiVersion: v1
kind: Pod
metadata:
  name: nginx-pod
  labels:
    app: nginx
spec:
  containers:
  - name: nginx
    image: nginx:1.15.4
`,
  },
];

function testObjectToTyped(tc: TypeConverter, y: string): void {
  const obj = decodeYAML(y).value as JSONObject;
  const typed = tc.objectToTyped(obj);
  const newObj = tc.typedToObject(typed);
  assert.deepEqual(newObj, obj, 'Round-trip failed');
}

describe('TestTypeConverter', () => {
  for (const c of cases) {
    test(`${c.name} ObjectToTyped with TypeConverter`, () => testObjectToTyped(testTypeConverter, c.yaml));
    test(`${c.name} ObjectToTyped with DeducedTypeConverter`, () => testObjectToTyped(deducedTypeConverter, c.yaml));
  }
});

describe('TestIndexModels', () => {
  // One schema may serve several group-version-kinds, and one group-version several kinds.
  const def = (field: string): JSONSchemaProps => ({ type: 'object', properties: { [field]: { type: 'string' } } });
  const def1 = def('one');
  const def2 = def('two');
  const def3 = def('three');
  const tc = newTypeConverter(
    [
      { apiVersion: 'mygroup/v1', kind: 'MyKind', schema: def1, name: 'def1' },
      { apiVersion: 'mygroup/v1', kind: 'MyOtherKind', schema: def2, name: 'def2' },
      { apiVersion: 'mygroup/v2', kind: 'MyOtherKind', schema: def2, name: 'def2' },
      { apiVersion: 'mygroup/v3', kind: 'MyKind', schema: def3, name: 'def3' },
      { apiVersion: 'mygroup/v3', kind: 'MyOtherKind', schema: def3, name: 'def3' },
    ],
    { preserveUnknownFields: false },
  );
  const expected: Array<[string, string, string, string]> = [
    ['mygroup/v1', 'MyKind', 'def1', 'one'],
    ['mygroup/v1', 'MyOtherKind', 'def2', 'two'],
    ['mygroup/v2', 'MyOtherKind', 'def2', 'two'],
    ['mygroup/v3', 'MyKind', 'def3', 'three'],
    ['mygroup/v3', 'MyOtherKind', 'def3', 'three'],
  ];
  for (const [apiVersion, kind, name, field] of expected) {
    test(`${apiVersion}, Kind=${kind} is ${name}`, () => {
      const tv = tc.objectToTyped({ apiVersion, kind, [field]: 'x' });
      assert.equal(tv.typeRef.namedType, name);
      assert.equal(tv.toFieldSet().toString(), `.apiVersion\n.${field}\n.kind`.split('\n').sort().join('\n'));
    });
  }
  test('a group-version-kind without a schema', () => {
    assert.throws(
      () => tc.objectToTyped({ apiVersion: 'mygroup/v4', kind: 'MyKind' }),
      (err: unknown) => {
        assert.ok(err instanceof NoCorrespondingTypeError);
        assert.equal(err.message, 'no corresponding type for mygroup/v4, Kind=MyKind');
        return true;
      },
    );
    assert.throws(() => testTypeConverter.objectToTyped({ apiVersion: 'v2', kind: 'Pod' }), { message: 'no corresponding type for /v2, Kind=Pod' });
    assert.throws(() => testTypeConverter.objectToTyped({ apiVersion: 'a/b/c', kind: 'Pod' }), { message: 'no corresponding type for /, Kind=Pod' });
    assert.throws(() => testTypeConverter.objectToTyped({ kind: 'Pod' }), { message: 'no corresponding type for /, Kind=Pod' });
  });
});

describe('TypedToObject', () => {
  test('a value that is not an object', () => {
    const empty = deducedTypeConverter.objectToTyped({ a: 1 }).empty();
    assert.throws(() => deducedTypeConverter.typedToObject(empty), { message: 'failed to convert value to unstructured for type <nil>' });
  });
  test('the object typed is the object returned', () => {
    const obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
    assert.equal(testTypeConverter.typedToObject(testTypeConverter.objectToTyped(obj)), obj);
  });
});
