import type { ClusterRoleBinding, PolicyRule, RoleBinding, RoleRef, Subject } from '../../../apis/rbac/v1/types.js';
import { newNotFound, type GroupResource } from '../../apimachinery/errors/catalog.js';
import type { PolicyRuleResolver } from '../../apimachinery/request/authorizer.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import type { PolicyStore } from './policy.js';
import { appliesTo, describeSubject } from './subjects.js';

/**
 * kube's validation.DefaultRuleResolver (pkg/registry/rbac/validation/rule.go) over the indexed
 * PolicyStore: the rules that apply to a user in a namespace are those of the ClusterRoleBindings
 * naming it, then (with a namespace) those of the namespace's RoleBindings naming it. A binding
 * whose role is missing is an error handed to the visitor, never a crash, and the other bindings
 * still count (rules only add).
 */

export const GroupName = 'rbac.authorization.k8s.io';

/** Describes where a rule came from, only when asked (the allow reason). */
export type RuleSource = () => string;

/** Returns false to stop the visit. `rule` is undefined when `err` is set. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: Error | undefined) => boolean;

/**
 * How a missing role is worded. kube's authorizer reads listers, whose NotFound names the
 * singular resource (`clusterrole.rbac.authorization.k8s.io "x" not found`, the text of RBAC's
 * evaluation errors in audit logs and rules reviews); RBAC's REST storage reads the registry,
 * whose NotFound names the resource (`clusterroles.rbac.authorization.k8s.io "x" not found`, what
 * a client creating a binding to a missing role sees).
 */
export type NotFoundWording = 'lister' | 'registry';

const notFoundResources: Readonly<Record<NotFoundWording, { readonly role: GroupResource; readonly clusterRole: GroupResource }>> = {
  lister: { role: { group: GroupName, resource: 'role' }, clusterRole: { group: GroupName, resource: 'clusterrole' } },
  registry: { role: { group: GroupName, resource: 'roles' }, clusterRole: { group: GroupName, resource: 'clusterroles' } },
};

export class DefaultRuleResolver implements PolicyRuleResolver {
  private readonly notFound: { readonly role: GroupResource; readonly clusterRole: GroupResource };

  constructor(
    private readonly store: PolicyStore,
    wording: NotFoundWording = 'registry',
  ) {
    this.notFound = notFoundResources[wording];
  }

  /** VisitRulesFor: synchronous, so one visit sees one state of the store. */
  visitRulesFor(user: UserInfo | undefined, namespace: string, visitor: RuleVisitor): void {
    // No user (no authentication ran): no binding names it.
    if (user === undefined) return;
    if (!this.store.visitClusterRoleBindingsFor(user, (b) => this.visitBinding('ClusterRoleBinding', b, user, '', visitor))) return;
    if (namespace !== '') this.store.visitRoleBindingsFor(user, namespace, (b) => this.visitBinding('RoleBinding', b, user, namespace, visitor));
  }

  /** Visits the rules of one binding if it applies; false when the visitor stopped. `namespace`: '' for a ClusterRoleBinding. */
  private visitBinding(kind: string, binding: ClusterRoleBinding | RoleBinding, user: UserInfo, namespace: string, visitor: RuleVisitor): boolean {
    const subject = binding.subjects?.[appliesTo(user, binding.subjects, namespace)];
    if (subject === undefined) return true;
    const rules = this.roleReferenceRules(binding.roleRef, namespace);
    if (rules instanceof Error) return visitor(undefined, undefined, rules);
    const source: RuleSource = () => describeBinding(kind, binding, subject, namespace);
    for (const rule of rules) if (!visitor(source, rule, undefined)) return false;
    return true;
  }

  /** RulesFor with every rule that applies and every error met (the rules found still hold). */
  rulesForSync(user: UserInfo | undefined, namespace: string): { readonly rules: PolicyRule[]; readonly errors: Error[] } {
    const rules: PolicyRule[] = [];
    const errors: Error[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, err) => {
      if (rule !== undefined) rules.push(rule);
      if (err !== undefined) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  rulesFor(user: UserInfo, namespace: string): Promise<{ readonly rules: readonly PolicyRule[]; readonly errors: readonly Error[] }> {
    return Promise.resolve(this.rulesForSync(user, namespace));
  }

  /** GetRoleReferenceRules: rejects with NotFound for a missing role, an Error for a kind that is neither Role nor ClusterRole. */
  getRoleReferenceRules(roleRef: RoleRef, namespace: string): Promise<readonly PolicyRule[]> {
    const rules = this.roleReferenceRules(roleRef, namespace);
    return rules instanceof Error ? Promise.reject(rules) : Promise.resolve(rules);
  }

  /** The rules of the referenced role, or the error kube's getters give. */
  roleReferenceRules(roleRef: RoleRef, bindingNamespace: string): readonly PolicyRule[] | Error {
    switch (roleRef.kind) {
      case 'Role': {
        const role = this.store.getRole(bindingNamespace, roleRef.name);
        return role === undefined ? newNotFound(this.notFound.role, roleRef.name) : (role.rules ?? []);
      }
      case 'ClusterRole': {
        const role = this.store.getClusterRole(roleRef.name);
        return role === undefined ? newNotFound(this.notFound.clusterRole, roleRef.name) : (role.rules ?? []);
      }
      default:
        return new Error(`unsupported role reference kind: ${JSON.stringify(roleRef.kind)}`);
    }
  }
}

/**
 * clusterRoleBindingDescriber / roleBindingDescriber: `ClusterRoleBinding "x" of ClusterRole "y"
 * to User "z"`, `RoleBinding "x/ns" of Role "y" to Group "g"`.
 */
function describeBinding(kind: string, binding: ClusterRoleBinding | RoleBinding, subject: Subject, namespace: string): string {
  const name = binding.metadata?.name ?? '';
  const bindingName = namespace === '' ? name : `${name}/${namespace}`;
  return `${kind} ${JSON.stringify(bindingName)} of ${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)} to ${describeSubject(subject, namespace)}`;
}
