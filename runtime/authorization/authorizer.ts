import { aggregateMessage } from '../apimachinery/errors/aggregate.js';
import type { APIRequest } from '../apimachinery/request/http.js';
import type { Attributes, AuthorizationResult, Authorizer } from '../apimachinery/request/authorizer.js';

export type { Attributes, AuthorizationResult, Authorizer, Decision, PolicyRuleResolver, RuleResolver, RulesReview } from '../apimachinery/request/authorizer.js';

/** GetAuthorizerAttributes. */
export function authorizerAttributes(req: APIRequest): Attributes {
  const info = req.info;
  return {
    user: req.user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

/** AlwaysAllow: the default while no RBAC exists. */
export const alwaysAllowAuthorizer: Authorizer = { authorize: () => Promise.resolve({ decision: 'allow', reason: '' }) };

/** AlwaysDeny. */
export const alwaysDenyAuthorizer: Authorizer = { authorize: () => Promise.resolve({ decision: 'noOpinion', reason: 'Everything is forbidden.' }) };

/**
 * union.New: the first authorizer that allows or denies decides; noOpinion asks the next. With
 * no decision the result is noOpinion with every reason joined by newlines, or a rejection
 * carrying every error when any authorizer failed.
 */
export function unionAuthorizer(...authorizers: readonly Authorizer[]): Authorizer {
  return {
    async authorize(attributes) {
      const reasons: string[] = [];
      const errors: unknown[] = [];
      for (const a of authorizers) {
        let result: AuthorizationResult;
        try {
          result = await a.authorize(attributes);
        } catch (err) {
          errors.push(err);
          continue;
        }
        if (result.decision !== 'noOpinion') return result;
        if (result.reason !== '') reasons.push(result.reason);
      }
      if (errors.length > 0) throw new AggregateError(errors, aggregateMessage(errors));
      return { decision: 'noOpinion', reason: reasons.join('\n') };
    },
  };
}
