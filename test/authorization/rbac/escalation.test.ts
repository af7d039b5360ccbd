import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PolicyRule } from '../../../apis/rbac/v1/types.js';
import type { Attributes, Authorizer } from '../../../runtime/apimachinery/request/authorizer.js';
import type { RequestInfo, UserInfo } from '../../../runtime/apimachinery/request/types.js';
import {
  bindingAuthorized,
  breakdownRule,
  compactRules,
  compactString,
  confirmNoEscalation,
  covers,
  escalationAllowed,
  nonResourceURLCovers,
  roleEscalationAuthorized,
} from '../../../runtime/authorization/rbac/escalation.js';
import { DefaultRuleResolver } from '../../../runtime/authorization/rbac/resolver.js';
import { newClusterRole, newClusterRoleBinding, newRole, newRoleBinding, bindToClusterRole, storeOf } from './helpers.js';

// pkg/registry/rbac/validation/policy_comparator_test.go, every case by name: Covers(owner,
// servant) and the uncovered rules, compared as kube's rulesMatch does (same set, any order).

interface EscalationTest {
  ownerRules: PolicyRule[];
  servantRules: PolicyRule[];
  expectedCovered: boolean;
  expectedUncoveredRules: PolicyRule[];
}

function run(t: EscalationTest): void {
  const { covered, uncoveredRules } = covers(t.ownerRules, t.servantRules);
  assert.equal(covered, t.expectedCovered);
  assert.equal(uncoveredRules.length, t.expectedUncoveredRules.length, JSON.stringify(uncoveredRules));
  for (const want of t.expectedUncoveredRules)
    assert.ok(
      uncoveredRules.some((got) => isDeepStrictEqual(got, want)),
      `missing ${JSON.stringify(want)} in ${JSON.stringify(uncoveredRules)}`,
    );
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

const r = (apiGroups: string[], verbs: string[], resources: string[], extra: Partial<PolicyRule> = {}): PolicyRule => ({ apiGroups, verbs, resources, ...extra });

describe('policy_comparator_test.go', () => {
  test('TestCoversExactMatch', () => run({ ownerRules: [r(['v1'], ['get'], ['builds'])], servantRules: [r(['v1'], ['get'], ['builds'])], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversSubresourceWildcard', () =>
    run({ ownerRules: [r(['v1'], ['get'], ['*/scale'])], servantRules: [r(['v1'], ['get'], ['foo/scale'])], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversMultipleRulesCoveringSingleRule', () =>
    run({
      ownerRules: [r(['v1'], ['delete'], ['deployments']), r(['v1'], ['delete'], ['builds']), r(['v1'], ['update'], ['builds', 'deployments'])],
      servantRules: [r(['v1'], ['delete', 'update'], ['builds', 'deployments'])],
      expectedCovered: true,
      expectedUncoveredRules: [],
    }));

  test('TestCoversMultipleAPIGroupsCoveringSingleRule', () =>
    run({
      ownerRules: [
        r(['group1'], ['delete'], ['deployments']),
        r(['group1'], ['delete'], ['builds']),
        r(['group1'], ['update'], ['builds', 'deployments']),
        r(['group2'], ['delete'], ['deployments']),
        r(['group2'], ['delete'], ['builds']),
        r(['group2'], ['update'], ['builds', 'deployments']),
      ],
      servantRules: [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
      expectedCovered: true,
      expectedUncoveredRules: [],
    }));

  test('TestCoversSingleAPIGroupsCoveringMultiple', () =>
    run({
      ownerRules: [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
      servantRules: [
        r(['group1'], ['delete'], ['deployments']),
        r(['group1'], ['delete'], ['builds']),
        r(['group1'], ['update'], ['builds', 'deployments']),
        r(['group2'], ['delete'], ['deployments']),
        r(['group2'], ['delete'], ['builds']),
        r(['group2'], ['update'], ['builds', 'deployments']),
      ],
      expectedCovered: true,
      expectedUncoveredRules: [],
    }));

  test('TestCoversMultipleRulesMissingSingleVerbResourceCombination', () =>
    run({
      ownerRules: [r(['v1'], ['delete', 'update'], ['builds', 'deployments']), r(['v1'], ['delete'], ['pods'])],
      servantRules: [r(['v1'], ['delete', 'update'], ['builds', 'deployments', 'pods'])],
      expectedCovered: false,
      expectedUncoveredRules: [r(['v1'], ['update'], ['pods'])],
    }));

  test('TestCoversAPIGroupStarCoveringMultiple', () =>
    run({ ownerRules: [r(['*'], ['get'], ['roles'])], servantRules: [r(['group1', 'group2'], ['get'], ['roles'])], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversEnumerationNotCoveringAPIGroupStar', () =>
    run({ ownerRules: [r(['dummy-group'], ['get'], ['roles'])], servantRules: [r(['*'], ['get'], ['roles'])], expectedCovered: false, expectedUncoveredRules: [r(['*'], ['get'], ['roles'])] }));

  test('TestCoversAPIGroupStarCoveringStar', () =>
    run({ ownerRules: [r(['*'], ['get'], ['roles'])], servantRules: [r(['*'], ['get'], ['roles'])], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversVerbStarCoveringMultiple', () =>
    run({ ownerRules: [r(['v1'], ['*'], ['roles'])], servantRules: [r(['v1'], ['watch', 'list'], ['roles'])], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversEnumerationNotCoveringVerbStar', () =>
    run({
      ownerRules: [r(['v1'], ['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], ['roles'])],
      servantRules: [r(['v1'], ['*'], ['roles'])],
      expectedCovered: false,
      expectedUncoveredRules: [r(['v1'], ['*'], ['roles'])],
    }));

  test('TestCoversVerbStarCoveringStar', () => run({ ownerRules: [r(['v1'], ['*'], ['roles'])], servantRules: [r(['v1'], ['*'], ['roles'])], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversResourceStarCoveringMultiple', () =>
    run({ ownerRules: [r(['v1'], ['get'], ['*'])], servantRules: [r(['v1'], ['get'], ['resourcegroup:deployments'])], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversEnumerationNotCoveringResourceStar', () =>
    run({
      ownerRules: [r(['v1'], ['get'], ['roles', 'resourcegroup:deployments'])],
      servantRules: [r(['v1'], ['get'], ['*'])],
      expectedCovered: false,
      expectedUncoveredRules: [r(['v1'], ['get'], ['*'])],
    }));

  test('TestCoversResourceStarCoveringStar', () => run({ ownerRules: [r(['v1'], ['get'], ['*'])], servantRules: [r(['v1'], ['get'], ['*'])], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversResourceNameEmptyCoveringMultiple', () =>
    run({
      ownerRules: [r(['v1'], ['get'], ['pods'], { resourceNames: [] })],
      servantRules: [r(['v1'], ['get'], ['pods'], { resourceNames: ['foo', 'bar'] })],
      expectedCovered: true,
      expectedUncoveredRules: [],
    }));

  test('TestCoversEnumerationNotCoveringResourceNameEmpty', () =>
    run({
      ownerRules: [r(['v1'], ['get'], ['pods'], { resourceNames: ['foo', 'bar'] })],
      servantRules: [r(['v1'], ['get'], ['pods'], { resourceNames: [] })],
      expectedCovered: false,
      expectedUncoveredRules: [r(['v1'], ['get'], ['pods'])],
    }));

  test('TestCoversNonResourceURLs', () =>
    run({ ownerRules: [{ nonResourceURLs: ['/apis'], verbs: ['*'] }], servantRules: [{ nonResourceURLs: ['/apis'], verbs: ['*'] }], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversNonResourceURLsStar', () =>
    run({ ownerRules: [{ nonResourceURLs: ['*'], verbs: ['*'] }], servantRules: [{ nonResourceURLs: ['/apis', '/apis/v1', '/'], verbs: ['*'] }], expectedCovered: true, expectedUncoveredRules: [] }));

  test('TestCoversNonResourceURLsStarAfterPrefixDoesntCover', () =>
    run({
      ownerRules: [{ nonResourceURLs: ['/apis/*'], verbs: ['*'] }],
      servantRules: [{ nonResourceURLs: ['/apis', '/apis/v1'], verbs: ['get'] }],
      expectedCovered: false,
      expectedUncoveredRules: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }],
    }));

  test('TestCoversNonResourceURLsStarAfterPrefix', () =>
    run({
      ownerRules: [{ nonResourceURLs: ['/apis/*'], verbs: ['*'] }],
      servantRules: [{ nonResourceURLs: ['/apis/v1/foo', '/apis/v1'], verbs: ['get'] }],
      expectedCovered: true,
      expectedUncoveredRules: [],
    }));

  test('TestCoversNonResourceURLsWithOtherFields', () =>
    run({
      ownerRules: [r(['v1'], ['get'], ['builds'], { nonResourceURLs: ['/apis'] })],
      servantRules: [r(['v1'], ['get'], ['builds'], { nonResourceURLs: ['/apis'] })],
      expectedCovered: true,
      expectedUncoveredRules: [],
    }));

  test('TestCoversNonResourceURLsWithOtherFieldsFailure', () =>
    run({
      ownerRules: [r(['v1'], ['get'], ['builds'])],
      servantRules: [r(['v1'], ['get'], ['builds'], { nonResourceURLs: ['/apis'] })],
      expectedCovered: false,
      expectedUncoveredRules: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }],
    }));

  test('TestNonResourceURLCovers', () => {
    const cases: [string, string, boolean][] = [
      ['*', '', true],
      ['*', '/', true],
      ['*', '/api', true],
      ['/*', '', false],
      ['/*', '/', true],
      ['/*', '/foo', true],
      ['/api', '/api', true],
      ['/apis', '/api', false],
      ['/api/v1', '/api', false],
      ['/api/v1', '/api/v1', true],
      ['/api/*', '/api/v1', true],
      ['/api/*', '/api', false],
      ['/api/*/*', '/api/v1', false],
      ['/*/v1/*', '/api/v1', false],
    ];
    for (const [owner, requested, want] of cases) assert.equal(nonResourceURLCovers(owner, requested), want, `nonResourceURLCovers(${owner}, ${requested})`);
    // A stored URL of many stars not at the end is trimmed in one scan (a `/\*+$/` regex took
    // seconds here, quadratic in the stars, holding the event loop on every role write).
    const stars = '*'.repeat(200_000);
    assert.equal(nonResourceURLCovers(`/${stars}x*`, `/${stars}xyz`), true);
    assert.equal(nonResourceURLCovers(`/${stars}x*`, `/${stars}y`), false);
  });
});

describe('policy_compact and CompactString (the rules an escalation error lists)', () => {
  test('BreakdownRule: one group, resource, verb and name per rule; URLs only with verbs', () => {
    assert.deepEqual(breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }), [
      { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
    ]);
    assert.deepEqual(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }), [
      { nonResourceURLs: ['/a'], verbs: ['get'] },
      { nonResourceURLs: ['/b'], verbs: ['get'] },
    ]);
  });

  test('CompactRules merges the verbs of rules on one resource (and one name), leaves the others', () => {
    const out = compactRules([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete'], resourceNames: ['x'] },
      { nonResourceURLs: ['/healthz'], verbs: ['get'] },
    ]);
    assert.deepEqual(out, [
      { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete'], resourceNames: ['x'] },
    ]);
  });

  test('CompactString prints the fields that are set, Go-quoted, in kube order', () => {
    assert.equal(compactString({ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }), '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}');
    assert.equal(compactString({ nonResourceURLs: ['/healthz'], verbs: ['get'] }), '{NonResourceURLs:["/healthz"], Verbs:["get"]}');
    assert.equal(
      compactString({ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['delete'] }),
      '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["delete"]}',
    );
  });
});

const alice: UserInfo = { name: 'alice', groups: ['g1', 'system:authenticated'] };

describe('ConfirmNoEscalation (rule.go)', () => {
  const store = storeOf({
    clusterRoles: [newClusterRole('pod-reader', { verbs: ['get'], apiGroups: [''], resources: ['pods'] })],
    roles: [newRole('lister', 'ns1', { verbs: ['list'], apiGroups: [''], resources: ['pods'] })],
    clusterRoleBindings: [newClusterRoleBinding('pod-reader', 'Group:g1')],
    roleBindings: [newRoleBinding('ns1', 'lister', 0, 'User:alice'), newRoleBinding('ns1', 'missing', bindToClusterRole, 'User:alice')],
  });
  const resolver = new DefaultRuleResolver(store);

  test('rules the user holds cluster-wide and in the namespace cover the request', async () => {
    assert.equal(await confirmNoEscalation(alice, 'ns1', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], resolver), undefined);
  });

  test("kube's message: the user, the groups, each missing rule compacted and sorted", async () => {
    const msg = await confirmNoEscalation(
      alice,
      '',
      [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'secrets'] },
        { verbs: ['get'], nonResourceURLs: ['/metrics'] },
      ],
      resolver,
    );
    assert.equal(
      msg,
      'user "alice" (groups=["g1" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list" "watch"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
  });

  test('the errors met resolving the user’s rules follow as "; resolution errors: [...]"', async () => {
    const msg = await confirmNoEscalation(alice, 'ns1', [{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }], resolver);
    assert.equal(
      msg,
      'user "alice" (groups=["g1" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "missing" not found]',
    );
  });
});

/** An authorizer that records what it is asked and allows what `allow` says. */
function recordingAuthorizer(allow: (a: Attributes) => boolean): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return { asked, authorize: async (a) => (asked.push(a), { decision: allow(a) ? 'allow' : 'noOpinion', reason: '' }) };
}

function requestInfo(o: Partial<RequestInfo>): RequestInfo {
  return {
    isResourceRequest: true,
    path: '',
    verb: 'create',
    apiPrefix: 'apis',
    apiGroup: 'rbac.authorization.k8s.io',
    apiVersion: 'v1',
    namespace: '',
    resource: 'roles',
    subresource: '',
    name: '',
    parts: [],
    ...o,
  };
}

describe('escalation_check.go', () => {
  test('EscalationAllowed: members of system:masters only; no user, no', () => {
    assert.equal(escalationAllowed({ name: 'x', groups: ['system:masters'] }), true);
    assert.equal(escalationAllowed(alice), false);
    assert.equal(escalationAllowed(undefined), false);
  });

  test('RoleEscalationAuthorized asks `escalate` on the role of the request (group, resource, name, namespace, version *)', async () => {
    const a = recordingAuthorizer((x) => x.user?.name === 'alice');
    assert.equal(await roleEscalationAuthorized(alice, requestInfo({ namespace: 'ns1', name: 'r1', verb: 'update' }), a), true);
    assert.deepEqual(a.asked, [
      { user: alice, verb: 'escalate', isResourceRequest: true, path: '', namespace: 'ns1', apiGroup: 'rbac.authorization.k8s.io', apiVersion: '*', resource: 'roles', subresource: '', name: 'r1' },
    ]);
    assert.equal(await roleEscalationAuthorized({ name: 'bob', groups: [] }, requestInfo({ resource: 'clusterroles' }), a), false);
  });

  test('RoleEscalationAuthorized is false without asking for other resources, non-resource requests or no authorizer', async () => {
    const a = recordingAuthorizer(() => true);
    assert.equal(await roleEscalationAuthorized(alice, requestInfo({ resource: 'rolebindings' }), a), false);
    assert.equal(await roleEscalationAuthorized(alice, requestInfo({ apiGroup: 'example.com' }), a), false);
    assert.equal(await roleEscalationAuthorized(alice, requestInfo({ isResourceRequest: false }), a), false);
    assert.equal(await roleEscalationAuthorized(alice, requestInfo({}), undefined), false);
    assert.equal(a.asked.length, 0);
  });

  test('BindingAuthorized asks `bind` on the referenced role in the binding namespace; a failing authorizer is no', async () => {
    const a = recordingAuthorizer(() => true);
    assert.equal(await bindingAuthorized(alice, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' }, 'ns1', a), true);
    assert.deepEqual(a.asked[0], {
      user: alice,
      verb: 'bind',
      isResourceRequest: true,
      path: '',
      namespace: 'ns1',
      apiGroup: 'rbac.authorization.k8s.io',
      apiVersion: '*',
      resource: 'clusterroles',
      subresource: '',
      name: 'admin',
    });
    assert.equal(await bindingAuthorized(alice, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, 'ns1', a), true);
    assert.equal(a.asked[1]?.resource, 'roles');
    assert.equal(await bindingAuthorized(alice, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Other', name: 'r' }, 'ns1', a), false);
    const failing: Authorizer = { authorize: () => Promise.reject(new Error('webhook down')) };
    assert.equal(await bindingAuthorized(alice, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, 'ns1', failing), false);
  });
});
