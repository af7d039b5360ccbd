import type { NonResourceRule, ResourceRule } from '../../../apis/authorization/v1/types.js';
import type { PolicyRule, RoleRef } from '../../../apis/rbac/v1/types.js';
import type { UserInfo } from './types.js';

/**
 * The authorizer's vocabulary (k8s.io/apiserver/pkg/authorization/authorizer): shared by the
 * filter that authorizes requests, the authorizers, and the REST storages that answer with an
 * authorizer (the review APIs, RBAC's escalation checks), which sit in different layers.
 */

/**
 * authorizer.Attributes: what is asked of the authorizer for one request, from its RequestInfo
 * and user. For non-resource requests only `path` and `verb` (lower-cased method) matter.
 */
export interface Attributes {
  readonly user: UserInfo | undefined;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export type Decision = 'allow' | 'deny' | 'noOpinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why; shown to a forbidden client after the message and recorded in the audit annotations. */
  readonly reason: string;
}

/**
 * authorizer.Authorizer. Rejecting means the authorizer could not decide (500 InternalError
 * unless another authorizer of a union allowed).
 */
export interface Authorizer {
  authorize(attributes: Attributes): Promise<AuthorizationResult>;
}

/** What a rules review lists for one user in one namespace (authorizer.RuleResolver's answer). */
export interface RulesReview {
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
  /** True when an authorizer could not list all its rules (a webhook cannot); RBAC, as kube's, reports its errors in evaluationError instead. */
  readonly incomplete: boolean;
  /** The errors met, joined; '' when none. */
  readonly evaluationError: string;
}

/** authorizer.RuleResolver: lists the rules a user has in a namespace (SelfSubjectRulesReview). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): Promise<RulesReview>;
}

/**
 * RBAC's validation.AuthorizationRuleResolver: the policy rules that apply to a user in a
 * namespace ('' for cluster-wide only), and the rules a role reference grants. What RBAC's REST
 * storage needs to refuse privilege escalation.
 */
export interface PolicyRuleResolver {
  /** Every rule the user holds in `namespace` (cluster-wide ones included); errors for bindings or roles that could not be read. */
  rulesFor(user: UserInfo, namespace: string): Promise<{ readonly rules: readonly PolicyRule[]; readonly errors: readonly Error[] }>;
  /** The rules `roleRef` grants when bound in `namespace`; rejects with a NotFound StatusError when the role does not exist. */
  getRoleReferenceRules(roleRef: RoleRef, namespace: string): Promise<readonly PolicyRule[]>;
}
