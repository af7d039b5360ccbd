import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../../../runtime/apimachinery/request/types.js';
import { RBACAuthorizer } from '../../../runtime/authorization/rbac/authorizer.js';
import { PolicyStore } from '../../../runtime/authorization/rbac/policy.js';
import { attributesRecord, bindToClusterRole, bindToRole, newClusterRole, newClusterRoleBinding, newRole, newRoleBinding, newRule, storeOf } from './helpers.js';

// The indexed policy store: bindings are found by the subjects they name, updates and removals
// move them between index entries, service accounts match as kube's appliesToUser says, and keys
// from objects or users are data.

const getPods = (user: UserInfo, namespace: string): ReturnType<typeof attributesRecord> =>
  attributesRecord({ user, verb: 'get', isResourceRequest: true, resource: 'pods', namespace, apiVersion: 'v1' });
const reader = newClusterRole('reader', newRule('get', '', 'pods', ''));

async function decision(store: PolicyStore, user: UserInfo, namespace: string): Promise<string> {
  return (await new RBACAuthorizer(store).authorize(getPods(user, namespace))).decision;
}

describe('PolicyStore', () => {
  it('an updated binding applies to its new subjects only', async () => {
    const store = storeOf({ clusterRoles: [reader] });
    const binding = newClusterRoleBinding('reader', 'User:alice');
    store.upsertClusterRoleBinding(binding);
    assert.equal(await decision(store, { name: 'alice', groups: [] }, 'ns'), 'allow');
    store.upsertClusterRoleBinding({ ...binding, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }] });
    assert.equal(await decision(store, { name: 'alice', groups: [] }, 'ns'), 'noOpinion');
    assert.equal(await decision(store, { name: 'bob', groups: ['devs'] }, 'ns'), 'allow');
  });

  it('removed bindings and roles no longer grant', async () => {
    const rb = newRoleBinding('ns1', 'local', bindToRole, 'User:alice');
    const store = storeOf({ roles: [newRole('local', 'ns1', newRule('get', '', 'pods', ''))], roleBindings: [rb] });
    const alice = { name: 'alice', groups: [] };
    assert.equal(await decision(store, alice, 'ns1'), 'allow');
    store.removeRole('ns1', 'local');
    const result = await new RBACAuthorizer(store).authorize(getPods(alice, 'ns1'));
    assert.deepEqual(result, { decision: 'noOpinion', reason: 'RBAC: role.rbac.authorization.k8s.io "local" not found' });
    store.removeRoleBinding('ns1', rb.metadata?.name ?? '');
    assert.deepEqual(await new RBACAuthorizer(store).authorize(getPods(alice, 'ns1')), { decision: 'noOpinion', reason: '' });
    // Removing what is not there is no error (a delete event for an object never seen).
    store.removeRoleBinding('ns1', 'never');
    store.removeClusterRoleBinding('never');
    store.removeClusterRole('never');
    store.removeRole('nowhere', 'never');
  });

  it('a RoleBinding grants in its own namespace only', async () => {
    const store = storeOf({ clusterRoles: [reader], roleBindings: [newRoleBinding('ns1', 'reader', bindToClusterRole, 'User:alice')] });
    assert.equal(await decision(store, { name: 'alice', groups: [] }, 'ns1'), 'allow');
    assert.equal(await decision(store, { name: 'alice', groups: [] }, 'ns2'), 'noOpinion');
    assert.equal(await decision(store, { name: 'alice', groups: [] }, ''), 'noOpinion');
  });

  it("a service account subject without a namespace is the RoleBinding's namespace's, and nobody in a ClusterRoleBinding", async () => {
    const store = storeOf({
      clusterRoles: [reader],
      roleBindings: [newRoleBinding('ns1', 'reader', bindToClusterRole, 'ServiceAccount:robot')],
      clusterRoleBindings: [newClusterRoleBinding('reader', 'ServiceAccount:everywhere')],
    });
    assert.equal(await decision(store, { name: 'system:serviceaccount:ns1:robot', groups: [] }, 'ns1'), 'allow');
    assert.equal(await decision(store, { name: 'system:serviceaccount:ns2:robot', groups: [] }, 'ns1'), 'noOpinion');
    assert.equal(await decision(store, { name: 'system:serviceaccount::everywhere', groups: [] }, 'ns1'), 'noOpinion');
    assert.equal(await decision(store, { name: 'system:serviceaccount:ns1:everywhere', groups: [] }, 'ns1'), 'noOpinion');
  });

  it('a service account subject with a namespace names that namespace’s account, in any binding', async () => {
    const store = storeOf({
      clusterRoles: [reader],
      roleBindings: [{ ...newRoleBinding('ns1', 'reader', bindToClusterRole), subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'other' }] }],
    });
    assert.equal(await decision(store, { name: 'system:serviceaccount:other:robot', groups: [] }, 'ns1'), 'allow');
    assert.equal(await decision(store, { name: 'system:serviceaccount:ns1:robot', groups: [] }, 'ns1'), 'noOpinion');
  });

  it('system:serviceaccounts and system:serviceaccounts:<ns> are ordinary groups', async () => {
    const store = storeOf({
      clusterRoles: [reader],
      roleBindings: [newRoleBinding('ns1', 'reader', bindToClusterRole, 'Group:system:serviceaccounts:ns1')],
      clusterRoleBindings: [newClusterRoleBinding('reader', 'Group:system:serviceaccounts')],
    });
    const sa = { name: 'system:serviceaccount:ns1:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] };
    assert.equal(await decision(store, sa, 'ns2'), 'allow');
    store.removeClusterRoleBinding(store.listClusterRoleBindings()[0]?.metadata?.name ?? '');
    assert.equal(await decision(store, sa, 'ns2'), 'noOpinion');
    assert.equal(await decision(store, sa, 'ns1'), 'allow');
    // The same user name without the group is not enough: groups come from authentication.
    assert.equal(await decision(store, { name: sa.name, groups: [] }, 'ns1'), 'noOpinion');
  });

  it('unknown subject kinds name nobody', async () => {
    const store = storeOf({ clusterRoles: [reader], clusterRoleBindings: [{ ...newClusterRoleBinding('reader'), subjects: [{ kind: 'user', name: 'alice' }] }] });
    assert.equal(await decision(store, { name: 'alice', groups: [] }, 'ns'), 'noOpinion');
  });

  it('a binding naming the user and one of its groups is visited once', async () => {
    const store = storeOf({ clusterRoles: [reader], clusterRoleBindings: [newClusterRoleBinding('reader', 'Group:a', 'User:alice', 'Group:b')] });
    const review = await new RBACAuthorizer(store).rulesFor({ name: 'alice', groups: ['a', 'b', 'a'] }, 'ns');
    assert.equal(review.resourceRules.length, 1);
  });

  it('keys from objects and users are data', async () => {
    const store = new PolicyStore();
    store.upsertClusterRole(newClusterRole('__proto__', newRule('get', '', 'pods', '')));
    store.upsertRole(newRole('constructor', '__proto__', newRule('list', '', 'pods', '')));
    store.upsertRoleBinding(newRoleBinding('__proto__', 'constructor', bindToRole, 'User:__proto__'));
    store.upsertClusterRoleBinding(newClusterRoleBinding('__proto__', 'Group:constructor'));
    const a = new RBACAuthorizer(store);
    assert.equal((await a.authorize(getPods({ name: 'x', groups: ['constructor'] }, 'ns'))).decision, 'allow');
    assert.equal((await a.authorize({ ...getPods({ name: '__proto__', groups: [] }, '__proto__'), verb: 'list' })).decision, 'allow');
    for (const name of ['toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      assert.deepEqual(await a.authorize(getPods({ name, groups: [name] }, name)), { decision: 'noOpinion', reason: '' }, name);
    }
    assert.equal((await a.authorize(getPods({ name: 'constructor', groups: [] }, 'constructor'))).decision, 'noOpinion');
    assert.equal(store.getRole('toString', 'constructor'), undefined);
    assert.equal(store.getClusterRole('hasOwnProperty'), undefined);
  });

  it('an authorization sees the policy as it was when it was asked', async () => {
    const store = storeOf({ clusterRoles: [reader] });
    const binding = newClusterRoleBinding('reader', 'User:alice');
    const alice = { name: 'alice', groups: [] };
    const a = new RBACAuthorizer(store);
    const pending: Promise<{ decision: string }>[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 50; i++) {
      if (i % 2 === 0) store.upsertClusterRoleBinding(binding);
      else store.removeClusterRoleBinding(binding.metadata?.name ?? '');
      pending.push(a.authorize(getPods(alice, 'ns')));
      expected.push(i % 2 === 0 ? 'allow' : 'noOpinion');
    }
    assert.deepEqual(
      (await Promise.all(pending)).map((r) => r.decision),
      expected,
    );
  });

  it('lists every binding for the subject locator', () => {
    const store = storeOf({
      clusterRoleBindings: [newClusterRoleBinding('r', 'User:a'), newClusterRoleBinding('r', 'User:x')],
      roleBindings: [newRoleBinding('ns1', 'r', bindToRole, 'User:a'), newRoleBinding('ns2', 'r', bindToRole, 'User:b')],
    });
    assert.equal(store.listClusterRoleBindings().length, 2);
    assert.equal(store.listRoleBindings('ns1').length, 1);
    assert.equal(store.listRoleBindings('ns3').length, 0);
  });
});
