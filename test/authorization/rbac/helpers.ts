import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../../apis/rbac/v1/types.js';
import type { Attributes } from '../../../runtime/apimachinery/request/authorizer.js';
import type { UserInfo } from '../../../runtime/apimachinery/request/types.js';
import { PolicyStore } from '../../../runtime/authorization/rbac/policy.js';

// The fixtures of kube's plugin/pkg/auth/authorizer/rbac/rbac_test.go and
// pkg/registry/rbac/validation/rule_test.go, with the same names and argument conventions.

const GroupName = 'rbac.authorization.k8s.io';

/** newRule: comma-separated lists, as kube's (an empty string is a list of one empty string). */
export function newRule(verbs: string, apiGroups: string, resources: string, nonResourceURLs: string): PolicyRule {
  return { verbs: verbs.split(','), apiGroups: apiGroups.split(','), resources: resources.split(','), nonResourceURLs: nonResourceURLs.split(',') };
}

export function newRole(name: string, namespace: string, ...rules: PolicyRule[]): Role {
  return { metadata: { namespace, name }, rules };
}

export function newClusterRole(name: string, ...rules: PolicyRule[]): ClusterRole {
  return { metadata: { name }, rules };
}

export const bindToRole = 0;
export const bindToClusterRole = 1;

/** `Kind:name` subjects, as kube's fixtures spell them. */
function subjectsOf(specs: readonly string[]): Subject[] {
  return specs.map((spec) => {
    const i = spec.indexOf(':');
    const kind = spec.slice(0, i);
    const name = spec.slice(i + 1);
    switch (kind) {
      case 'ServiceAccount':
        return { kind, apiGroup: '', name };
      case 'User':
      case 'Group':
        return { kind, apiGroup: GroupName, name };
      default:
        throw new Error(`invalid kind ${kind}`);
    }
  });
}

// kube's fixtures leave binding names empty: its test resolver reads plain lists. The store keys
// bindings by name, as the API does (a name is required), so each fixture binding gets its own.
let bindingSeq = 0;

export function newClusterRoleBinding(roleName: string, ...subjects: string[]): ClusterRoleBinding {
  return { metadata: { name: `binding-${++bindingSeq}` }, roleRef: { apiGroup: GroupName, kind: 'ClusterRole', name: roleName }, subjects: subjectsOf(subjects) };
}

export function newRoleBinding(namespace: string, roleName: string, bindType: number, ...subjects: string[]): RoleBinding {
  const kind = bindType === bindToRole ? 'Role' : 'ClusterRole';
  return { metadata: { namespace, name: `binding-${++bindingSeq}` }, roleRef: { apiGroup: GroupName, kind, name: roleName }, subjects: subjectsOf(subjects) };
}

/** NewTestRuleResolver's inputs, loaded into a PolicyStore. */
export function storeOf(p: { roles?: Role[]; roleBindings?: RoleBinding[]; clusterRoles?: ClusterRole[]; clusterRoleBindings?: ClusterRoleBinding[] }): PolicyStore {
  const s = new PolicyStore();
  for (const r of p.roles ?? []) s.upsertRole(r);
  for (const r of p.clusterRoles ?? []) s.upsertClusterRole(r);
  for (const b of p.roleBindings ?? []) s.upsertRoleBinding(b);
  for (const b of p.clusterRoleBindings ?? []) s.upsertClusterRoleBinding(b);
  return s;
}

const emptyAttributes: Attributes = {
  user: undefined,
  verb: '',
  isResourceRequest: false,
  path: '',
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
};

/** authorizer.AttributesRecord: every field defaults to its zero value. */
export function attributesRecord(a: Partial<Attributes>): Attributes {
  return { ...emptyAttributes, ...a };
}

/** user.DefaultInfo. */
export function userInfo(u: Partial<UserInfo>): UserInfo {
  return { name: '', groups: [], ...u };
}

/** defaultAttributes{user, groups, verb, resource, subresource, namespace, apiGroup}: a resource request, groups comma-separated. */
export function defaultAttributes(user: string, groups: string, verb: string, resource: string, subresource: string, namespace: string, apiGroup: string): Attributes {
  return attributesRecord({ user: { name: user, groups: groups.split(',') }, verb, resource, subresource, namespace, apiGroup, isResourceRequest: true });
}

/** requestAttributeBuilder. */
export class RequestAttributeBuilder {
  private request: Attributes;
  constructor(isResourceRequest: boolean, verb: string) {
    this.request = attributesRecord({ isResourceRequest, verb });
  }
  Group(apiGroup: string): this {
    this.request = { ...this.request, apiGroup };
    return this;
  }
  Resource(resource: string): this {
    this.request = { ...this.request, resource };
    return this;
  }
  Subresource(subresource: string): this {
    this.request = { ...this.request, subresource };
    return this;
  }
  Name(name: string): this {
    this.request = { ...this.request, name };
    return this;
  }
  URL(path: string): this {
    this.request = { ...this.request, path };
    return this;
  }
  New(): Attributes {
    return this.request;
  }
}

export const resourceRequest = (verb: string): RequestAttributeBuilder => new RequestAttributeBuilder(true, verb);
export const nonresourceRequest = (verb: string): RequestAttributeBuilder => new RequestAttributeBuilder(false, verb);

/** rbacv1helpers.NewRule(verbs...).Groups(...).Resources(...).URLs(...).RuleOrDie(). */
export class PolicyRuleBuilder {
  private rule: PolicyRule;
  constructor(verbs: string[]) {
    this.rule = { verbs };
  }
  Groups(...apiGroups: string[]): this {
    this.rule = { ...this.rule, apiGroups };
    return this;
  }
  Resources(...resources: string[]): this {
    this.rule = { ...this.rule, resources };
    return this;
  }
  Names(...resourceNames: string[]): this {
    this.rule = { ...this.rule, resourceNames };
    return this;
  }
  URLs(...nonResourceURLs: string[]): this {
    this.rule = { ...this.rule, nonResourceURLs };
    return this;
  }
  RuleOrDie(): PolicyRule {
    return this.rule;
  }
}

export const NewRule = (...verbs: string[]): PolicyRuleBuilder => new PolicyRuleBuilder(verbs);

/** `attributes` in kube's test output: what a failing case names. */
export function describeAttributes(a: Attributes): string {
  return JSON.stringify({ user: a.user, verb: a.verb, resource: a.resource, subresource: a.subresource, namespace: a.namespace, apiGroup: a.apiGroup, path: a.path });
}
