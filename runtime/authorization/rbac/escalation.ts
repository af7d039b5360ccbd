import type { PolicyRule, RoleRef } from '../../../apis/rbac/v1/types.js';
import { aggregateMessage } from '../../apimachinery/errors/aggregate.js';
import type { Attributes, Authorizer, PolicyRuleResolver } from '../../apimachinery/request/authorizer.js';
import type { RequestInfo, UserInfo } from '../../apimachinery/request/types.js';
import { SYSTEM_PRIVILEGED_GROUP } from '../../authentication/authenticator.js';
import { GroupName } from './resolver.js';
import { APIGroupAll, nonResourceURLCovers, ResourceAll, VerbAll } from './rules.js';

export { nonResourceURLCovers };

/**
 * RBAC's escalation prevention, as kube's pkg/registry/rbac/escalation_check.go and
 * pkg/registry/rbac/validation/{policy_comparator,policy_compact,rule}.go: a user may write a
 * role only with rules they already hold (or with `escalate` on it), and a binding only to a role
 * whose rules they hold (or with `bind` on it); system:masters may always. Pure functions over
 * the resolver and the authorizer RBAC's REST storage is given.
 */

/**
 * Covers: whether `ownerRules` allow everything `servantRules` allow, and the servant rules
 * broken down to one group, resource, verb and name each that no owner rule covers.
 */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): { covered: boolean; uncoveredRules: PolicyRule[] } {
  const uncoveredRules = servantRules.flatMap(breakdownRule).filter((sub) => !ownerRules.some((owner) => ruleCovers(owner, sub)));
  return { covered: uncoveredRules.length === 0, uncoveredRules };
}

/** BreakdownRule: the equivalent rules with at most one verb, resource and resource name (or one URL and verb). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const verbs = rule.verbs ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        else for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  // Non-resource URLs combine with verbs only.
  for (const url of rule.nonResourceURLs ?? []) for (const verb of verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function has(set: readonly string[] | undefined, ele: string): boolean {
  return (set ?? []).includes(ele);
}

function hasAll(set: readonly string[] | undefined, contains: readonly string[] | undefined): boolean {
  const owning = new Set(set ?? []);
  return (contains ?? []).every((e) => owning.has(e));
}

/** resourceCoversAll: `*`, the resources themselves, or `*\/<subresource>` for a subresource. */
function resourceCoversAll(setResources: readonly string[] | undefined, coversResources: readonly string[] | undefined): boolean {
  if (has(setResources, ResourceAll) || hasAll(setResources, coversResources)) return true;
  return (coversResources ?? []).every((path) => {
    if (has(setResources, path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && has(setResources, `*/${path.slice(slash + 1)}`);
  });
}

function nonResourceURLsCoversAll(set: readonly string[] | undefined, coversURLs: readonly string[] | undefined): boolean {
  return (coversURLs ?? []).every((path) => (set ?? []).some((owner) => nonResourceURLCovers(owner, path)));
}

/** ruleCovers: the owner rule (any shape) covers the broken-down sub rule. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbMatches = has(owner.verbs, VerbAll) || hasAll(owner.verbs, sub.verbs);
  const groupMatches = has(owner.apiGroups, APIGroupAll) || hasAll(owner.apiGroups, sub.apiGroups);
  const resourceMatches = resourceCoversAll(owner.resources, sub.resources);
  const nonResourceURLMatches = nonResourceURLsCoversAll(owner.nonResourceURLs, sub.nonResourceURLs);
  const ownerNames = owner.resourceNames?.length ?? 0;
  const resourceNameMatches = (sub.resourceNames?.length ?? 0) === 0 ? ownerNames === 0 : ownerNames === 0 || hasAll(owner.resourceNames, sub.resourceNames);
  return verbMatches && groupMatches && resourceMatches && resourceNameMatches && nonResourceURLMatches;
}

/**
 * CompactRules: rules with one group, one resource and at most one name that differ only by
 * verb become one rule with all their verbs (the broken-down uncovered rules read better so).
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleResourceKey(rule);
    if (key === undefined) {
      compacted.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing === undefined) simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
    else existing.verbs = [...existing.verbs, ...(rule.verbs ?? [])];
  }
  return [...compacted, ...simple.values()];
}

function simpleResourceKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs?.length ?? 0) > 0) return undefined;
  if (rule.apiGroups?.length !== 1 || rule.resources?.length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups[0], rule.resources[0], names.length > 0, names[0] ?? '']);
}

/** Go's %q of a []string: `["a" "b"]`. */
function goQuoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, the fields that are set, in kube's order. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const field = (name: string, list: readonly string[] | undefined): void => {
    if (list !== undefined && list.length > 0) parts.push(`${name}:${goQuoteList(list)}`);
  };
  field('APIGroups', rule.apiGroups);
  field('Resources', rule.resources);
  field('NonResourceURLs', rule.nonResourceURLs);
  field('ResourceNames', rule.resourceNames);
  field('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * ConfirmNoEscalation: undefined when the rules `user` holds in `namespace` cover `rules`;
 * otherwise kube's message naming the user, their groups and each missing rule (compacted,
 * sorted, one per line), with the errors met resolving the user's rules.
 */
export async function confirmNoEscalation(user: UserInfo, namespace: string, rules: readonly PolicyRule[], resolver: PolicyRuleResolver): Promise<string | undefined> {
  const owner = await resolver.rulesFor(user, namespace);
  const { covered, uncoveredRules } = covers(owner.rules, rules);
  if (covered) return undefined;
  const missing = [...new Set(compactRules(uncoveredRules).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}`;
  // kube prints the list of the one aggregate error RulesFor returned.
  if (owner.errors.length > 0) msg += `; resolution errors: [${aggregateMessage(owner.errors)}]`;
  return msg;
}

/** EscalationAllowed: members of system:masters (the loopback identity among them) may grant anything. */
export function escalationAllowed(user: UserInfo | undefined): boolean {
  return user !== undefined && user.groups.includes(SYSTEM_PRIVILEGED_GROUP);
}

const ROLE_RESOURCES: ReadonlySet<string> = new Set(['roles', 'clusterroles']);

/**
 * RoleEscalationAuthorized: the request writes a role or cluster role of this group and the
 * authorizer allows the user `escalate` on it (a failed authorizer counts as no).
 */
export async function roleEscalationAuthorized(user: UserInfo | undefined, info: RequestInfo, authorizer: Authorizer | undefined): Promise<boolean> {
  if (authorizer === undefined || user === undefined || !info.isResourceRequest) return false;
  if (info.apiGroup !== GroupName || !ROLE_RESOURCES.has(info.resource)) return false;
  return allowed(authorizer, resourceAttributes(user, 'escalate', info.namespace, info.resource, info.name));
}

/**
 * BindingAuthorized: the authorizer allows the user `bind` on the referenced role, asked in the
 * binding's namespace ('' for a ClusterRoleBinding), so `bind` can be delegated per namespace.
 */
export async function bindingAuthorized(user: UserInfo | undefined, roleRef: RoleRef, bindingNamespace: string, authorizer: Authorizer | undefined): Promise<boolean> {
  if (authorizer === undefined || user === undefined) return false;
  const resource = roleRef.kind === 'ClusterRole' ? 'clusterroles' : roleRef.kind === 'Role' ? 'roles' : undefined;
  if (resource === undefined) return false;
  return allowed(authorizer, { ...resourceAttributes(user, 'bind', bindingNamespace, resource, roleRef.name), apiGroup: roleRef.apiGroup });
}

function resourceAttributes(user: UserInfo, verb: string, namespace: string, resource: string, name: string): Attributes {
  return { user, verb, isResourceRequest: true, path: '', namespace, apiGroup: GroupName, apiVersion: '*', resource, subresource: '', name };
}

async function allowed(authorizer: Authorizer, attributes: Attributes): Promise<boolean> {
  try {
    return (await authorizer.authorize(attributes)).decision === 'allow';
  } catch {
    // kube logs the authorizer's error and goes on with its decision, which is then no allow.
    return false;
  }
}
