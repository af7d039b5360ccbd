import type { NonResourceRule, ResourceRule } from '../../../apis/authorization/v1/types.js';
import type { PolicyRule } from '../../../apis/rbac/v1/types.js';
import { aggregateMessage } from '../../apimachinery/errors/aggregate.js';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesReview } from '../../apimachinery/request/authorizer.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import type { PolicyStore } from './policy.js';
import { DefaultRuleResolver } from './resolver.js';
import { ruleAllows } from './rules.js';

/**
 * kube's RBACAuthorizer (plugin/pkg/auth/authorizer/rbac/rbac.go). A request is allowed by the
 * first rule of a binding naming the user that grants it, with the reason `RBAC: allowed by
 * ClusterRoleBinding "x" of ClusterRole "y" to User "z"`; otherwise the decision is noOpinion
 * (RBAC never denies: a later authorizer may still allow), its reason empty, or `RBAC: <errors>`
 * when bindings could not be resolved (a missing role).
 *
 * It is also the RuleResolver of SelfSubjectRulesReview. The PolicyRuleResolver of RBAC's
 * escalation checks is a DefaultRuleResolver with the registry's wording (policyRuleResolver()).
 */
export class RBACAuthorizer implements Authorizer, RuleResolver {
  private readonly resolver: DefaultRuleResolver;

  constructor(private readonly store: PolicyStore) {
    this.resolver = new DefaultRuleResolver(store, 'lister');
  }

  authorize(attributes: Attributes): Promise<AuthorizationResult> {
    return Promise.resolve(this.authorizeSync(attributes));
  }

  /** Authorize, synchronously: one decision reads one state of the store. */
  authorizeSync(attributes: Attributes): AuthorizationResult {
    let reason = '';
    const errors: Error[] = [];
    this.resolver.visitRulesFor(attributes.user, attributes.namespace, (source, rule, err) => {
      if (rule !== undefined && source !== undefined && ruleAllows(attributes, rule)) {
        reason = `RBAC: allowed by ${source()}`;
        return false;
      }
      if (err !== undefined) errors.push(err);
      return true;
    });
    if (reason !== '') return { decision: 'allow', reason };
    return { decision: 'noOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateMessage(errors)}` : '' };
  }

  /**
   * RulesFor as the rules review shows it: resource rules from the rules naming resources,
   * non-resource rules from those naming URLs. As kube's RBAC, the list is never marked
   * incomplete; resolution errors are the evaluationError (the rules found still hold).
   */
  rulesFor(user: UserInfo, namespace: string): Promise<RulesReview> {
    const { rules, errors } = this.resolver.rulesForSync(user, namespace);
    return Promise.resolve({
      resourceRules: rules.filter((r) => (r.resources ?? []).length > 0).map(resourceRule),
      nonResourceRules: rules.filter((r) => (r.nonResourceURLs ?? []).length > 0).map(nonResourceRule),
      incomplete: false,
      evaluationError: aggregateMessage(errors),
    });
  }

  /** The PolicyRuleResolver over the same store, worded as RBAC's REST storage is (registry NotFound). */
  policyRuleResolver(): DefaultRuleResolver {
    return new DefaultRuleResolver(this.store, 'registry');
  }
}

function resourceRule(r: PolicyRule): ResourceRule {
  const out: ResourceRule = { verbs: [...(r.verbs ?? [])] };
  // Empty lists are left out, as kube's omitempty does.
  if ((r.apiGroups ?? []).length > 0) out.apiGroups = [...(r.apiGroups ?? [])];
  if ((r.resources ?? []).length > 0) out.resources = [...(r.resources ?? [])];
  if ((r.resourceNames ?? []).length > 0) out.resourceNames = [...(r.resourceNames ?? [])];
  return out;
}

function nonResourceRule(r: PolicyRule): NonResourceRule {
  const out: NonResourceRule = { verbs: [...(r.verbs ?? [])] };
  if ((r.nonResourceURLs ?? []).length > 0) out.nonResourceURLs = [...(r.nonResourceURLs ?? [])];
  return out;
}
