// kube's RBAC authorizer (plugin/pkg/auth/authorizer/rbac) and its rule resolution
// (pkg/registry/rbac/validation): what the control plane wires and RBAC's REST storage uses.
export { RBACAuthorizer } from './authorizer.js';
export { BindingIndex, PolicyStore } from './policy.js';
export { DefaultRuleResolver, GroupName, type NotFoundWording, type RuleSource, type RuleVisitor } from './resolver.js';
export { APIGroupAll, NonResourceAll, ResourceAll, VerbAll, apiGroupMatches, nonResourceURLMatches, resourceMatches, resourceNameMatches, ruleAllows, rulesAllow, verbMatches } from './rules.js';
export { SubjectAccessEvaluator } from './subject-locator.js';
export { GroupKind, ServiceAccountKind, UserKind, appliesTo, appliesToUser, describeSubject, serviceAccountUsername } from './subjects.js';
