import { aggregateMessage } from '../apimachinery/errors/aggregate.js';
import type { NonResourceRule, ResourceRule } from '../../apis/authorization/v1/types.js';
import type { RuleResolver, RulesReview } from './authorizer.js';

/** AlwaysAllow's RulesFor: every verb on every resource of every group, and on every non-resource URL. */
export const alwaysAllowRuleResolver: RuleResolver = {
  rulesFor: () =>
    Promise.resolve({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
      evaluationError: '',
    }),
};

/** AlwaysDeny's RulesFor: nothing, completely. */
export const alwaysDenyRuleResolver: RuleResolver = {
  rulesFor: () => Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: false, evaluationError: '' }),
};

/**
 * union.NewRuleResolvers: the rules of every resolver in order, incomplete when any one is, the
 * errors aggregated as Go's utilerrors.NewAggregate prints them. A resolver that rejects listed
 * nothing: its error is kept and the review is incomplete.
 */
export function unionRuleResolver(...resolvers: readonly RuleResolver[]): RuleResolver {
  return {
    async rulesFor(user, namespace) {
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      const errors: string[] = [];
      let incomplete = false;
      for (const r of resolvers) {
        let review: RulesReview;
        try {
          review = await r.rulesFor(user, namespace);
        } catch (err) {
          errors.push(err instanceof Error ? err.message : String(err));
          incomplete = true;
          continue;
        }
        resourceRules.push(...review.resourceRules);
        nonResourceRules.push(...review.nonResourceRules);
        incomplete ||= review.incomplete;
        if (review.evaluationError !== '') errors.push(review.evaluationError);
      }
      return { resourceRules, nonResourceRules, incomplete, evaluationError: aggregateMessage(errors) };
    },
  };
}
