import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../../runtime/apimachinery/errors/status-error.js';
import { RBACAuthorizer } from '../../../runtime/authorization/rbac/authorizer.js';
import { attributesRecord, bindToClusterRole, bindToRole, newClusterRole, newClusterRoleBinding, newRole, newRoleBinding, newRule, storeOf } from './helpers.js';

// The answers of the RBAC authorizer in kube's words: allow reasons (rbac.go's authorizingVisitor
// with rule.go's describers), noOpinion with `RBAC: <errors>`, the rules review
// (RBACAuthorizer.RulesFor and selfsubjectrulesreview's conversion), and the PolicyRuleResolver
// RBAC's REST storage uses, whose NotFound is the registry's.

const rbacGroup = 'rbac.authorization.k8s.io';
const listFlunders = (name: string, groups: string[], namespace: string): ReturnType<typeof attributesRecord> =>
  attributesRecord({ user: { name, groups }, verb: 'list', isResourceRequest: true, apiGroup: 'wardle.example.com', resource: 'flunders', namespace });
const flunderReader = newClusterRole('flunder-reader', newRule('list', 'wardle.example.com', 'flunders', ''));

describe('RBACAuthorizer reasons', () => {
  it('names the ClusterRoleBinding, its role and the user', async () => {
    const crb = { ...newClusterRoleBinding('flunder-reader', 'User:alice'), metadata: { name: 'x' } };
    const a = new RBACAuthorizer(storeOf({ clusterRoles: [flunderReader], clusterRoleBindings: [crb] }));
    assert.deepEqual(await a.authorize(listFlunders('alice', [], 'ns')), {
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "flunder-reader" to User "alice"',
    });
  });

  it('names a RoleBinding as name/namespace, and the first subject that applies', async () => {
    const rb = { ...newRoleBinding('ns', 'local', bindToRole, 'Group:g', 'User:alice'), metadata: { name: 'x', namespace: 'ns' } };
    const a = new RBACAuthorizer(storeOf({ roles: [newRole('local', 'ns', newRule('list', 'wardle.example.com', 'flunders', ''))], roleBindings: [rb] }));
    assert.deepEqual(await a.authorize(listFlunders('alice', ['g'], 'ns')), { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "x/ns" of Role "local" to Group "g"' });
  });

  it('names a service account as name/namespace, the namespace defaulted from the RoleBinding', async () => {
    const rb = { ...newRoleBinding('ns', 'flunder-reader', bindToClusterRole, 'ServiceAccount:robot'), metadata: { name: 'x', namespace: 'ns' } };
    const a = new RBACAuthorizer(storeOf({ clusterRoles: [flunderReader], roleBindings: [rb] }));
    assert.deepEqual(await a.authorize(listFlunders('system:serviceaccount:ns:robot', ['system:serviceaccounts'], 'ns')), {
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "x/ns" of ClusterRole "flunder-reader" to ServiceAccount "robot/ns"',
    });
  });

  it('is noOpinion with no reason when nothing grants, and for a request without a user', async () => {
    const a = new RBACAuthorizer(storeOf({ clusterRoles: [flunderReader], clusterRoleBindings: [newClusterRoleBinding('flunder-reader', 'User:alice')] }));
    assert.deepEqual(await a.authorize({ ...listFlunders('alice', [], 'ns'), verb: 'delete' }), { decision: 'noOpinion', reason: '' });
    assert.deepEqual(await a.authorize({ ...listFlunders('alice', [], 'ns'), user: undefined }), { decision: 'noOpinion', reason: '' });
  });

  it('reports missing roles as evaluation errors, and still allows by the bindings that resolve', async () => {
    const store = storeOf({
      clusterRoles: [flunderReader],
      clusterRoleBindings: [newClusterRoleBinding('gone', 'User:alice'), { ...newClusterRoleBinding('flunder-reader', 'User:alice'), metadata: { name: 'ok' } }],
      roleBindings: [
        newRoleBinding('ns', 'missing-role', bindToRole, 'User:alice'),
        { ...newRoleBinding('ns', 'x', bindToRole, 'User:alice'), roleRef: { apiGroup: rbacGroup, kind: 'Secret', name: 'x' } },
      ],
    });
    const a = new RBACAuthorizer(store);
    assert.deepEqual(await a.authorize({ ...listFlunders('alice', [], 'ns'), verb: 'get' }), {
      decision: 'noOpinion',
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "missing-role" not found, unsupported role reference kind: "Secret"]',
    });
    assert.deepEqual(await a.authorize(listFlunders('alice', [], 'ns')), { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "ok" of ClusterRole "flunder-reader" to User "alice"' });
  });

  it('prints an error met twice once (utilerrors aggregate)', async () => {
    const store = storeOf({ clusterRoleBindings: [newClusterRoleBinding('gone', 'User:alice'), newClusterRoleBinding('gone', 'Group:g')] });
    assert.deepEqual(await new RBACAuthorizer(store).authorize(listFlunders('alice', ['g'], '')), { decision: 'noOpinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found' });
  });
});

describe('RBACAuthorizer rulesFor (SelfSubjectRulesReview)', () => {
  it('splits resource and non-resource rules, cluster-wide ones first, and reports errors without marking the list incomplete', async () => {
    const store = storeOf({
      clusterRoles: [
        newClusterRole('basic', { verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }),
        newClusterRole('named', { verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm1'] }),
      ],
      clusterRoleBindings: [newClusterRoleBinding('basic', 'Group:system:authenticated'), newClusterRoleBinding('gone', 'Group:system:authenticated')],
      roleBindings: [newRoleBinding('ns', 'named', bindToClusterRole, 'User:alice'), newRoleBinding('other', 'named', bindToClusterRole, 'User:alice')],
    });
    const review = await new RBACAuthorizer(store).rulesFor({ name: 'alice', groups: ['system:authenticated'] }, 'ns');
    assert.deepEqual(review, {
      resourceRules: [{ verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm1'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }],
      incomplete: false,
      evaluationError: 'clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });

  it('lists a rule naming both resources and URLs in both lists, as kube does', async () => {
    const store = storeOf({ clusterRoles: [newClusterRole('admin', newRule('*', '*', '*', '*'))], clusterRoleBindings: [newClusterRoleBinding('admin', 'User:root')] });
    const review = await new RBACAuthorizer(store).rulesFor({ name: 'root', groups: [] }, 'ns');
    assert.deepEqual(review.resourceRules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    assert.deepEqual(review.nonResourceRules, [{ verbs: ['*'], nonResourceURLs: ['*'] }]);
    assert.equal(review.evaluationError, '');
  });
  it('leaves empty lists out of the rules, as kube omits them', async () => {
    const store = storeOf({
      clusterRoles: [newClusterRole('r', { verbs: ['get'], apiGroups: [], resources: ['pods'], resourceNames: [] })],
      clusterRoleBindings: [newClusterRoleBinding('r', 'User:alice')],
    });
    const review = await new RBACAuthorizer(store).rulesFor({ name: 'alice', groups: [] }, 'ns');
    assert.deepEqual(review.resourceRules, [{ verbs: ['get'], resources: ['pods'] }]);
    assert.deepEqual(review.nonResourceRules, []);
  });
});

describe('PolicyRuleResolver (RBAC REST storage)', () => {
  const store = storeOf({
    clusterRoles: [flunderReader],
    roles: [newRole('local', 'ns', newRule('get', '', 'pods', ''))],
    roleBindings: [newRoleBinding('ns', 'missing', bindToRole, 'User:alice'), newRoleBinding('ns', 'local', bindToRole, 'User:alice')],
  });
  const resolver = new RBACAuthorizer(store).policyRuleResolver();

  it("resolves a role reference in the binding's namespace", async () => {
    assert.deepEqual(await resolver.getRoleReferenceRules({ apiGroup: rbacGroup, kind: 'Role', name: 'local' }, 'ns'), [newRule('get', '', 'pods', '')]);
    assert.deepEqual(await resolver.getRoleReferenceRules({ apiGroup: rbacGroup, kind: 'ClusterRole', name: 'flunder-reader' }, 'ns'), flunderReader.rules);
  });

  it('rejects a missing role with the registry NotFound', async () => {
    for (const [kind, namespace, message] of [
      ['ClusterRole', '', 'clusterroles.rbac.authorization.k8s.io "nope" not found'],
      ['Role', 'ns', 'roles.rbac.authorization.k8s.io "nope" not found'],
      ['Role', 'elsewhere', 'roles.rbac.authorization.k8s.io "nope" not found'],
    ] as const) {
      await assert.rejects(resolver.getRoleReferenceRules({ apiGroup: rbacGroup, kind, name: 'nope' }, namespace), (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, 404);
        assert.equal(err.status.reason, 'NotFound');
        assert.equal(err.status.message, message);
        assert.deepEqual(err.status.details, { name: 'nope', group: rbacGroup, kind: kind === 'Role' ? 'roles' : 'clusterroles' });
        return true;
      });
    }
    await assert.rejects(resolver.getRoleReferenceRules({ apiGroup: rbacGroup, kind: 'Pod', name: 'x' }, 'ns'), { message: 'unsupported role reference kind: "Pod"' });
  });

  it('rulesFor answers the rules found with the errors met', async () => {
    const { rules, errors } = await resolver.rulesFor({ name: 'alice', groups: [] }, 'ns');
    assert.deepEqual(rules, [newRule('get', '', 'pods', '')]);
    assert.deepEqual(
      errors.map((e) => e.message),
      ['roles.rbac.authorization.k8s.io "missing" not found'],
    );
  });
});
