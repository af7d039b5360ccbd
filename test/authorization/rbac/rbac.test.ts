import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from '../../../apis/rbac/v1/types.js';
import type { Attributes } from '../../../runtime/apimachinery/request/authorizer.js';
import { RBACAuthorizer } from '../../../runtime/authorization/rbac/authorizer.js';
import { ruleAllows } from '../../../runtime/authorization/rbac/rules.js';
import {
  NewRule,
  attributesRecord,
  bindToClusterRole,
  defaultAttributes,
  describeAttributes,
  newClusterRole,
  newClusterRoleBinding,
  newRoleBinding,
  newRule,
  nonresourceRequest,
  resourceRequest,
  storeOf,
  userInfo,
} from './helpers.js';

// Port of kube's plugin/pkg/auth/authorizer/rbac/rbac_test.go. BenchmarkAuthorize is
// test/bench/rbac.bench.ts (with this repository's own policy sizes).

describe('TestAuthorizer', () => {
  const tests: {
    roles?: Role[];
    roleBindings?: RoleBinding[];
    clusterRoles?: ClusterRole[];
    clusterRoleBindings?: ClusterRoleBinding[];
    shouldPass: Attributes[];
    shouldFail: Attributes[];
  }[] = [
    {
      clusterRoles: [newClusterRole('admin', newRule('*', '*', '*', '*'))],
      roleBindings: [newRoleBinding('ns1', 'admin', bindToClusterRole, 'User:admin', 'Group:admins')],
      shouldPass: [
        defaultAttributes('admin', '', 'get', 'Pods', '', 'ns1', ''),
        defaultAttributes('admin', '', 'watch', 'Pods', '', 'ns1', ''),
        defaultAttributes('admin', 'group1', 'watch', 'Foobar', '', 'ns1', ''),
        defaultAttributes('joe', 'admins', 'watch', 'Foobar', '', 'ns1', ''),
        defaultAttributes('joe', 'group1,admins', 'watch', 'Foobar', '', 'ns1', ''),
      ],
      shouldFail: [
        defaultAttributes('admin', '', 'GET', 'Pods', '', 'ns2', ''),
        defaultAttributes('admin', '', 'GET', 'Nodes', '', '', ''),
        defaultAttributes('admin', 'admins', 'GET', 'Pods', '', 'ns2', ''),
        defaultAttributes('admin', 'admins', 'GET', 'Nodes', '', '', ''),
      ],
    },
    {
      // Non-resource-url tests
      clusterRoles: [
        newClusterRole('non-resource-url-getter', newRule('get', '', '', '/apis')),
        newClusterRole('non-resource-url', newRule('*', '', '', '/apis')),
        newClusterRole('non-resource-url-prefix', newRule('get', '', '', '/apis/*')),
      ],
      clusterRoleBindings: [
        newClusterRoleBinding('non-resource-url-getter', 'User:foo', 'Group:bar'),
        newClusterRoleBinding('non-resource-url', 'User:admin', 'Group:admin'),
        newClusterRoleBinding('non-resource-url-prefix', 'User:prefixed', 'Group:prefixed'),
      ],
      shouldPass: [
        attributesRecord({ user: userInfo({ name: 'foo' }), verb: 'get', path: '/apis' }),
        attributesRecord({ user: userInfo({ groups: ['bar'] }), verb: 'get', path: '/apis' }),
        attributesRecord({ user: userInfo({ name: 'admin' }), verb: 'get', path: '/apis' }),
        attributesRecord({ user: userInfo({ groups: ['admin'] }), verb: 'get', path: '/apis' }),
        attributesRecord({ user: userInfo({ name: 'admin' }), verb: 'watch', path: '/apis' }),
        attributesRecord({ user: userInfo({ groups: ['admin'] }), verb: 'watch', path: '/apis' }),

        attributesRecord({ user: userInfo({ name: 'prefixed' }), verb: 'get', path: '/apis/v1' }),
        attributesRecord({ user: userInfo({ groups: ['prefixed'] }), verb: 'get', path: '/apis/v1' }),
        attributesRecord({ user: userInfo({ name: 'prefixed' }), verb: 'get', path: '/apis/v1/foobar' }),
        attributesRecord({ user: userInfo({ groups: ['prefixed'] }), verb: 'get', path: '/apis/v1/foorbar' }),
      ],
      shouldFail: [
        // wrong verb
        attributesRecord({ user: userInfo({ name: 'foo' }), verb: 'watch', path: '/apis' }),
        attributesRecord({ user: userInfo({ groups: ['bar'] }), verb: 'watch', path: '/apis' }),

        // wrong path
        attributesRecord({ user: userInfo({ name: 'foo' }), verb: 'get', path: '/api/v1' }),
        attributesRecord({ user: userInfo({ groups: ['bar'] }), verb: 'get', path: '/api/v1' }),
        attributesRecord({ user: userInfo({ name: 'admin' }), verb: 'get', path: '/api/v1' }),
        attributesRecord({ user: userInfo({ groups: ['admin'] }), verb: 'get', path: '/api/v1' }),

        // not covered by prefix
        attributesRecord({ user: userInfo({ name: 'prefixed' }), verb: 'get', path: '/api/v1' }),
        attributesRecord({ user: userInfo({ groups: ['prefixed'] }), verb: 'get', path: '/api/v1' }),
      ],
    },
    {
      // test subresource resolution
      clusterRoles: [newClusterRole('admin', newRule('*', '*', 'pods', '*'))],
      roleBindings: [newRoleBinding('ns1', 'admin', bindToClusterRole, 'User:admin', 'Group:admins')],
      shouldPass: [defaultAttributes('admin', '', 'get', 'pods', '', 'ns1', '')],
      shouldFail: [defaultAttributes('admin', '', 'get', 'pods', 'status', 'ns1', '')],
    },
    {
      // test subresource resolution
      clusterRoles: [newClusterRole('admin', newRule('*', '*', 'pods/status', '*'), newRule('*', '*', '*/scale', '*'))],
      roleBindings: [newRoleBinding('ns1', 'admin', bindToClusterRole, 'User:admin', 'Group:admins')],
      shouldPass: [
        defaultAttributes('admin', '', 'get', 'pods', 'status', 'ns1', ''),
        defaultAttributes('admin', '', 'get', 'pods', 'scale', 'ns1', ''),
        defaultAttributes('admin', '', 'get', 'deployments', 'scale', 'ns1', ''),
        defaultAttributes('admin', '', 'get', 'anything', 'scale', 'ns1', ''),
      ],
      shouldFail: [defaultAttributes('admin', '', 'get', 'pods', '', 'ns1', '')],
    },
  ];
  tests.forEach((tt, i) => {
    it(`case ${i}`, async () => {
      const a = new RBACAuthorizer(storeOf(tt));
      for (const attr of tt.shouldPass) {
        assert.equal((await a.authorize(attr)).decision, 'allow', `case ${i}: incorrectly restricted ${describeAttributes(attr)}`);
      }
      for (const attr of tt.shouldFail) {
        assert.notEqual((await a.authorize(attr)).decision, 'allow', `case ${i}: incorrectly passed ${describeAttributes(attr)}`);
      }
    });
  });
});

describe('TestRuleMatches', () => {
  const tests: { name: string; rule: PolicyRule; requestsToExpected: [Attributes, boolean][] }[] = [
    {
      name: 'star verb, exact match other',
      rule: NewRule('*').Groups('group1').Resources('resource1').RuleOrDie(),
      requestsToExpected: [
        [resourceRequest('verb1').Group('group1').Resource('resource1').New(), true],
        [resourceRequest('verb1').Group('group2').Resource('resource1').New(), false],
        [resourceRequest('verb1').Group('group1').Resource('resource2').New(), false],
        [resourceRequest('verb1').Group('group2').Resource('resource2').New(), false],
        [resourceRequest('verb2').Group('group1').Resource('resource1').New(), true],
        [resourceRequest('verb2').Group('group2').Resource('resource1').New(), false],
        [resourceRequest('verb2').Group('group1').Resource('resource2').New(), false],
        [resourceRequest('verb2').Group('group2').Resource('resource2').New(), false],
      ],
    },
    {
      name: 'star group, exact match other',
      rule: NewRule('verb1').Groups('*').Resources('resource1').RuleOrDie(),
      requestsToExpected: [
        [resourceRequest('verb1').Group('group1').Resource('resource1').New(), true],
        [resourceRequest('verb1').Group('group2').Resource('resource1').New(), true],
        [resourceRequest('verb1').Group('group1').Resource('resource2').New(), false],
        [resourceRequest('verb1').Group('group2').Resource('resource2').New(), false],
        [resourceRequest('verb2').Group('group1').Resource('resource1').New(), false],
        [resourceRequest('verb2').Group('group2').Resource('resource1').New(), false],
        [resourceRequest('verb2').Group('group1').Resource('resource2').New(), false],
        [resourceRequest('verb2').Group('group2').Resource('resource2').New(), false],
      ],
    },
    {
      name: 'star resource, exact match other',
      rule: NewRule('verb1').Groups('group1').Resources('*').RuleOrDie(),
      requestsToExpected: [
        [resourceRequest('verb1').Group('group1').Resource('resource1').New(), true],
        [resourceRequest('verb1').Group('group2').Resource('resource1').New(), false],
        [resourceRequest('verb1').Group('group1').Resource('resource2').New(), true],
        [resourceRequest('verb1').Group('group2').Resource('resource2').New(), false],
        [resourceRequest('verb2').Group('group1').Resource('resource1').New(), false],
        [resourceRequest('verb2').Group('group2').Resource('resource1').New(), false],
        [resourceRequest('verb2').Group('group1').Resource('resource2').New(), false],
        [resourceRequest('verb2').Group('group2').Resource('resource2').New(), false],
      ],
    },
    {
      name: 'tuple expansion',
      rule: NewRule('verb1', 'verb2').Groups('group1', 'group2').Resources('resource1', 'resource2').RuleOrDie(),
      requestsToExpected: [
        [resourceRequest('verb1').Group('group1').Resource('resource1').New(), true],
        [resourceRequest('verb1').Group('group2').Resource('resource1').New(), true],
        [resourceRequest('verb1').Group('group1').Resource('resource2').New(), true],
        [resourceRequest('verb1').Group('group2').Resource('resource2').New(), true],
        [resourceRequest('verb2').Group('group1').Resource('resource1').New(), true],
        [resourceRequest('verb2').Group('group2').Resource('resource1').New(), true],
        [resourceRequest('verb2').Group('group1').Resource('resource2').New(), true],
        [resourceRequest('verb2').Group('group2').Resource('resource2').New(), true],
      ],
    },
    {
      name: 'subresource expansion',
      rule: NewRule('*').Groups('*').Resources('resource1/subresource1').RuleOrDie(),
      requestsToExpected: [
        [resourceRequest('verb1').Group('group1').Resource('resource1').Subresource('subresource1').New(), true],
        [resourceRequest('verb1').Group('group2').Resource('resource1').Subresource('subresource2').New(), false],
        [resourceRequest('verb1').Group('group1').Resource('resource2').Subresource('subresource1').New(), false],
        [resourceRequest('verb1').Group('group2').Resource('resource2').Subresource('subresource1').New(), false],
        [resourceRequest('verb2').Group('group1').Resource('resource1').Subresource('subresource1').New(), true],
        [resourceRequest('verb2').Group('group2').Resource('resource1').Subresource('subresource2').New(), false],
        [resourceRequest('verb2').Group('group1').Resource('resource2').Subresource('subresource1').New(), false],
        [resourceRequest('verb2').Group('group2').Resource('resource2').Subresource('subresource1').New(), false],
      ],
    },
    {
      name: 'star nonresource, exact match other',
      rule: NewRule('verb1').URLs('*').RuleOrDie(),
      requestsToExpected: [
        [nonresourceRequest('verb1').URL('/foo').New(), true],
        [nonresourceRequest('verb1').URL('/foo/bar').New(), true],
        [nonresourceRequest('verb1').URL('/foo/baz').New(), true],
        [nonresourceRequest('verb1').URL('/foo/bar/one').New(), true],
        [nonresourceRequest('verb1').URL('/foo/baz/one').New(), true],
        [nonresourceRequest('verb2').URL('/foo').New(), false],
        [nonresourceRequest('verb2').URL('/foo/bar').New(), false],
        [nonresourceRequest('verb2').URL('/foo/baz').New(), false],
        [nonresourceRequest('verb2').URL('/foo/bar/one').New(), false],
        [nonresourceRequest('verb2').URL('/foo/baz/one').New(), false],
      ],
    },
    {
      name: 'star nonresource subpath',
      rule: NewRule('verb1').URLs('/foo/*').RuleOrDie(),
      requestsToExpected: [
        [nonresourceRequest('verb1').URL('/foo').New(), false],
        [nonresourceRequest('verb1').URL('/foo/bar').New(), true],
        [nonresourceRequest('verb1').URL('/foo/baz').New(), true],
        [nonresourceRequest('verb1').URL('/foo/bar/one').New(), true],
        [nonresourceRequest('verb1').URL('/foo/baz/one').New(), true],
        [nonresourceRequest('verb1').URL('/notfoo').New(), false],
        [nonresourceRequest('verb1').URL('/notfoo/bar').New(), false],
        [nonresourceRequest('verb1').URL('/notfoo/baz').New(), false],
        [nonresourceRequest('verb1').URL('/notfoo/bar/one').New(), false],
        [nonresourceRequest('verb1').URL('/notfoo/baz/one').New(), false],
      ],
    },
    {
      name: 'star verb, exact nonresource',
      rule: NewRule('*').URLs('/foo', '/foo/bar/one').RuleOrDie(),
      requestsToExpected: [
        [nonresourceRequest('verb1').URL('/foo').New(), true],
        [nonresourceRequest('verb1').URL('/foo/bar').New(), false],
        [nonresourceRequest('verb1').URL('/foo/baz').New(), false],
        [nonresourceRequest('verb1').URL('/foo/bar/one').New(), true],
        [nonresourceRequest('verb1').URL('/foo/baz/one').New(), false],
        [nonresourceRequest('verb2').URL('/foo').New(), true],
        [nonresourceRequest('verb2').URL('/foo/bar').New(), false],
        [nonresourceRequest('verb2').URL('/foo/baz').New(), false],
        [nonresourceRequest('verb2').URL('/foo/bar/one').New(), true],
        [nonresourceRequest('verb2').URL('/foo/baz/one').New(), false],
      ],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      for (const [request, expected] of tc.requestsToExpected) {
        assert.equal(ruleAllows(request, tc.rule), expected, `${JSON.stringify(tc.name)}: expected ${expected} for ${describeAttributes(request)}`);
      }
    });
  }
});
