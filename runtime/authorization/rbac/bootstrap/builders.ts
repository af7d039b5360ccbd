import type { ClusterRoleBinding, PolicyRule, RoleBinding, Subject } from '../../../../apis/rbac/v1/types.js';

/**
 * kube's rule and binding builders (pkg/apis/rbac/v1/helpers.go: NewRule … RuleOrDie,
 * NewClusterBinding / NewRoleBinding … BindingOrDie). The policy is static data, so a malformed
 * rule is a programming error and throws at module load, as RuleOrDie panics.
 */

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** PolicyRuleBuilder: the lists are sorted when the rule is built, as kube's Rule() sorts them. */
export class RuleBuilder {
  private apiGroups: string[] = [];
  private resourceList: string[] = [];
  private resourceNames: string[] = [];
  private nonResourceURLs: string[] = [];

  constructor(private readonly verbs: readonly string[]) {}

  groups(...groups: string[]): this {
    this.apiGroups.push(...groups);
    return this;
  }

  resources(...resources: string[]): this {
    this.resourceList.push(...resources);
    return this;
  }

  names(...names: string[]): this {
    this.resourceNames.push(...names);
    return this;
  }

  urls(...urls: string[]): this {
    this.nonResourceURLs.push(...urls);
    return this;
  }

  /** RuleOrDie: verbs are required; a rule names non-resource URLs or resources (with groups), never both. */
  rule(): PolicyRule {
    const shown = JSON.stringify({ verbs: this.verbs, apiGroups: this.apiGroups, resources: this.resourceList, nonResourceURLs: this.nonResourceURLs });
    if (this.verbs.length === 0) throw new Error(`verbs are required: ${shown}`);
    if (this.nonResourceURLs.length > 0) {
      if (this.apiGroups.length > 0 || this.resourceList.length > 0 || this.resourceNames.length > 0)
        throw new Error(`non-resource rule may not have apiGroups, resources, or resourceNames: ${shown}`);
      return { verbs: sorted(this.verbs), nonResourceURLs: sorted(this.nonResourceURLs) };
    }
    if (this.resourceList.length === 0) throw new Error(`a rule must have either nonResourceURLs or resources: ${shown}`);
    if (this.apiGroups.length === 0) throw new Error(`resource rule must have apiGroups: ${shown}`);
    const rule: PolicyRule = { verbs: sorted(this.verbs), apiGroups: sorted(this.apiGroups), resources: sorted(this.resourceList) };
    if (this.resourceNames.length > 0) rule.resourceNames = sorted(this.resourceNames);
    return rule;
  }
}

/** NewRule(verbs...). */
export function newRule(...verbs: string[]): RuleBuilder {
  return new RuleBuilder(verbs);
}

function sorted(values: readonly string[]): string[] {
  // Go's sort.Strings: byte order, which for these ASCII names is UTF-16 code unit order.
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The subjects of a binding builder: users and groups carry the RBAC group, service accounts none. */
class SubjectsBuilder {
  protected readonly subjects: Subject[] = [];

  groups(...names: string[]): this {
    for (const name of names) this.subjects.push({ kind: 'Group', apiGroup: RBAC_GROUP, name });
    return this;
  }

  users(...names: string[]): this {
    for (const name of names) this.subjects.push({ kind: 'User', apiGroup: RBAC_GROUP, name });
    return this;
  }

  sas(namespace: string, ...names: string[]): this {
    for (const name of names) this.subjects.push({ kind: 'ServiceAccount', namespace, name });
    return this;
  }
}

/** NewClusterBinding(clusterRoleName): a ClusterRoleBinding named like the ClusterRole it grants. */
export class ClusterRoleBindingBuilder extends SubjectsBuilder {
  constructor(private readonly roleName: string) {
    super();
  }

  binding(): ClusterRoleBinding {
    return {
      apiVersion: `${RBAC_GROUP}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: this.roleName },
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: this.roleName },
      subjects: [...this.subjects],
    };
  }
}

export function newClusterBinding(clusterRoleName: string): ClusterRoleBindingBuilder {
  return new ClusterRoleBindingBuilder(clusterRoleName);
}

/** NewRoleBinding(roleName, namespace): a RoleBinding of a Role of its namespace, named like it. */
export class RoleBindingBuilder extends SubjectsBuilder {
  constructor(
    private readonly roleName: string,
    private readonly namespace: string,
  ) {
    super();
  }

  binding(): RoleBinding {
    return {
      apiVersion: `${RBAC_GROUP}/v1`,
      kind: 'RoleBinding',
      metadata: { name: this.roleName, namespace: this.namespace },
      roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: this.roleName },
      subjects: [...this.subjects],
    };
  }
}

export function newRoleBinding(roleName: string, namespace: string): RoleBindingBuilder {
  return new RoleBindingBuilder(roleName, namespace);
}
