import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from '../../../apis/rbac/v1/types.js';
import type { Attributes } from '../../../runtime/apimachinery/request/authorizer.js';
import { SubjectAccessEvaluator } from '../../../runtime/authorization/rbac/subject-locator.js';
import { bindToClusterRole, bindToRole, defaultAttributes, newClusterRole, newClusterRoleBinding, newRole, newRoleBinding, newRule, storeOf } from './helpers.js';

// Port of kube's plugin/pkg/auth/authorizer/rbac/subject_locator_test.go.

const GroupName = 'rbac.authorization.k8s.io';
const user = (name: string): Subject => ({ kind: 'User', apiGroup: GroupName, name });
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: GroupName, name });
const SystemPrivilegedGroup = 'system:masters';

describe('TestSubjectLocator', () => {
  const tests: {
    name: string;
    roles?: Role[];
    roleBindings?: RoleBinding[];
    clusterRoles?: ClusterRole[];
    clusterRoleBindings?: ClusterRoleBinding[];
    superUser?: string;
    actionsToSubjects: { action: Attributes; subjects: Subject[] }[];
  }[] = [
    {
      name: 'no super user, star matches star',
      clusterRoles: [newClusterRole('admin', newRule('*', '*', '*', '*'))],
      clusterRoleBindings: [newClusterRoleBinding('admin', 'User:super-admin', 'Group:super-admins')],
      roleBindings: [newRoleBinding('ns1', 'admin', bindToClusterRole, 'User:admin', 'Group:admins')],
      actionsToSubjects: [
        {
          action: defaultAttributes('', '', 'get', 'Pods', '', 'ns1', ''),
          subjects: [group(SystemPrivilegedGroup), user('super-admin'), group('super-admins'), user('admin'), group('admins')],
        },
        {
          // cluster role matches star in namespace
          action: defaultAttributes('', '', '*', 'Pods', '', '*', ''),
          subjects: [group(SystemPrivilegedGroup), user('super-admin'), group('super-admins')],
        },
        {
          // empty ns
          action: defaultAttributes('', '', '*', 'Pods', '', '', ''),
          subjects: [group(SystemPrivilegedGroup), user('super-admin'), group('super-admins')],
        },
      ],
    },
    {
      name: 'super user, local roles work',
      superUser: 'foo',
      clusterRoles: [newClusterRole('admin', newRule('*', '*', '*', '*'))],
      clusterRoleBindings: [newClusterRoleBinding('admin', 'User:super-admin', 'Group:super-admins')],
      roles: [newRole('admin', 'ns1', newRule('get', '*', 'Pods', '*'))],
      roleBindings: [newRoleBinding('ns1', 'admin', bindToRole, 'User:admin', 'Group:admins')],
      actionsToSubjects: [
        {
          action: defaultAttributes('', '', 'get', 'Pods', '', 'ns1', ''),
          subjects: [group(SystemPrivilegedGroup), user('foo'), user('super-admin'), group('super-admins'), user('admin'), group('admins')],
        },
        {
          // verb matchies correctly
          action: defaultAttributes('', '', 'create', 'Pods', '', 'ns1', ''),
          subjects: [group(SystemPrivilegedGroup), user('foo'), user('super-admin'), group('super-admins')],
        },
        {
          // binding only works in correct ns
          action: defaultAttributes('', '', 'get', 'Pods', '', 'ns2', ''),
          subjects: [group(SystemPrivilegedGroup), user('foo'), user('super-admin'), group('super-admins')],
        },
      ],
    },
  ];
  for (const tt of tests) {
    it(tt.name, () => {
      const a = new SubjectAccessEvaluator(storeOf(tt), tt.superUser);
      tt.actionsToSubjects.forEach((action, i) => {
        const { subjects, errors } = a.allowedSubjects(action.action);
        assert.deepEqual(errors, [], `case ${JSON.stringify(tt.name)} ${i}: error ${errors.join(', ')}`);
        assert.deepEqual(subjects, action.subjects, `case ${JSON.stringify(tt.name)} ${i}`);
      });
    });
  }
});
