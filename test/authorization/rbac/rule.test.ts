import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyRule, Subject } from '../../../apis/rbac/v1/types.js';
import type { UserInfo } from '../../../runtime/apimachinery/request/types.js';
import { DefaultRuleResolver } from '../../../runtime/authorization/rbac/resolver.js';
import { appliesTo } from '../../../runtime/authorization/rbac/subjects.js';
import { storeOf, userInfo } from './helpers.js';

// Port of kube's pkg/registry/rbac/validation/rule_test.go.

/** kube sorts both lists by a hash of the rule before comparing: the order of rules is not the contract. */
function sorted(rules: readonly PolicyRule[]): string[] {
  return rules.map((r) => JSON.stringify(r)).sort();
}

describe('TestDefaultRuleResolver', () => {
  const ruleReadPods: PolicyRule = { verbs: ['GET', 'WATCH'], apiGroups: ['v1'], resources: ['pods'] };
  const ruleReadServices: PolicyRule = { verbs: ['GET', 'WATCH'], apiGroups: ['v1'], resources: ['services'] };
  const ruleWriteNodes: PolicyRule = { verbs: ['PUT', 'CREATE', 'UPDATE'], apiGroups: ['v1'], resources: ['nodes'] };
  const ruleAdmin: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };

  const staticRoles1 = {
    roles: [{ metadata: { namespace: 'namespace1', name: 'readthings' }, rules: [ruleReadPods, ruleReadServices] }],
    clusterRoles: [
      { metadata: { name: 'cluster-admin' }, rules: [ruleAdmin] },
      { metadata: { name: 'write-nodes' }, rules: [ruleWriteNodes] },
    ],
    roleBindings: [
      {
        metadata: { namespace: 'namespace1' },
        subjects: [
          { kind: 'User', name: 'foobar' },
          { kind: 'Group', name: 'group1' },
        ],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'readthings' },
      },
    ],
    clusterRoleBindings: [
      {
        subjects: [
          { kind: 'User', name: 'admin' },
          { kind: 'Group', name: 'admin' },
        ],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      },
    ],
  };

  const tests: { user: UserInfo; namespace: string; effectiveRules: PolicyRule[] }[] = [
    { user: userInfo({ name: 'foobar' }), namespace: 'namespace1', effectiveRules: [ruleReadPods, ruleReadServices] },
    { user: userInfo({ name: 'foobar' }), namespace: 'namespace2', effectiveRules: [] },
    // Same as above but without a namespace. Only cluster rules should apply.
    { user: userInfo({ name: 'foobar', groups: ['admin'] }), namespace: '', effectiveRules: [ruleAdmin] },
    { user: userInfo({}), namespace: '', effectiveRules: [] },
  ];

  tests.forEach((tc, i) => {
    it(`case ${i}`, async () => {
      const ruleResolver = new DefaultRuleResolver(storeOf(staticRoles1));
      const { rules, errors } = await ruleResolver.rulesFor(tc.user, tc.namespace);
      assert.deepEqual(errors, [], `case ${i}: GetEffectivePolicyRules(context)=${errors.join(', ')}`);
      assert.deepEqual(sorted(rules), sorted(tc.effectiveRules), `case ${i}`);
    });
  });
});

describe('TestAppliesTo', () => {
  const tests: { subjects: Subject[]; user: UserInfo; namespace?: string; appliesTo: boolean; index?: number; testCase: string }[] = [
    {
      subjects: [{ kind: 'User', name: 'foobar' }],
      user: userInfo({ name: 'foobar' }),
      appliesTo: true,
      index: 0,
      testCase: 'single subject that matches username',
    },
    {
      subjects: [
        { kind: 'User', name: 'barfoo' },
        { kind: 'User', name: 'foobar' },
      ],
      user: userInfo({ name: 'foobar' }),
      appliesTo: true,
      index: 1,
      testCase: 'multiple subjects, one that matches username',
    },
    {
      subjects: [
        { kind: 'User', name: 'barfoo' },
        { kind: 'User', name: 'foobar' },
      ],
      user: userInfo({ name: 'zimzam' }),
      appliesTo: false,
      testCase: 'multiple subjects, none that match username',
    },
    {
      subjects: [
        { kind: 'User', name: 'barfoo' },
        { kind: 'Group', name: 'foobar' },
      ],
      user: userInfo({ name: 'zimzam', groups: ['foobar'] }),
      appliesTo: true,
      index: 1,
      testCase: 'multiple subjects, one that match group',
    },
    {
      subjects: [
        { kind: 'User', name: 'barfoo' },
        { kind: 'Group', name: 'foobar' },
      ],
      user: userInfo({ name: 'zimzam', groups: ['foobar'] }),
      namespace: 'namespace1',
      appliesTo: true,
      index: 1,
      testCase: 'multiple subjects, one that match group, should ignore namespace',
    },
    {
      subjects: [
        { kind: 'User', name: 'barfoo' },
        { kind: 'Group', name: 'foobar' },
        { kind: 'ServiceAccount', namespace: 'kube-system', name: 'default' },
      ],
      user: userInfo({ name: 'system:serviceaccount:kube-system:default' }),
      namespace: 'default',
      appliesTo: true,
      index: 2,
      testCase: 'multiple subjects with a service account that matches',
    },
    {
      subjects: [{ kind: 'User', name: '*' }],
      user: userInfo({ name: 'foobar' }),
      namespace: 'default',
      appliesTo: false,
      testCase: "* user subject name doesn't match all users",
    },
    {
      subjects: [
        { kind: 'Group', name: 'system:authenticated' },
        { kind: 'Group', name: 'system:unauthenticated' },
      ],
      user: userInfo({ name: 'foobar', groups: ['system:authenticated'] }),
      namespace: 'default',
      appliesTo: true,
      index: 0,
      testCase: 'binding to all authenticated and unauthenticated subjects matches authenticated user',
    },
    {
      subjects: [
        { kind: 'Group', name: 'system:authenticated' },
        { kind: 'Group', name: 'system:unauthenticated' },
      ],
      user: userInfo({ name: 'system:anonymous', groups: ['system:unauthenticated'] }),
      namespace: 'default',
      appliesTo: true,
      index: 1,
      testCase: 'binding to all authenticated and unauthenticated subjects matches anonymous user',
    },
  ];

  for (const tc of tests) {
    it(tc.testCase, () => {
      // appliesTo answers the index, -1 for none (kube: index 0 and false).
      const gotIndex = appliesTo(tc.user, tc.subjects, tc.namespace ?? '');
      assert.equal(gotIndex >= 0, tc.appliesTo, `case ${JSON.stringify(tc.testCase)} want appliesTo=${tc.appliesTo}`);
      if (tc.appliesTo) assert.equal(gotIndex, tc.index, `case ${JSON.stringify(tc.testCase)} want index ${tc.index}, got ${gotIndex}`);
    });
  }
});
