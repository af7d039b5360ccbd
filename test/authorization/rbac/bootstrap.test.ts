// The bootstrap policy as data (kube's bootstrappolicy tests check the same properties of its
// testdata): every binding grants a role that exists, everything carries kube's label and
// autoupdate annotation, cluster-admin covers every rule, admin ⊇ edit ⊇ view once aggregated,
// and the RBAC authorizer over the policy gives the well-known users what kube gives them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClusterRole, PolicyRule } from '../../../apis/rbac/v1/types.js';
import type { UserInfo } from '../../../runtime/apimachinery/request/types.js';
import type { Attributes } from '../../../runtime/apimachinery/request/authorizer.js';
import { bootstrapPolicy, CONTROLLER_NAMES, controllerUser, controllerUsers, kubeControllerManagerUser } from '../../../runtime/authorization/rbac/bootstrap/index.js';
import { newRule } from '../../../runtime/authorization/rbac/bootstrap/builders.js';
import { covers } from '../../../runtime/authorization/rbac/escalation.js';
import { RBACAuthorizer } from '../../../runtime/authorization/rbac/index.js';
import { aggregatedRules } from '../../../runtime/controllers/clusterroleaggregation/controller.js';
import { attributesRecord, storeOf } from './helpers.js';

const policy = bootstrapPolicy();
const byName = new Map(policy.clusterRoles.map((r) => [r.metadata?.name ?? '', r]));

/** The cluster roles after the aggregation controller has run to a fixed point (view into edit into admin). */
function aggregated(): Map<string, ClusterRole> {
  const roles = new Map([...byName].map(([k, v]) => [k, structuredClone(v)]));
  for (let changed = true; changed;) {
    changed = false;
    for (const role of roles.values()) {
      if (role.aggregationRule === undefined) continue;
      const rules = aggregatedRules(role, (selector) => [...roles.values()].filter((r) => selector.matches(new Map(Object.entries(r.metadata?.labels ?? {})))));
      if (JSON.stringify(rules) !== JSON.stringify(role.rules ?? [])) {
        role.rules = rules;
        changed = true;
      }
    }
  }
  return roles;
}

describe('bootstrap policy data', () => {
  test('every cluster role binding grants a cluster role of the policy', () => {
    for (const b of policy.clusterRoleBindings) {
      assert.equal(b.roleRef.kind, 'ClusterRole', b.metadata?.name);
      assert.ok(byName.has(b.roleRef.name), `${b.metadata?.name} → ${b.roleRef.name}`);
    }
  });

  test('every role binding grants a role of its namespace', () => {
    for (const [ns, bindings] of policy.roleBindings) {
      for (const b of bindings) {
        assert.equal(b.metadata?.namespace, ns);
        assert.ok(
          (policy.roles.get(ns) ?? []).some((r) => r.metadata?.name === b.roleRef.name),
          `${ns}/${b.metadata?.name} → ${b.roleRef.name}`,
        );
      }
    }
  });

  test("names are unique and every object carries kube's bootstrapping label and autoupdate annotation", () => {
    const all = [...policy.clusterRoles, ...policy.clusterRoleBindings, ...[...policy.roles.values()].flat(), ...[...policy.roleBindings.values()].flat()];
    for (const o of all) {
      assert.equal(o.metadata?.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', o.metadata?.name);
      assert.equal(o.metadata?.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true', o.metadata?.name);
    }
    assert.equal(new Set(policy.clusterRoles.map((r) => r.metadata?.name)).size, policy.clusterRoles.length);
    assert.equal(new Set(policy.clusterRoleBindings.map((r) => r.metadata?.name)).size, policy.clusterRoleBindings.length);
  });

  test("kube's well-known roles and bindings are there, by kube's names and subjects", () => {
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:monitoring', 'system:auth-delegator'])
      assert.ok(byName.has(name), name);
    const subjects = (name: string): string[] => (policy.clusterRoleBindings.find((b) => b.metadata?.name === name)?.subjects ?? []).map((s) => `${s.kind}:${s.namespace ?? ''}:${s.name}`);
    assert.deepEqual(subjects('cluster-admin'), ['Group::system:masters']);
    assert.deepEqual(subjects('system:discovery'), ['Group::system:authenticated']);
    assert.deepEqual(subjects('system:basic-user'), ['Group::system:authenticated']);
    assert.deepEqual(subjects('system:public-info-viewer'), ['Group::system:authenticated', 'Group::system:unauthenticated']);
    assert.deepEqual(subjects('system:monitoring'), ['Group::system:monitoring']);
    assert.deepEqual(subjects('system:controller:namespace-controller'), ['ServiceAccount:kube-system:namespace-controller']);
    assert.deepEqual(policy.roleBindings.get('kube-system')?.[0]?.metadata?.name, 'system::extension-apiserver-authentication-reader');
  });

  test('rules are built as kube builds them: sorted lists, resource rules with groups', () => {
    assert.deepEqual(newRule('watch', 'get').groups('b', 'a').resources('z', 'y').names('n2', 'n1').rule(), {
      verbs: ['get', 'watch'],
      apiGroups: ['a', 'b'],
      resources: ['y', 'z'],
      resourceNames: ['n1', 'n2'],
    });
    assert.throws(() => newRule('get').resources('pods').rule(), /resource rule must have apiGroups/);
    assert.throws(() => newRule('get').groups('').resources('pods').urls('/x').rule(), /non-resource rule may not have apiGroups, resources, or resourceNames/);
    assert.throws(() => newRule().urls('/x').rule(), /verbs are required/);
  });

  test('cluster-admin covers every rule of every role', () => {
    const every: PolicyRule[] = [...policy.clusterRoles.flatMap((r) => r.rules ?? []), ...[...policy.roles.values()].flat().flatMap((r) => r.rules ?? [])];
    const result = covers(byName.get('cluster-admin')?.rules ?? [], every);
    assert.ok(result.covered, JSON.stringify(result.uncoveredRules));
  });

  test("admin, edit and view are aggregated as kube's: admin ⊇ edit ⊇ view, view only reads", () => {
    const roles = aggregated();
    const rules = (n: string): PolicyRule[] => roles.get(n)?.rules ?? [];
    assert.ok(rules('view').length > 0);
    assert.ok(covers(rules('edit'), rules('view')).covered, 'edit covers view');
    assert.ok(covers(rules('admin'), rules('edit')).covered, 'admin covers edit');
    assert.ok(covers(rules('admin'), rules('system:aggregate-to-admin')).covered, 'admin has the admin extras');
    assert.ok(!covers(rules('edit'), rules('system:aggregate-to-admin')).covered, 'edit cannot grant roles');
    for (const r of rules('view')) assert.deepEqual(r.verbs, ['get', 'list', 'watch'], JSON.stringify(r));
    assert.ok(!rules('view').some((r) => (r.resources ?? []).includes('secrets')), 'view never reads secrets');
  });
});

describe('bootstrap policy through the RBAC authorizer', () => {
  const store = storeOf({
    clusterRoles: [...aggregated().values()],
    clusterRoleBindings: [...policy.clusterRoleBindings],
    roles: [...policy.roles.values()].flat(),
    roleBindings: [...policy.roleBindings.values()].flat(),
  });
  const authorizer = new RBACAuthorizer(store);
  const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
  const admin: UserInfo = { name: 'system:admin', groups: ['system:masters', 'system:authenticated'] };
  const url = (user: UserInfo, verb: string, path: string): Attributes => attributesRecord({ user, verb, path });
  const res = (user: UserInfo, verb: string, apiGroup: string, resource: string, namespace = '', subresource = '', name = ''): Attributes =>
    attributesRecord({ user, verb, isResourceRequest: true, namespace, apiGroup, apiVersion: 'v1', resource, subresource, name });
  const allowed = (a: Attributes): boolean => authorizer.authorizeSync(a).decision === 'allow';

  test('anonymous: only the public information (health, version)', () => {
    assert.ok(allowed(url(anonymous, 'get', '/healthz')));
    assert.ok(allowed(url(anonymous, 'get', '/version')));
    assert.ok(!allowed(url(anonymous, 'get', '/api')));
    assert.ok(!allowed(url(anonymous, 'get', '/metrics')));
    assert.ok(!allowed(res(anonymous, 'create', 'authorization.k8s.io', 'selfsubjectaccessreviews')));
  });

  test('an authenticated user: discovery, OpenAPI and the self reviews, nothing else', () => {
    for (const p of ['/api', '/apis/rbac.authorization.k8s.io/v1', '/openapi/v2', '/readyz']) assert.ok(allowed(url(alice, 'get', p)), p);
    assert.ok(!allowed(url(alice, 'get', '/metrics')));
    assert.ok(allowed(res(alice, 'create', 'authorization.k8s.io', 'selfsubjectaccessreviews')));
    assert.ok(allowed(res(alice, 'create', 'authorization.k8s.io', 'selfsubjectrulesreviews')));
    assert.ok(allowed(res(alice, 'create', 'authentication.k8s.io', 'selfsubjectreviews')));
    assert.ok(!allowed(res(alice, 'list', '', 'configmaps', 'default')));
  });

  test('system:masters may do anything; system:monitoring reads /metrics', () => {
    assert.ok(allowed(res(admin, 'escalate', 'rbac.authorization.k8s.io', 'clusterroles')));
    assert.ok(allowed(url(admin, 'delete', '/anything')));
    assert.ok(allowed(url({ name: 'prometheus', groups: ['system:monitoring'] }, 'get', '/metrics')));
  });

  test('each controller identity holds its role', () => {
    const users = controllerUsers();
    assert.equal(users[CONTROLLER_NAMES.namespace].name, 'system:serviceaccount:kube-system:namespace-controller');
    assert.ok(allowed(res(controllerUser(CONTROLLER_NAMES.clusterRoleAggregation), 'escalate', 'rbac.authorization.k8s.io', 'clusterroles')));
    assert.ok(allowed(res(controllerUser(CONTROLLER_NAMES.clusterRoleAggregation), 'update', 'rbac.authorization.k8s.io', 'clusterroles', '', '', 'admin')));
    assert.ok(!allowed(res(controllerUser(CONTROLLER_NAMES.clusterRoleAggregation), 'update', 'rbac.authorization.k8s.io', 'clusterrolebindings')));
    assert.ok(allowed(res(controllerUser(CONTROLLER_NAMES.namespace), 'deletecollection', 'wardle.example.com', 'flunders', 'x')));
    assert.ok(allowed(res(controllerUser(CONTROLLER_NAMES.namespace), 'update', '', 'namespaces', '', 'finalize', 'x')));
    assert.ok(!allowed(res(controllerUser(CONTROLLER_NAMES.namespace), 'create', '', 'configmaps', 'x')));
    assert.ok(allowed(res(controllerUser(CONTROLLER_NAMES.garbageCollector), 'patch', 'stable.example.com', 'crontabs', 'x')));
    assert.ok(!allowed(res(controllerUser(CONTROLLER_NAMES.garbageCollector), 'create', '', 'configmaps', 'x')));
    assert.ok(allowed(res(controllerUser(CONTROLLER_NAMES.serviceAccount), 'create', '', 'serviceaccounts', 'x')));
    assert.ok(!allowed(res(controllerUser(CONTROLLER_NAMES.serviceAccount), 'delete', '', 'serviceaccounts', 'x')));
    assert.ok(allowed(res(kubeControllerManagerUser(), 'watch', '', 'serviceaccounts')));
  });

  test('edit may write configmaps in its namespace but not grant roles; admin may; view only reads', () => {
    const bound = (role: string): UserInfo => ({ name: `${role}-user`, groups: ['system:authenticated'] });
    for (const role of ['admin', 'edit', 'view'])
      store.upsertRoleBinding({
        metadata: { name: role, namespace: 'team' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `${role}-user` }],
      });
    assert.ok(allowed(res(bound('edit'), 'create', '', 'configmaps', 'team')));
    assert.ok(!allowed(res(bound('edit'), 'create', '', 'configmaps', 'other')));
    assert.ok(!allowed(res(bound('edit'), 'create', 'rbac.authorization.k8s.io', 'rolebindings', 'team')));
    assert.ok(allowed(res(bound('admin'), 'create', 'rbac.authorization.k8s.io', 'rolebindings', 'team')));
    assert.ok(allowed(res(bound('view'), 'list', '', 'services', 'team')));
    assert.ok(!allowed(res(bound('view'), 'update', '', 'services', 'team')));
  });
});
