import type { PolicyRule } from '../../../apis/rbac/v1/types.js';
import type { Attributes } from '../../apimachinery/request/authorizer.js';

/**
 * Rule matching as kube's pkg/apis/rbac/v1/evaluation_helpers.go and rbac.RuleAllows: every
 * comparison is exact string equality (verbs are not lower-cased, groups and resources are not
 * normalised), `*` is the only wildcard of verbs, groups and resources, a resource rule may also
 * be `*\/<subresource>` (that subresource of every resource), and a non-resource URL may end in
 * `*` (a prefix). Nothing here looks a request's strings up as properties: they are data.
 */

export const VerbAll = '*';
export const APIGroupAll = '*';
export const ResourceAll = '*';
export const NonResourceAll = '*';

export function verbMatches(rule: PolicyRule, requestedVerb: string): boolean {
  // `?? []`: a stored rule is validated, but a missing list must deny, never throw.
  return (rule.verbs ?? []).some((v) => v === VerbAll || v === requestedVerb);
}

export function apiGroupMatches(rule: PolicyRule, requestedGroup: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === APIGroupAll || g === requestedGroup);
}

/**
 * `combinedRequestedResource` is `resource` or `resource/subresource`. A rule resource matches
 * when it is `*`, equal to the combined resource, or — only for a subresource request — exactly
 * `*\/<subresource>`. `pods` alone never matches `pods/status`, and `pods/*` is no wildcard.
 */
export function resourceMatches(rule: PolicyRule, combinedRequestedResource: string, requestedSubresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ResourceAll || r === combinedRequestedResource) return true;
    if (requestedSubresource === '') continue;
    if (r.length === requestedSubresource.length + 2 && r.startsWith('*/') && r.endsWith(requestedSubresource)) return true;
  }
  return false;
}

/** An empty resourceNames allows every name (an unnamed list or create included). */
export function resourceNameMatches(rule: PolicyRule, requestedName: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(requestedName);
}

/** `*` is every URL; `/apis/*` every URL that starts with `/apis/` (not `/apis` itself). */
export function nonResourceURLMatches(rule: PolicyRule, requestedURL: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => nonResourceURLCovers(u, requestedURL));
}

/**
 * One rule URL against a path (kube's NonResourceURLMatches and the escalation check's
 * nonResourceURLCovers, the same test): equal, or a `*`-ended prefix of it. The stars are
 * trimmed by a scan, not a `/\*+$/` regex, which backtracks quadratically on a long URL of
 * stars that does not end the string.
 */
export function nonResourceURLCovers(ruleURL: string, requestedURL: string): boolean {
  if (ruleURL === NonResourceAll || ruleURL === requestedURL) return true;
  return ruleURL.endsWith('*') && requestedURL.startsWith(trimRightStars(ruleURL));
}

/** Go's strings.TrimRight(s, "*"). */
function trimRightStars(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2a) end--;
  return s.slice(0, end);
}

/** rbac.RuleAllows: whether one rule grants the request. */
export function ruleAllows(attributes: Attributes, rule: PolicyRule): boolean {
  if (attributes.isResourceRequest) {
    const combined = attributes.subresource === '' ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
    return verbMatches(rule, attributes.verb) && apiGroupMatches(rule, attributes.apiGroup) && resourceMatches(rule, combined, attributes.subresource) && resourceNameMatches(rule, attributes.name);
  }
  return verbMatches(rule, attributes.verb) && nonResourceURLMatches(rule, attributes.path);
}

/** rbac.RulesAllow: whether any of the rules grants the request. */
export function rulesAllow(attributes: Attributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(attributes, r));
}
