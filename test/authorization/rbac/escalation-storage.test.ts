import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rbacGroup } from '../../../generated/registry/rbac.js';
import type { PolicyRule } from '../../../apis/rbac/v1/types.js';
import { StatusError } from '../../../runtime/apimachinery/errors/index.js';
import type { Attributes, Authorizer } from '../../../runtime/apimachinery/request/authorizer.js';
import type { RequestInfo, UserInfo } from '../../../runtime/apimachinery/request/types.js';
import { DefaultRuleResolver } from '../../../runtime/authorization/rbac/resolver.js';
import { isOnlyMutatingGCFields } from '../../../runtime/controlplane/rbac/gc-fields.js';
import { policyBasedOverride } from '../../../runtime/controlplane/rbac/rest.js';
import type { KubeObject, RequestContext, ResourceStorage } from '../../../runtime/registry/rest.js';
import type { RESTAuthContext } from '../../../runtime/registry/types.js';
import { allow, allowBoth, newEnv, patch, put, write, type Env } from '../../registry/helpers.js';
import { newClusterRole, newClusterRoleBinding, newRole, newRoleBinding, storeOf } from './helpers.js';

// kube's pkg/registry/rbac/{role,clusterrole}/policybased/storage_test.go (TestEscalation) and
// pkg/registry/rbac/helpers_test.go (TestIsOnlyMutatingGCFields), over the real generic store
// (SQLite) with a fake RESTAuthContext: an authorizer that allows steve everything and counts
// its calls, and RBAC's rule resolver over a fixed policy (kube's NewTestRuleResolver). The
// binding storages, which kube's files do not test, follow the same pattern.

const GroupName = 'rbac.authorization.k8s.io';
const superuser: UserInfo = { name: 'superuser', groups: ['system:masters'] };
const bob: UserInfo = { name: 'bob', groups: [] };
const steve: UserInfo = { name: 'steve', groups: [] };
const alice: UserInfo = { name: 'alice', groups: [] };
const carol: UserInfo = { name: 'carol', groups: ['system:authenticated'] };

/** kube's fixture: alice holds `*` on every resource of every group (but no non-resource URL). */
const policy = storeOf({
  clusterRoles: [
    newClusterRole('alice-role', { apiGroups: ['*'], resources: ['*'], verbs: ['*'] }),
    newClusterRole('pod-reader', { apiGroups: [''], resources: ['pods'], verbs: ['get'] }),
    newClusterRole('pod-deleter', { apiGroups: [''], resources: ['pods'], verbs: ['delete'] }),
    newClusterRole('cluster-admin', { apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }),
  ],
  roles: [newRole('ns-reader', 'myns', { apiGroups: [''], resources: ['pods'], verbs: ['get'] })],
  clusterRoleBindings: [newClusterRoleBinding('alice-role', 'User:alice'), newClusterRoleBinding('cluster-admin', 'User:root')],
  roleBindings: [newRoleBinding('myns', 'pod-reader', 1, 'User:carol')],
});

let authzCalled = 0;
const fakeAuthorizer: Authorizer = {
  authorize: async (a: Attributes) => {
    authzCalled++;
    return { decision: a.user?.name === 'steve' ? 'allow' : 'noOpinion', reason: '' };
  },
};

function fakeAuth(authorizer: Authorizer = fakeAuthorizer): RESTAuthContext {
  return {
    authorizer,
    ruleResolver: { rulesFor: () => Promise.reject(new Error('not used')) },
    policyRuleResolver: new DefaultRuleResolver(policy),
    tokenAuthenticator: { authenticateToken: () => Promise.resolve(undefined), implicitAudiences: [] },
  };
}

function context(user: UserInfo, info: Partial<RequestInfo>): RequestContext {
  const requestInfo: RequestInfo = {
    isResourceRequest: true,
    path: '',
    verb: 'create',
    apiPrefix: 'apis',
    apiGroup: GroupName,
    apiVersion: 'v1',
    namespace: '',
    resource: 'roles',
    subresource: '',
    name: '',
    parts: [],
    ...info,
  };
  return { namespace: requestInfo.namespace, user, requestInfo, signal: new AbortController().signal, warn: () => {} };
}

function obj(kind: string, o: object): KubeObject {
  return { apiVersion: `${GroupName}/v1`, kind, ...o } as KubeObject;
}

const podRule: PolicyRule = { apiGroups: [''], verbs: ['get'], resources: ['pods'] };
const update = { ...write, forceAllowCreate: false };

async function wrapped(
  env: Env,
  kind: 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding',
  auth: RESTAuthContext = fakeAuth(),
): Promise<{ generic: ResourceStorage; storages: ResourceStorage }> {
  const generic = await env.storages(rbacGroup, kind);
  const plural = `${kind.toLowerCase()}s`;
  const { storages } = policyBasedOverride(kind)({ group: GroupName, kind, storages: generic, storage: await env.raw(GroupName, plural), auth });
  return { generic, storages };
}

function isForbidden(message?: string): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof StatusError, String(e));
    assert.equal(e.code, 403, e.message);
    assert.equal(e.reason, 'Forbidden');
    if (message !== undefined) assert.equal(e.message, message);
    return true;
  };
}

const cases = [
  // superuser doesn't even trigger an authz check, and is allowed
  { name: 'superuser', user: superuser, expectAuthz: false, expectAllowed: true },
  // bob triggers an authz check, is disallowed by the authorizer, and has no RBAC permissions, so is not allowed
  { name: 'bob', user: bob, expectAuthz: true, expectAllowed: false },
  // steve triggers an authz check, is allowed by the authorizer, and has no RBAC permissions, but is still allowed
  { name: 'steve', user: steve, expectAuthz: true, expectAllowed: true },
  // alice triggers an authz check, is denied by the authorizer, but has RBAC permissions in the fakeRuleResolver, so is allowed
  { name: 'alice', user: alice, expectAuthz: true, expectAllowed: true },
];

describe('policybased storage_test.go: TestEscalation', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  for (const [kind, namespace, resource] of [
    ['Role', 'myns', 'roles'],
    ['ClusterRole', '', 'clusterroles'],
  ] as const) {
    describe(`${kind} (${resource}/policybased)`, () => {
      for (const tc of cases) {
        test(tc.name, async () => {
          const { generic, storages } = await wrapped(env, kind);
          const name = `myrole-${tc.name}`;
          const role = obj(kind, { metadata: { name }, rules: [podRule] });
          const createCtx = context(tc.user, { verb: 'create', namespace, resource });
          const updateCtx = context(tc.user, { verb: 'update', namespace, resource, name });

          authzCalled = 0;
          const created = storages.main.create(createCtx, role, allow, write);
          if (tc.expectAllowed) await created;
          else await assert.rejects(created, isForbidden());
          assert.equal(authzCalled > 0, tc.expectAuthz, `authz calls: ${authzCalled}`);
          if (!tc.expectAllowed) {
            await assert.rejects(generic.main.get(createCtx, name, { resourceVersion: '' }), (e) => e instanceof StatusError && e.code === 404);
            await generic.main.create(context(superuser, { namespace }), role, allow, write);
          }

          authzCalled = 0;
          const changed = obj(kind, { metadata: { name, labels: { changed: 'yes' } }, rules: [podRule] });
          const updated = storages.main.update(updateCtx, name, put(changed), allowBoth, update);
          if (tc.expectAllowed) await updated;
          else await assert.rejects(updated, isForbidden());
          assert.equal(authzCalled > 0, tc.expectAuthz, `authz calls: ${authzCalled}`);
          const stored = await generic.main.get(updateCtx, name, { resourceVersion: '' });
          assert.equal(stored.metadata?.labels?.['changed'], tc.expectAllowed ? 'yes' : undefined);
        });
      }
    });
  }

  test("the refusal is kube's Forbidden naming the role and the missing rules", async () => {
    const { storages } = await wrapped(env, 'Role');
    const role = obj('Role', { metadata: { name: 'wide' }, rules: [{ apiGroups: [''], verbs: ['get', 'list'], resources: ['pods', 'secrets'] }] });
    await assert.rejects(
      storages.main.create(context(carol, { namespace: 'myns' }), role, allow, write),
      isForbidden(
        'roles.rbac.authorization.k8s.io "wide" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
          '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}\n' +
          '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
      ),
    );
    // What carol holds in the namespace she may grant there.
    await storages.main.create(context(carol, { namespace: 'myns' }), obj('Role', { metadata: { name: 'narrow' }, rules: [podRule] }), allow, write);
  });
});

describe('ClusterRole aggregationRule needs full authority', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });
  const aggregated = (name: string): KubeObject => obj('ClusterRole', { metadata: { name }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate': 'true' } }] } });
  const root: UserInfo = { name: 'root', groups: [] };

  test('alice (every resource, no non-resource URL) may not set one; cluster-admin may', async () => {
    const { storages } = await wrapped(env, 'ClusterRole');
    await assert.rejects(
      storages.main.create(context(alice, { resource: 'clusterroles' }), aggregated('agg'), allow, write),
      isForbidden('clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule'),
    );
    await storages.main.create(context(root, { resource: 'clusterroles' }), aggregated('agg'), allow, write);
  });

  test('removing an aggregationRule needs it too; other cluster roles alice may change', async () => {
    const { storages } = await wrapped(env, 'ClusterRole');
    await storages.main.create(context(root, { resource: 'clusterroles' }), aggregated('agg2'), allow, write);
    const plain = obj('ClusterRole', { metadata: { name: 'agg2' }, rules: [podRule] });
    await assert.rejects(storages.main.update(context(alice, { verb: 'update', resource: 'clusterroles', name: 'agg2' }), 'agg2', put(plain), allowBoth, update), isForbidden());
    await storages.main.create(context(alice, { resource: 'clusterroles' }), obj('ClusterRole', { metadata: { name: 'plain' }, rules: [podRule] }), allow, write);
  });
});

describe('binding storages (rolebinding, clusterrolebinding policybased)', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });
  const binding = (kind: string, name: string, roleKind: string, roleName: string): KubeObject =>
    obj(kind, { metadata: { name }, roleRef: { apiGroup: GroupName, kind: roleKind, name: roleName }, subjects: [{ kind: 'User', apiGroup: GroupName, name: 'dave' }] });

  test('RoleBinding: the rules of the role must be held in the namespace; superuser always may', async () => {
    const { storages } = await wrapped(env, 'RoleBinding');
    const ctx = context(carol, { namespace: 'myns', resource: 'rolebindings' });
    await storages.main.create(ctx, binding('RoleBinding', 'reader', 'ClusterRole', 'pod-reader'), allow, write);
    await storages.main.create(ctx, binding('RoleBinding', 'ns-reader', 'Role', 'ns-reader'), allow, write);
    await assert.rejects(
      storages.main.create(ctx, binding('RoleBinding', 'deleter', 'ClusterRole', 'pod-deleter'), allow, write),
      isForbidden(
        'rolebindings.rbac.authorization.k8s.io "deleter" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
          '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
      ),
    );
    await storages.main.create(context(superuser, { namespace: 'myns', resource: 'rolebindings' }), binding('RoleBinding', 'deleter', 'ClusterRole', 'pod-deleter'), allow, write);
  });

  test('RoleBinding: `bind` on the role in the namespace is enough, asked as kube asks it', async () => {
    const asked: Attributes[] = [];
    const binder: Authorizer = { authorize: async (a) => (asked.push(a), { decision: a.verb === 'bind' && a.user?.name === 'bob' ? 'allow' : 'noOpinion', reason: '' }) };
    const { storages } = await wrapped(env, 'RoleBinding', fakeAuth(binder));
    await storages.main.create(context(bob, { namespace: 'myns', resource: 'rolebindings' }), binding('RoleBinding', 'bound', 'ClusterRole', 'pod-deleter'), allow, write);
    assert.deepEqual(asked, [
      { user: bob, verb: 'bind', isResourceRequest: true, path: '', namespace: 'myns', apiGroup: GroupName, apiVersion: '*', resource: 'clusterroles', subresource: '', name: 'pod-deleter' },
    ]);
  });

  test("RoleBinding: a missing role is the registry's NotFound; no namespace is 400", async () => {
    const { storages } = await wrapped(env, 'RoleBinding');
    await assert.rejects(storages.main.create(context(carol, { namespace: 'myns', resource: 'rolebindings' }), binding('RoleBinding', 'x', 'Role', 'nope'), allow, write), (e) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 404);
      assert.equal(e.message, 'roles.rbac.authorization.k8s.io "nope" not found');
      return true;
    });
    await assert.rejects(storages.main.create(context(carol, { resource: 'rolebindings' }), binding('RoleBinding', 'x', 'Role', 'nope'), allow, write), (e) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 400);
      assert.equal(e.message, 'namespace is required');
      return true;
    });
  });

  test('ClusterRoleBinding: the cluster role’s rules held cluster-wide (a RoleBinding grant does not count); bind asked with no namespace', async () => {
    const asked: Attributes[] = [];
    const recording: Authorizer = { authorize: async (a) => (asked.push(a), { decision: 'noOpinion', reason: '' }) };
    const { storages } = await wrapped(env, 'ClusterRoleBinding', fakeAuth(recording));
    await assert.rejects(storages.main.create(context(carol, { resource: 'clusterrolebindings' }), binding('ClusterRoleBinding', 'c', 'ClusterRole', 'pod-reader'), allow, write), isForbidden());
    assert.equal(asked[0]?.namespace, '');
    assert.equal(asked[0]?.verb, 'bind');
    await storages.main.create(context(alice, { resource: 'clusterrolebindings' }), binding('ClusterRoleBinding', 'c', 'ClusterRole', 'pod-reader'), allow, write);
  });

  test('an update that only changes owner references and finalizers is not checked; any other change is', async () => {
    const { generic, storages } = await wrapped(env, 'ClusterRoleBinding');
    await generic.main.create(context(superuser, {}), binding('ClusterRoleBinding', 'gc', 'ClusterRole', 'cluster-admin'), allow, write);
    const ctx = context(bob, { verb: 'patch', resource: 'clusterrolebindings', name: 'gc' });
    const gcOnly = patch((o) => ({ ...o, metadata: { ...o.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'n', uid: 'u1' }], finalizers: ['example.com/f'] } }));
    const out = await storages.main.update(ctx, 'gc', gcOnly, allowBoth, update);
    assert.deepEqual(out.object.metadata?.finalizers, ['example.com/f']);
    const labelled = patch((o) => ({ ...o, metadata: { ...o.metadata, labels: { a: 'b' } } }));
    await assert.rejects(storages.main.update(ctx, 'gc', labelled, allowBoth, update), isForbidden());
  });
});

describe('helpers_test.go: TestIsOnlyMutatingGCFields', () => {
  const newPod = (): KubeObject => ({ metadata: { annotations: {}, name: 'foo', ownerReferences: [] } });
  const cases: [string, () => KubeObject, () => KubeObject | undefined, boolean][] = [
    ['same', newPod, newPod, true],
    ['only annotations', () => ({ metadata: { ...newPod().metadata, annotations: { foo: 'bar' } } }), newPod, false],
    ['only other', () => ({ ...newPod(), spec: { restartPolicy: 'Always' } }), newPod, false],
    ['only ownerRef', () => ({ metadata: { ...newPod().metadata, ownerReferences: [{ name: 'foo' }] } }), newPod, true],
    ['ownerRef and finalizer', () => ({ metadata: { ...newPod().metadata, ownerReferences: [{ name: 'foo' }], finalizers: ['final'] } }), newPod, true],
    ['and annotations', () => ({ metadata: { ...newPod().metadata, ownerReferences: [{ name: 'foo' }], annotations: { foo: 'bar' } } }), newPod, false],
    ['and other', () => ({ metadata: { ...newPod().metadata, ownerReferences: [{ name: 'foo' }] }, spec: { restartPolicy: 'Always' } }), newPod, false],
    ['and nil', () => ({ metadata: { ...newPod().metadata, ownerReferences: [{ name: 'foo' }] }, spec: { restartPolicy: 'Always' } }), () => undefined, false],
  ];
  for (const [name, objFn, oldFn, expected] of cases) test(name, () => assert.equal(isOnlyMutatingGCFields(objFn(), oldFn()), expected));
});

describe('installing the storages', () => {
  test('without the server’s authorization (a standalone aggregated server) is a clear error', async () => {
    const env = await newEnv();
    try {
      const generic = await env.storages(rbacGroup, 'Role');
      const storage = await env.raw(GroupName, 'roles');
      assert.throws(
        () => policyBasedOverride('Role')({ group: GroupName, kind: 'Role', storages: generic, storage }),
        /^Error: Role storage needs the server's authorizer and RBAC rule resolver \(escalation prevention\); rbac\.authorization\.k8s\.io is served by the control plane only$/,
      );
    } finally {
      await env.close();
    }
  });
});
