import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rbacGroup } from '../../generated/registry/rbac.js';
import { setClusterRoleBindingDefaults, setRoleBindingDefaults } from '../../apis/rbac/v1/defaults.js';
import { ClusterRoleBindingStrategy, ClusterRoleStrategy, RoleBindingStrategy, RoleStrategy } from '../../apis/rbac/v1/strategy.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../apis/rbac/v1/types.js';
import { StatusError } from '../../runtime/apimachinery/errors/index.js';
import { decodeProtobufObject, ProtobufScheme } from '../../runtime/apimachinery/serializer/protobuf/index.js';
import { metaV1Protobuf } from '../../generated/protobuf/meta/v1.js';
import { rbacV1Protobuf } from '../../generated/protobuf/rbac/v1.js';
import { formatFieldError, type FieldError, type FieldErrorType } from '../../runtime/apimachinery/validation/field.js';
import { newTableConvertor, type TableSource } from '../../runtime/endpoints/table/convertor.js';
import { tablePrinterOf } from '../../runtime/endpoints/table/printer.js';
import type { KubeObject } from '../../runtime/registry/rest.js';
import { allow, allowBoth, ctx, newEnv, put, write, type Env } from './helpers.js';

// pkg/apis/rbac/validation/validation_test.go, by name. Rule and binding checks call the
// strategies (kube's tests call the Validate* functions); the metadata cases (zero-length name
// or namespace), which kube's ValidateObjectMeta covers, go through the generic store with the
// strategies, where this repository validates metadata.

const GroupName = 'rbac.authorization.k8s.io';

/** kube's check: at least one error, and every error of the type and field expected. */
function expectAll(errs: readonly FieldError[], type: FieldErrorType, field: string, name: string): void {
  assert.ok(errs.length > 0, `${name}: expected failure`);
  for (const e of errs) {
    assert.equal(e.type, type, `${name}: ${JSON.stringify(e)}`);
    assert.equal(e.field, field, `${name}: ${JSON.stringify(e)}`);
  }
}

/** An object of the kind as a client sends it (apiVersion and kind set). */
function asObject<T extends object>(kind: string, o: T): KubeObject {
  return { apiVersion: `${GroupName}/v1`, kind, ...o } as KubeObject;
}

/** The 422 causes of a store create (kube's ValidateObjectMeta and Validate* together). */
async function createCauses(env: Env, kind: string, namespace: string, obj: KubeObject): Promise<{ type: string; field: string }[]> {
  const { main } = await env.storages(rbacGroup, kind);
  try {
    await main.create(ctx(namespace), obj, allow, write);
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    assert.equal(e.code, 422, e.message);
    return (e.status.details?.causes ?? []).map((c) => ({ type: c.reason ?? '', field: c.field ?? '' }));
  }
  throw new Error('created');
}

describe('validation_test.go', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('TestValidateClusterRoleBinding', async () => {
    const valid: ClusterRoleBinding = {
      metadata: { name: 'master' },
      roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: 'valid' },
      subjects: [
        { name: 'validsaname', apiGroup: '', namespace: 'foo', kind: 'ServiceAccount' },
        { name: 'valid@username', apiGroup: GroupName, kind: 'User' },
        { name: 'valid@groupname', apiGroup: GroupName, kind: 'Group' },
      ],
    };
    assert.deepEqual(ClusterRoleBindingStrategy.validate(valid), []);
    const cases: Record<string, [ClusterRoleBinding, FieldErrorType, string]> = {
      'bad group': [{ metadata: { name: 'default' }, roleRef: { apiGroup: 'rbac.GroupName', kind: 'ClusterRole', name: 'valid' } }, 'FieldValueNotSupported', 'roleRef.apiGroup'],
      'bad kind': [{ metadata: { name: 'default' }, roleRef: { apiGroup: GroupName, kind: 'Type', name: 'valid' } }, 'FieldValueNotSupported', 'roleRef.kind'],
      'reference role': [{ metadata: { name: 'default' }, roleRef: { apiGroup: GroupName, kind: 'Role', name: 'valid' } }, 'FieldValueNotSupported', 'roleRef.kind'],
      'bad role': [{ metadata: { name: 'default' }, roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: '' } }, 'FieldValueRequired', 'roleRef.name'],
      'bad subject kind': [
        { metadata: { name: 'master' }, roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: 'valid' }, subjects: [{ name: 'subject', kind: '' }] },
        'FieldValueNotSupported',
        'subjects[0].kind',
      ],
      'bad subject name': [
        { metadata: { name: 'master' }, roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: 'valid' }, subjects: [{ namespace: 'foo', name: 'subject:bad', kind: 'ServiceAccount' }] },
        'FieldValueInvalid',
        'subjects[0].name',
      ],
      'missing SA namespace': [
        { metadata: { name: 'master' }, roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: 'valid' }, subjects: [{ name: 'good', kind: 'ServiceAccount' }] },
        'FieldValueRequired',
        'subjects[0].namespace',
      ],
      'missing subject name': [
        { metadata: { name: 'master' }, roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: 'valid' }, subjects: [{ namespace: 'foo', name: '', kind: 'ServiceAccount' }] },
        'FieldValueRequired',
        'subjects[0].name',
      ],
    };
    for (const [name, [obj, type, field]] of Object.entries(cases)) expectAll(ClusterRoleBindingStrategy.validate(obj), type, field, name);
    // "zero-length name": metadata, through the store.
    const causes = await createCauses(env, 'ClusterRoleBinding', '', asObject('ClusterRoleBinding', { metadata: {}, roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: 'valid' } }));
    assert.deepEqual(causes, [{ type: 'FieldValueRequired', field: 'metadata.name' }]);
  });

  test('TestValidateRoleBinding', async () => {
    const valid: RoleBinding = {
      metadata: { namespace: 'default', name: 'master' },
      roleRef: { apiGroup: GroupName, kind: 'Role', name: 'valid' },
      subjects: [
        { name: 'validsaname', apiGroup: '', kind: 'ServiceAccount' },
        { name: 'valid@username', apiGroup: GroupName, kind: 'User' },
        { name: 'valid@groupname', apiGroup: GroupName, kind: 'Group' },
      ],
    };
    assert.deepEqual(RoleBindingStrategy.validate(valid), []);
    const meta = { namespace: 'default', name: 'master' };
    const ref = { apiGroup: GroupName, kind: 'Role', name: 'valid' };
    const cases: Record<string, [RoleBinding, FieldErrorType, string]> = {
      'bad group': [{ metadata: meta, roleRef: { apiGroup: 'rbac.GroupName', kind: 'ClusterRole', name: 'valid' } }, 'FieldValueNotSupported', 'roleRef.apiGroup'],
      'bad kind': [{ metadata: meta, roleRef: { apiGroup: GroupName, kind: 'Type', name: 'valid' } }, 'FieldValueNotSupported', 'roleRef.kind'],
      'bad role': [{ metadata: meta, roleRef: { apiGroup: GroupName, kind: 'Role', name: '' } }, 'FieldValueRequired', 'roleRef.name'],
      'bad subject kind': [{ metadata: meta, roleRef: ref, subjects: [{ name: 'subject', kind: '' }] }, 'FieldValueNotSupported', 'subjects[0].kind'],
      'bad subject name': [{ metadata: meta, roleRef: ref, subjects: [{ name: 'subject:bad', kind: 'ServiceAccount' }] }, 'FieldValueInvalid', 'subjects[0].name'],
      'missing subject name': [{ metadata: meta, roleRef: ref, subjects: [{ name: '', kind: 'ServiceAccount' }] }, 'FieldValueRequired', 'subjects[0].name'],
    };
    for (const [name, [obj, type, field]] of Object.entries(cases)) expectAll(RoleBindingStrategy.validate(obj), type, field, name);
    // "zero-length name": metadata, through the store. ("zero-length namespace" cannot reach a
    // store: the URL names the namespace, and the store sets it from there.)
    const causes = await createCauses(env, 'RoleBinding', 'default', asObject('RoleBinding', { metadata: {}, roleRef: ref }));
    assert.deepEqual(causes, [{ type: 'FieldValueRequired', field: 'metadata.name' }]);
  });

  test('TestValidateRoleBindingUpdate', async () => {
    const old: RoleBinding = { metadata: { namespace: 'default', name: 'master', resourceVersion: '1' }, roleRef: { apiGroup: GroupName, kind: 'Role', name: 'valid' } };
    assert.deepEqual(RoleBindingStrategy.validateUpdate({ ...old }, old), []);
    const changed: RoleBinding = { ...old, roleRef: { apiGroup: GroupName, kind: 'Role', name: 'changed' } };
    expectAll(RoleBindingStrategy.validateUpdate(changed, old), 'FieldValueInvalid', 'roleRef', 'changedRef');

    // Through the store: kube's 422 wording.
    const { main } = await env.storages(rbacGroup, 'RoleBinding');
    await main.create(ctx('default'), asObject('RoleBinding', { metadata: { name: 'master' }, roleRef: old.roleRef }), allow, write);
    await assert.rejects(
      main.update(ctx('default'), 'master', put(asObject('RoleBinding', { metadata: { name: 'master', namespace: 'default' }, roleRef: changed.roleRef })), allowBoth, {
        ...write,
        forceAllowCreate: false,
      }),
      (e) => {
        assert.ok(e instanceof StatusError);
        assert.equal(e.code, 422);
        assert.equal(
          e.message,
          'RoleBinding.rbac.authorization.k8s.io "master" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"changed"}: cannot change roleRef',
        );
        return true;
      },
    );
  });

  test('TestValidateClusterRoleBindingUpdate (roleRef immutable)', () => {
    const old: ClusterRoleBinding = { metadata: { name: 'b' }, roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: 'valid' } };
    assert.deepEqual(ClusterRoleBindingStrategy.validateUpdate({ ...old, subjects: [{ kind: 'User', apiGroup: GroupName, name: 'u' }] }, old), []);
    expectAll(ClusterRoleBindingStrategy.validateUpdate({ ...old, roleRef: { ...old.roleRef, name: 'other' } }, old), 'FieldValueInvalid', 'roleRef', 'changedRef');
  });

  const roleCase = (name: string, role: Role, want: [FieldErrorType, string] | undefined): void => {
    test(name, () => {
      const errs = RoleStrategy.validate(role);
      if (want === undefined) assert.deepEqual(errs, []);
      else expectAll(errs, want[0], want[1], name);
    });
  };
  const clusterRoleCase = (name: string, role: ClusterRole, want: [FieldErrorType, string] | undefined): void => {
    test(name, () => {
      const errs = ClusterRoleStrategy.validate(role);
      if (want === undefined) assert.deepEqual(errs, []);
      else expectAll(errs, want[0], want[1], name);
    });
  };

  test('TestValidateRoleZeroLengthNamespace / TestValidateRoleZeroLengthName (metadata, through the store)', async () => {
    assert.deepEqual(await createCauses(env, 'Role', 'default', asObject('Role', { metadata: {} })), [{ type: 'FieldValueRequired', field: 'metadata.name' }]);
  });
  roleCase('TestValidateRoleValidRole', { metadata: { namespace: 'default', name: 'default' } }, undefined);
  clusterRoleCase('TestValidateRoleValidRoleNoNamespace', { metadata: { name: 'default' } }, undefined);
  clusterRoleCase('TestValidateRoleNonResourceURL', { metadata: { name: 'default' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/*'] }] }, undefined);
  roleCase('TestValidateRoleNamespacedNonResourceURL', { metadata: { namespace: 'default', name: 'default' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/*'] }] }, [
    'FieldValueInvalid',
    'rules[0].nonResourceURLs',
  ]);
  clusterRoleCase('TestValidateRoleNonResourceURLNoVerbs', { metadata: { name: 'default' }, rules: [{ verbs: [], nonResourceURLs: ['/*'] }] }, ['FieldValueRequired', 'rules[0].verbs']);
  roleCase(
    'TestValidateRoleMixedNonResourceAndResource',
    { metadata: { name: 'default', namespace: 'default' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/*'], apiGroups: ['v1'], resources: ['pods'] }] },
    ['FieldValueInvalid', 'rules[0].nonResourceURLs'],
  );
  roleCase('TestValidateRoleValidResource', { metadata: { name: 'default', namespace: 'default' }, rules: [{ verbs: ['get'], apiGroups: ['v1'], resources: ['pods'] }] }, undefined);
  roleCase('TestValidateRoleNoAPIGroup', { metadata: { name: 'default', namespace: 'default' }, rules: [{ verbs: ['get'], resources: ['pods'] }] }, ['FieldValueRequired', 'rules[0].apiGroups']);
  roleCase('TestValidateRoleNoResources', { metadata: { name: 'default', namespace: 'default' }, rules: [{ verbs: ['get'], apiGroups: ['v1'] }] }, ['FieldValueRequired', 'rules[0].resources']);
});

describe('RBAC validation beyond kube’s test file', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('names are path segments: system:controller:x is valid, a slash is not (ValidateRBACName)', async () => {
    const { main } = await env.storages(rbacGroup, 'ClusterRole');
    const out = await main.create(ctx(''), asObject('ClusterRole', { metadata: { name: 'system:controller:namespace-controller' }, rules: [] }), allow, write);
    assert.equal(out.metadata?.name, 'system:controller:namespace-controller');
    await assert.rejects(main.create(ctx(''), asObject('ClusterRole', { metadata: { name: 'a%b' } }), allow, write), (e) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.message, `ClusterRole.rbac.authorization.k8s.io "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain '%'`);
      return true;
    });
  });

  test("rule messages are kube's, values as Go prints them", () => {
    const [nonResource] = RoleStrategy.validate({ metadata: { name: 'r', namespace: 'n' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }] });
    assert.ok(nonResource !== undefined);
    assert.equal(formatFieldError(nonResource), 'rules[0].nonResourceURLs: Invalid value: []string{"/a", "/b"}: namespaced rules cannot apply to non-resource URLs');

    const errs = RoleStrategy.validate({ metadata: { name: 'r', namespace: 'n' }, rules: [{ verbs: [], nonResourceURLs: ['/x'], resources: ['pods'] }, { verbs: ['get'] }] });
    assert.deepEqual(
      errs.map((e) => [e.field, e.detail]),
      [
        ['rules[0].verbs', 'verbs must contain at least one value'],
        ['rules[0].nonResourceURLs', 'namespaced rules cannot apply to non-resource URLs'],
        ['rules[0].nonResourceURLs', 'rules cannot apply to both regular resources and non-resource URLs'],
        ['rules[1].apiGroups', 'resource rules must supply at least one api group'],
        ['rules[1].resources', 'resource rules must supply at least one resource'],
      ],
    );
  });

  test('aggregationRule: at least one selector, each a valid label selector; rules beside it are allowed', () => {
    const base = { metadata: { name: 'agg' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
    assert.deepEqual(ClusterRoleStrategy.validate({ ...base, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-x': 'true' } }] } }), []);
    const none = ClusterRoleStrategy.validate({ ...base, aggregationRule: {} });
    assert.deepEqual(none, [{ type: 'FieldValueRequired', field: 'aggregationRule.clusterRoleSelectors', detail: 'at least one clusterRoleSelector required if aggregationRule is non-nil' }]);
    const bad = ClusterRoleStrategy.validate({ ...base, aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a b', operator: 'Exists' }] }] } });
    assert.deepEqual(
      bad.map((e) => [e.type, e.field, e.detail.slice(0, 30)]),
      [
        ['FieldValueInvalid', 'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].key', 'name part must consist of alph'],
        ['FieldValueInvalid', 'aggregationRule.clusterRoleSelectors[0]', 'invalid label selector.'],
      ],
    );
  });

  test('an update may keep selector values that were already invalid (kube’s ratcheting), not add new ones', () => {
    const withValue = (v: string): ClusterRole => ({ metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: [v] }] }] } });
    const old = withValue('bad value');
    assert.equal(ClusterRoleStrategy.validate(old).length > 0, true);
    assert.deepEqual(
      ClusterRoleStrategy.validateUpdate(withValue('bad value'), old).filter((e) => e.field.endsWith('values[0]')),
      [],
    );
    assert.ok(ClusterRoleStrategy.validateUpdate(withValue('also bad'), withValue('good')).some((e) => e.field.endsWith('values[0]')));
  });

  test('strategies: PUT may create and may omit resourceVersion, as kube’s RBAC strategies', () => {
    for (const s of [RoleStrategy, ClusterRoleStrategy, RoleBindingStrategy, ClusterRoleBindingStrategy]) {
      assert.equal(s.allowCreateOnUpdate, true);
      assert.equal(s.allowUnconditionalUpdate, true);
    }
  });

  test('printRoleBinding: Role as Kind/name; wide: users, groups, service accounts as namespace/name', () => {
    const def = rbacGroup.versions[0]?.resources.find((r) => r.kind === 'RoleBinding');
    assert.ok(def !== undefined);
    const rb: RoleBinding = {
      metadata: { name: 'b', creationTimestamp: '2024-05-01T10:00:00Z' },
      roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: 'admin' },
      subjects: [
        { kind: 'User', apiGroup: GroupName, name: 'alice' },
        { kind: 'User', apiGroup: GroupName, name: 'bob' },
        { kind: 'Group', apiGroup: GroupName, name: 'devs' },
        { kind: 'ServiceAccount', namespace: 'ns1', name: 'builder' },
      ],
    };
    const convertor = newTableConvertor(def.printerColumns, () => Date.parse('2024-05-01T10:05:00Z'), tablePrinterOf(def));
    const table = convertor.convertToTable(rb as unknown as TableSource, { noHeaders: false, isList: false });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Role', 0],
        ['Age', 0],
        ['Users', 1],
        ['Groups', 1],
        ['ServiceAccounts', 1],
      ],
    );
    assert.deepEqual(table.rows[0]?.cells, ['b', 'ClusterRole/admin', '5m', 'alice, bob', 'devs', 'ns1/builder']);
  });

  test('defaults (SetDefaults_RoleBinding, SetDefaults_Subject): roleRef and User/Group subjects get the group, service accounts none; wired for both bindings', () => {
    const rb: RoleBinding = {
      metadata: { name: 'b', namespace: 'n' },
      roleRef: { apiGroup: '', kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'User', name: 'u' },
        { kind: 'Group', name: 'g' },
        { kind: 'ServiceAccount', name: 'sa' },
        { kind: 'User', apiGroup: 'other.example.com', name: 'kept' },
      ],
    };
    setRoleBindingDefaults(rb);
    assert.deepEqual(rb.roleRef, { apiGroup: GroupName, kind: 'Role', name: 'r' });
    assert.deepEqual(
      rb.subjects?.map((x) => x.apiGroup),
      [GroupName, GroupName, undefined, 'other.example.com'],
    );
    assert.deepEqual(RoleBindingStrategy.validate({ ...rb, subjects: rb.subjects?.slice(0, 3) }), []);
    const crb: ClusterRoleBinding = { metadata: { name: 'c' }, roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'r' } };
    setClusterRoleBindingDefaults(crb);
    assert.equal(crb.roleRef.apiGroup, GroupName);
    const defs = rbacGroup.versions[0]?.resources ?? [];
    assert.equal(defs.find((r) => r.kind === 'RoleBinding')?.defaults, setRoleBindingDefaults);
    assert.equal(defs.find((r) => r.kind === 'ClusterRoleBinding')?.defaults, setClusterRoleBindingDefaults);
  });

  test('a protobuf ClusterRole without aggregationRule (kubectl create clusterrole) decodes without one: the field is a Go pointer', () => {
    // The body kubectl 1.32 sends for `create clusterrole x3 --verb=get --resource=configmaps`.
    const hex =
      '6b 38 73 00 0a 2b 0a 1c 72 62 61 63 2e 61 75 74 68 6f 72 69 7a 61 74 69 6f 6e 2e 6b 38 73 2e 69 6f 2f 76 31 12 0b 43 6c 75 73 74 65 72 52 6f 6c 65 ' +
      '12 29 0a 12 0a 02 78 33 12 00 1a 00 22 00 2a 00 32 00 38 00 42 00 12 13 0a 03 67 65 74 12 00 1a 0a 63 6f 6e 66 69 67 6d 61 70 73 1a 00 22 00';
    const bytes = new Uint8Array(hex.split(' ').map((h) => parseInt(h, 16)));
    const scheme = new ProtobufScheme([metaV1Protobuf, rbacV1Protobuf]);
    const role = decodeProtobufObject(bytes, { into: { apiVersion: `${GroupName}/v1`, kind: 'ClusterRole' }, scheme }) as unknown as ClusterRole;
    assert.equal(role.aggregationRule, undefined);
    assert.deepEqual(ClusterRoleStrategy.validate(role), []);
  });
});
