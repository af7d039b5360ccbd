// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/managedfields_test.go: decoding
// errors, the FieldsV1 round trip, manager identifiers and kube's order of entries.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import type { ManagedFieldsEntry } from '../../apis/meta/v1/types.js';
import { canonicalJSON } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { encodeYAML } from '../../runtime/apimachinery/serializer/yaml-encode.js';
import {
  buildManagerIdentifier,
  decodeManagedFields,
  encodeManagedFields,
  encodeObjectManagedFields,
  newEmptyManaged,
  removeObjectManagedFields,
  sortEncodedManagedFields,
} from '../../runtime/apimachinery/managedfields/index.js';

const valid = `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:field: {}
  manager: foo
  operation: Apply
`;

function decodeYAML(text: string): unknown {
  return parse(text) as unknown;
}

/** sigs.k8s.io/yaml's Marshal of a JSON value: keys sorted, go-yaml's layout. */
function marshalYAML(v: unknown): string {
  return encodeYAML(JSON.parse(canonicalJSON(v)) as unknown);
}

test('TestHasFieldsType', () => {
  assert.doesNotThrow(() => decodeManagedFields(decodeYAML(valid)));
  assert.throws(() => decodeManagedFields(decodeYAML(valid.replace('FieldsV1\n', 'FieldsV2\n'))), {
    message: 'invalid fieldsType "FieldsV2" in managed fields entry 0',
  });
  assert.throws(() => decodeManagedFields(decodeYAML(valid.replace('  fieldsType: FieldsV1\n', ''))), {
    message: 'missing fieldsType in managed fields entry 0',
  });
});

test('TestHasAPIVersion', () => {
  assert.doesNotThrow(() => decodeManagedFields(decodeYAML(valid)));
  assert.throws(() => decodeManagedFields(decodeYAML(valid.replace('- apiVersion: v1\n  ', '- '))), { message: 'apiVersion must not be empty' });
});

test('TestHasOperation', () => {
  assert.doesNotThrow(() => decodeManagedFields(decodeYAML(valid)));
  assert.throws(() => decodeManagedFields(decodeYAML(valid.replace('operation: Apply', 'operation: Invalid'))), {
    message: 'operation must be `Apply` or `Update`',
  });
  assert.throws(() => decodeManagedFields(decodeYAML(valid.replace('  operation: Apply\n', ''))), { message: 'operation must be `Apply` or `Update`' });
});

describe('TestRoundTripManagedFields', () => {
  const tests = [
    `null
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    v:3:
      f:alsoPi: {}
    v:3.1415:
      f:pi: {}
    v:false:
      f:notTrue: {}
  manager: foo
  operation: Update
  time: "2001-02-03T04:05:06Z"
- apiVersion: v1beta1
  fieldsType: FieldsV1
  fieldsV1:
    i:5:
      f:i: {}
  manager: foo
  operation: Update
  time: "2011-12-13T14:15:16Z"
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:containers:
        k:{"name":"c"}:
          f:image: {}
          f:name: {}
  manager: foo
  operation: Apply
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:apiVersion: {}
    f:kind: {}
    f:metadata:
      f:labels:
        f:app: {}
      f:name: {}
    f:spec:
      f:replicas: {}
      f:selector:
        f:matchLabels:
          f:app: {}
      f:template:
        f:medatada:
          f:labels:
            f:app: {}
        f:spec:
          f:containers:
            k:{"name":"nginx"}:
              .: {}
              f:image: {}
              f:name: {}
              f:ports:
                i:0:
                  f:containerPort: {}
  manager: foo
  operation: Update
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:allowVolumeExpansion: {}
    f:apiVersion: {}
    f:kind: {}
    f:metadata:
      f:name: {}
      f:parameters:
        f:resturl: {}
        f:restuser: {}
        f:secretName: {}
        f:secretNamespace: {}
    f:provisioner: {}
  manager: foo
  operation: Apply
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:apiVersion: {}
    f:kind: {}
    f:metadata:
      f:name: {}
    f:spec:
      f:group: {}
      f:names:
        f:kind: {}
        f:plural: {}
        f:shortNames:
          i:0: {}
        f:singular: {}
      f:scope: {}
      f:versions:
        k:{"name":"v1"}:
          f:name: {}
          f:served: {}
          f:storage: {}
  manager: foo
  operation: Update
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:replicas: {}
  manager: foo
  operation: Update
  subresource: scale
`,
  ];
  for (const text of tests) {
    test(text, () => {
      const encoded = encodeManagedFields(decodeManagedFields(decodeYAML(text)));
      // Go encodes an empty Managed as a nil list, which marshals as null. Our YAML writer
      // quotes a "." key (YAML 1.1 readers could take it for a float); go-yaml leaves it plain.
      assert.equal(marshalYAML(encoded.length === 0 ? null : encoded).replaceAll('".": {}', '.: {}'), text);
    });
  }
});

describe('TestBuildManagerIdentifier', () => {
  const tests: Array<{ entry: string; expected: string }> = [
    {
      entry: 'apiVersion: v1\nfieldsV1:\n  f:apiVersion: {}\nmanager: foo\noperation: Update\ntime: "2001-02-03T04:05:06Z"\n',
      expected: '{"manager":"foo","operation":"Update","apiVersion":"v1"}',
    },
    {
      entry: 'apiVersion: v1\nfieldsV1:\n  f:apiVersion: {}\nmanager: foo\noperation: Apply\ntime: "2001-02-03T04:05:06Z"\n',
      expected: '{"manager":"foo","operation":"Apply"}',
    },
    {
      entry: 'apiVersion: v1\nfieldsV1:\n  f:apiVersion: {}\nmanager: foo\noperation: Apply\nsubresource: scale\ntime: "2001-02-03T04:05:06Z"\n',
      expected: '{"manager":"foo","operation":"Apply","subresource":"scale"}',
    },
  ];
  for (const tc of tests) {
    test(tc.entry, () => assert.equal(buildManagerIdentifier(parse(tc.entry) as ManagedFieldsEntry), tc.expected));
  }
  test('names are escaped as encoding/json escapes them, and __proto__ is a name', () => {
    assert.equal(buildManagerIdentifier({ manager: '<a&b>', operation: 'Update', apiVersion: 'v1' }), '{"manager":"\\u003ca\\u0026b\\u003e","operation":"Update","apiVersion":"v1"}');
    const managed = decodeManagedFields(decodeYAML(valid.replace('manager: foo', 'manager: __proto__')));
    assert.deepEqual([...managed.fields().keys()], ['{"manager":"__proto__","operation":"Apply"}']);
    assert.equal(encodeManagedFields(managed)[0]?.manager, '__proto__');
  });
});

describe('TestSortEncodedManagedFields', () => {
  const at = (s: string): string => s;
  const e = (manager: string, operation: 'Apply' | 'Update', time?: string, subresource?: string): ManagedFieldsEntry => ({
    manager,
    operation,
    ...(time !== undefined ? { time } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  });
  const cases: Array<{ name: string; managedFields: ManagedFieldsEntry[]; expected: ManagedFieldsEntry[] }> = [
    { name: 'empty', managedFields: [], expected: [] },
    {
      name: 'remains untouched',
      managedFields: [e('a', 'Apply'), e('a', 'Update', at('2001-01-01T01:00:00Z'))],
      expected: [e('a', 'Apply'), e('a', 'Update', at('2001-01-01T01:00:00Z'))],
    },
    {
      name: 'manager without time first',
      managedFields: [e('a', 'Apply'), e('a', 'Apply', '2001-01-01T01:00:00Z')],
      expected: [e('a', 'Apply'), e('a', 'Apply', '2001-01-01T01:00:00Z')],
    },
    {
      name: 'manager without time first name last',
      managedFields: [e('a', 'Apply', '2001-01-01T01:00:00Z'), e('b', 'Apply'), e('a', 'Apply')],
      expected: [e('a', 'Apply'), e('b', 'Apply'), e('a', 'Apply', '2001-01-01T01:00:00Z')],
    },
    {
      name: 'apply first',
      managedFields: [e('a', 'Update', '2001-01-01T01:00:00Z'), e('a', 'Apply')],
      expected: [e('a', 'Apply'), e('a', 'Update', '2001-01-01T01:00:00Z')],
    },
    {
      name: 'newest last',
      managedFields: [e('c', 'Update', '2001-01-01T01:00:00Z'), e('a', 'Apply'), e('c', 'Update', '2002-01-01T01:00:00Z'), e('b', 'Apply')],
      expected: [e('a', 'Apply'), e('b', 'Apply'), e('c', 'Update', '2001-01-01T01:00:00Z'), e('c', 'Update', '2002-01-01T01:00:00Z')],
    },
    {
      name: 'manager last',
      managedFields: [e('c', 'Update', '2001-01-01T01:00:00Z'), e('a', 'Apply'), e('d', 'Update', '2001-01-01T01:00:00Z'), e('b', 'Apply')],
      expected: [e('a', 'Apply'), e('b', 'Apply'), e('c', 'Update', '2001-01-01T01:00:00Z'), e('d', 'Update', '2001-01-01T01:00:00Z')],
    },
    {
      name: 'manager sorted',
      managedFields: [
        e('c', 'Update', '2001-01-01T01:00:00Z'),
        e('a', 'Apply'),
        e('g', 'Apply'),
        e('f', 'Update', '2002-01-01T01:00:00Z'),
        e('i', 'Apply'),
        e('d', 'Update', '2002-01-01T01:00:00Z'),
        e('h', 'Apply'),
        e('e', 'Update', '2003-01-01T01:00:00Z'),
        e('b', 'Apply'),
      ],
      expected: [
        e('a', 'Apply'),
        e('b', 'Apply'),
        e('g', 'Apply'),
        e('h', 'Apply'),
        e('i', 'Apply'),
        e('c', 'Update', '2001-01-01T01:00:00Z'),
        e('d', 'Update', '2002-01-01T01:00:00Z'),
        e('f', 'Update', '2002-01-01T01:00:00Z'),
        e('e', 'Update', '2003-01-01T01:00:00Z'),
      ],
    },
    {
      // Go's metav1.Time may carry nanoseconds in memory; entries compare by whole seconds.
      name: 'sort drops nanoseconds',
      managedFields: [e('c', 'Update', '1999-12-31T00:00:00.000000001Z'), e('a', 'Update', '1999-12-31T00:00:00.000000002Z'), e('b', 'Update', '1999-12-31T00:00:00.000000003Z')],
      expected: [e('a', 'Update', '1999-12-31T00:00:00.000000002Z'), e('b', 'Update', '1999-12-31T00:00:00.000000003Z'), e('c', 'Update', '1999-12-31T00:00:00.000000001Z')],
    },
    {
      name: 'entries with subresource field',
      managedFields: [e('a', 'Apply', undefined, 'status'), e('a', 'Apply', undefined, 'scale'), e('a', 'Apply')],
      expected: [e('a', 'Apply'), e('a', 'Apply', undefined, 'scale'), e('a', 'Apply', undefined, 'status')],
    },
  ];
  for (const tc of cases) {
    test(tc.name, () => assert.deepEqual(sortEncodedManagedFields([...tc.managedFields]), tc.expected));
  }
});

describe('object managedFields', () => {
  test('RemoveObjectManagedFields returns a copy without them and leaves the input alone', () => {
    const obj = { kind: 'Pod', metadata: { name: 'p', managedFields: [{ manager: 'x' }] } };
    const out = removeObjectManagedFields(obj);
    assert.deepEqual(out, { kind: 'Pod', metadata: { name: 'p' } });
    assert.deepEqual(obj.metadata.managedFields, [{ manager: 'x' }]);
  });
  test('an empty Managed encodes as no managedFields at all (omitempty)', () => {
    const out = encodeObjectManagedFields({ kind: 'Pod', metadata: { name: 'p', managedFields: [] } }, newEmptyManaged());
    assert.deepEqual(out, { kind: 'Pod', metadata: { name: 'p' } });
  });
  test('entries are written in the field order of ManagedFieldsEntry, time in whole seconds UTC', () => {
    const managed = decodeManagedFields(
      decodeYAML(`- subresource: status
  fieldsV1:
    f:status: {}
  fieldsType: FieldsV1
  time: "2001-02-03T05:05:06.5+01:00"
  apiVersion: v1
  operation: Update
  manager: foo
`),
    );
    const [entry] = encodeManagedFields(managed);
    assert.deepEqual(Object.keys(entry ?? {}), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);
    assert.equal(entry?.time, '2001-02-03T04:05:06Z');
  });
  test('a field set that does not decode is an error naming the entry', () => {
    assert.throws(() => decodeManagedFields([{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'k:{bad': {} } }]), {
      message: /^error decoding versioned set from \{m Update v1 <nil> FieldsV1 \{"k:\{bad":\{\}\} \}: error decoding set: ./,
    });
  });
  test('a list that is not a list of entries is an error', () => {
    assert.throws(() => decodeManagedFields({ manager: 'm' }), { message: 'managedFields must be a list of entries' });
    assert.throws(() => decodeManagedFields(['m']), { message: 'managed fields entry 0 must be an object' });
  });
});
