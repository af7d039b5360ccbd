import type { ClusterRoleBinding, RoleBinding, Subject } from '../../../apis/rbac/v1/types.js';
import type { Attributes } from '../../apimachinery/request/authorizer.js';
import { SYSTEM_PRIVILEGED_GROUP } from '../privileged.js';
import type { PolicyStore } from './policy.js';
import { DefaultRuleResolver, GroupName } from './resolver.js';
import { rulesAllow } from './rules.js';
import { GroupKind, UserKind } from './subjects.js';

/**
 * kube's SubjectAccessEvaluator (plugin/pkg/auth/authorizer/rbac/subject_locator.go): who may do
 * what the attributes describe. The reverse question of the authorizer, so it reads every binding
 * of the cluster and of the namespace (no user to index by). system:masters and the optional
 * super user come first; then the subjects of every ClusterRoleBinding and RoleBinding whose role
 * grants the request, in binding order, each subject once.
 */
export class SubjectAccessEvaluator {
  private readonly resolver: DefaultRuleResolver;

  constructor(
    private readonly store: PolicyStore,
    private readonly superUser = '',
  ) {
    this.resolver = new DefaultRuleResolver(store, 'lister');
  }

  /** AllowedSubjects: the subjects found, and the errors met resolving roles (the subjects found still hold). */
  allowedSubjects(attributes: Attributes): { readonly subjects: Subject[]; readonly errors: Error[] } {
    const subjects: Subject[] = [{ kind: GroupKind, apiGroup: GroupName, name: SYSTEM_PRIVILEGED_GROUP }];
    if (this.superUser !== '') subjects.push({ kind: UserKind, apiGroup: GroupName, name: this.superUser });
    const errors: Error[] = [];
    const collect = (bindings: readonly (ClusterRoleBinding | RoleBinding)[], namespace: string): void => {
      for (const b of bindings) {
        const rules = this.resolver.roleReferenceRules(b.roleRef, namespace);
        if (rules instanceof Error) errors.push(rules);
        else if (rulesAllow(attributes, rules)) subjects.push(...(b.subjects ?? []));
      }
    };
    collect(this.store.listClusterRoleBindings(), '');
    if (attributes.namespace !== '') collect(this.store.listRoleBindings(attributes.namespace), attributes.namespace);
    return { subjects: dedupe(subjects), errors };
  }
}

/**
 * Each subject once, first occurrence kept (kube computes this list; its return of the list
 * before deduplication is an oversight the ported cases do not exercise).
 */
function dedupe(subjects: readonly Subject[]): Subject[] {
  const out: Subject[] = [];
  for (const s of subjects) {
    if (!out.some((o) => o.kind === s.kind && (o.apiGroup ?? '') === (s.apiGroup ?? '') && o.name === s.name && (o.namespace ?? '') === (s.namespace ?? ''))) out.push(s);
  }
  return out;
}
