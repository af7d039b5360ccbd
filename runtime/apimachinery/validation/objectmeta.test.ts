import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ObjectMeta } from '../../../apis/meta/v1/types.js';
import { formatFieldError } from './field.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain, validatePathSegmentName } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QNAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('names', () => {
  test('IsDNS1123Subdomain / Label', () => {
    assert.deepEqual(isDNS1123Subdomain('example.com'), []);
    assert.deepEqual(isDNS1123Subdomain('Example'), [SUBDOMAIN_MSG]);
    assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
    assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
    assert.deepEqual(isDNS1123Label('A'), [LABEL_MSG]);
    assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
  });

  test('IsQualifiedName / IsValidLabelValue', () => {
    assert.deepEqual(isQualifiedName('example.com/My_Name.1'), []);
    assert.deepEqual(isQualifiedName('/a'), ['prefix part must be non-empty']);
    assert.deepEqual(isQualifiedName('a/'), ['name part must be non-empty', QNAME_MSG]);
    assert.deepEqual(isQualifiedName('Bad.Prefix/a'), [`prefix part ${SUBDOMAIN_MSG}`]);
    assert.match(isQualifiedName('a/b/c')[0] ?? '', /^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
    assert.deepEqual(isQualifiedName('-a'), [QNAME_MSG]);
    assert.deepEqual(isValidLabelValue(''), []);
    assert.equal(isValidLabelValue('a'.repeat(64))[0], 'must be no more than 63 characters');
    assert.match(isValidLabelValue('-x')[0] ?? '', /^a valid label must be an empty string or consist of/);
  });

  test('name functions: generateName prefixes may end with a dash', () => {
    assert.deepEqual(nameIsDNSSubdomain('web-', true), []);
    assert.deepEqual(nameIsDNSSubdomain('web-', false), [SUBDOMAIN_MSG]);
    assert.deepEqual(validatePathSegmentName('..', false), ["may not be '..'"]);
    assert.deepEqual(validatePathSegmentName('a/b%', false), ["may not contain '/'", "may not contain '%'"]);
  });
});

describe('validateObjectMeta', () => {
  const cases: Array<{ name: string; meta: ObjectMeta; namespaced?: boolean; want: string[] }> = [
    { name: 'valid namespaced', meta: { name: 'a', namespace: 'ns' }, namespaced: true, want: [] },
    { name: 'name or generateName required', meta: { namespace: 'ns' }, namespaced: true, want: ['metadata.name: Required value: name or generateName is required'] },
    { name: 'namespace required', meta: { name: 'a' }, namespaced: true, want: ['metadata.namespace: Required value'] },
    { name: 'namespace forbidden', meta: { name: 'a', namespace: 'ns' }, want: ['metadata.namespace: Forbidden: not allowed on this type'] },
    { name: 'bad namespace', meta: { name: 'a', namespace: 'A' }, namespaced: true, want: [`metadata.namespace: Invalid value: "A": ${LABEL_MSG}`] },
    { name: 'bad name', meta: { name: 'A_b' }, want: [`metadata.name: Invalid value: "A_b": ${SUBDOMAIN_MSG}`] },
    {
      name: 'bad generateName',
      meta: { generateName: 'Xy-', name: 'X-abcde' },
      want: [`metadata.generateName: Invalid value: "Xy-": ${SUBDOMAIN_MSG}`, `metadata.name: Invalid value: "X-abcde": ${SUBDOMAIN_MSG}`],
    },
    { name: 'negative generation', meta: { name: 'a', generation: -1 }, want: ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'] },
    {
      name: 'bad label key and value',
      meta: { name: 'a', labels: { '-k': 'v', k: '-v' } },
      want: [
        `metadata.labels: Invalid value: "-k": ${QNAME_MSG}`,
        "metadata.labels: Invalid value: \"-v\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    },
    { name: 'annotation keys are case-insensitive', meta: { name: 'a', annotations: { 'Example.COM/Key': 'v' } }, want: [] },
    { name: 'annotations too large', meta: { name: 'a', annotations: { k: 'x'.repeat(262144) } }, want: ['metadata.annotations: Too long: may not be more than 262144 bytes'] },
    {
      name: 'bad finalizer',
      meta: { name: 'a', finalizers: ['a/b/c'] },
      want: [
        `metadata.finalizers: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    },
    {
      name: 'orphan and foreground',
      meta: { name: 'a', finalizers: ['orphan', 'foregroundDeletion'] },
      want: ['metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set'],
    },
    {
      name: 'owner references',
      meta: {
        name: 'a',
        ownerReferences: [
          { apiVersion: '', kind: '', name: '', uid: '' },
          { apiVersion: 'v1', kind: 'A', name: 'x', uid: '1', controller: true },
          { apiVersion: 'v1', kind: 'B', name: 'y', uid: '2', controller: true },
        ],
      },
      want: [
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
      ],
    },
    {
      name: 'managed fields',
      meta: { name: 'a', managedFields: [{ manager: 'm\u0007', operation: 'Patch' as 'Apply', fieldsType: 'FieldsV2' }] },
      want: [
        'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
        'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
        'metadata.managedFields[0].manager: Invalid value: "m\\a": invalid character U+0007 (at position 1)',
      ],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = validateObjectMeta(c.meta, { namespaced: c.namespaced ?? false, nameValidation: 'DNS1123Subdomain' }).map(formatFieldError);
      if (c.name === 'owner references') {
        assert.deepEqual(got.slice(0, 4), c.want);
        // kube prints the []v1.OwnerReference with %#v; its *bool pointers are addresses.
        assert.match(
          got[4] ?? '',
          /^metadata\.ownerReferences: Invalid value: \[\]v1\.OwnerReference\{v1\.OwnerReference\{APIVersion:"", Kind:"", Name:"", UID:"", Controller:\(\*bool\)\(nil\), BlockOwnerDeletion:\(\*bool\)\(nil\)\}, v1\.OwnerReference\{APIVersion:"v1", Kind:"A", Name:"x", UID:"1", Controller:\(\*bool\)\(0xc[0-9a-f]+\), BlockOwnerDeletion:\(\*bool\)\(nil\)\}, .*\}: Only one reference can have Controller set to true\. Found "true" in references for A\/x and B\/y$/,
        );
      } else {
        assert.deepEqual(got, c.want);
      }
    });
  }
  test('owner references: an apiVersion that does not parse has no version; an Event may not own', () => {
    const refs = [
      { apiVersion: 'a/b/c', kind: 'Pod', name: 'p', uid: '1' },
      { apiVersion: 'v1', kind: 'Event', name: 'e', uid: '2' },
    ];
    assert.deepEqual(validateObjectMeta({ name: 'a', ownerReferences: refs }, { namespaced: false, nameValidation: 'DNS1123Subdomain' }).map(formatFieldError), [
      'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
      'metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"e", UID:"2", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner',
    ]);
  });
  test('DNS1123Label names (Namespace)', () => {
    assert.deepEqual(validateObjectMeta({ name: 'a.b' }, { namespaced: false, nameValidation: 'DNS1123Label' }).map(formatFieldError), ['metadata.name: Invalid value: "a.b": must not contain dots']);
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', generation: 2, creationTimestamp: '2024-05-01T10:00:00Z', finalizers: ['x'] };
  test('unchanged is valid', () => assert.deepEqual(validateObjectMetaUpdate({ ...old }, old), []));
  test('immutable fields', () => {
    const got = validateObjectMetaUpdate(
      { ...old, name: 'b', namespace: 'other', uid: 'u2', creationTimestamp: '2024-05-02T10:00:00Z', deletionTimestamp: '2024-05-03T10:00:00Z', generation: 1 },
      old,
    ).map(formatFieldError);
    assert.deepEqual(got, [
      'metadata.generation: Invalid value: 1: must not be decremented',
      'metadata.name: Invalid value: "b": field is immutable',
      'metadata.namespace: Invalid value: "other": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
      'metadata.creationTimestamp: Invalid value: "2024-05-02T10:00:00Z": field is immutable',
      'metadata.deletionTimestamp: Invalid value: "2024-05-03T10:00:00Z": field is immutable',
    ]);
  });
  test('resourceVersion required', () => {
    assert.deepEqual(validateObjectMetaUpdate({ ...old, resourceVersion: '' }, old).map(formatFieldError), ['metadata.resourceVersion: Invalid value: "": must be specified for an update']);
  });
  test('no new finalizers while deleting', () => {
    const deleting = { ...old, deletionTimestamp: '2024-05-03T10:00:00Z', deletionGracePeriodSeconds: 0 };
    assert.deepEqual(validateObjectMetaUpdate({ ...deleting, finalizers: ['x', 'z', 'y'] }, deleting).map(formatFieldError), [
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"y", "z"}',
    ]);
    assert.deepEqual(validateObjectMetaUpdate({ ...deleting, finalizers: [] }, deleting), []);
    assert.deepEqual(validateObjectMetaUpdate({ ...old, finalizers: ['x', 'new'] }, old), []);
  });
});
