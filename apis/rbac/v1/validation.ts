import { labelSelectorAsSelector } from '../../../runtime/apimachinery/labels/index.js';
import { validateLabelSelector, type LabelSelectorValidationOptions } from '../../../runtime/apimachinery/validation/labelselector.js';
import { childPath, GoValue, type FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { nameIsDNSSubdomain, validatePathSegmentName } from '../../../runtime/apimachinery/validation/names.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from './types.js';

/**
 * Validation of roles and bindings as kube's pkg/apis/rbac/validation (ValidateRole,
 * ValidateClusterRole, ValidatePolicyRule, ValidateRoleBinding, ValidateClusterRoleBinding and
 * their updates), with kube's paths and messages. Metadata (name required, namespace by scope,
 * labels, …) is the generic store's; names follow `validateRBACName`, given to it by the
 * strategies.
 */

export const GROUP_NAME = 'rbac.authorization.k8s.io';
export const SERVICE_ACCOUNT_KIND = 'ServiceAccount';
export const USER_KIND = 'User';
export const GROUP_KIND = 'Group';

/**
 * ValidateRBACName: a role or binding name is one URL path segment and nothing more, so names
 * such as `system:controller:namespace-controller` are valid (they are not DNS subdomains).
 */
export function validateRBACName(name: string): string[] {
  return validatePathSegmentName(name, false);
}

/** ValidateRole beyond metadata: each rule as a namespaced rule. */
export function validateRole(role: Role): FieldError[] {
  return validateRules(role.rules, true);
}

/**
 * ValidateClusterRole beyond metadata: each rule as a cluster rule (non-resource URLs allowed),
 * and an aggregationRule needs at least one selector, each a valid label selector. Rules may
 * sit beside an aggregationRule: the aggregation controller owns and overwrites them.
 */
export function validateClusterRole(role: ClusterRole, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  const errs = validateRules(role.rules, false);
  const aggregation = role.aggregationRule;
  if (aggregation !== undefined && aggregation !== null) {
    const path = 'aggregationRule.clusterRoleSelectors';
    const selectors = aggregation.clusterRoleSelectors ?? [];
    if (selectors.length === 0) errs.push({ type: 'FieldValueRequired', field: path, detail: 'at least one clusterRoleSelector required if aggregationRule is non-nil' });
    selectors.forEach((selector, i) => {
      const at = childPath(path, i);
      errs.push(...validateLabelSelector(selector, opts, at));
      try {
        labelSelectorAsSelector(selector);
      } catch {
        // kube reports the selector it failed to build, which is nil: Go prints it as "null".
        errs.push({ type: 'FieldValueInvalid', field: at, badValue: 'null', detail: 'invalid label selector.' });
      }
    });
  }
  return errs;
}

/**
 * ValidateClusterRoleUpdate's options: when the stored object's selectors are already invalid,
 * invalid label values may stay (kube's hasInvalidLabelValueInLabelSelector ratcheting).
 */
export function clusterRoleUpdateOptions(old: ClusterRole): LabelSelectorValidationOptions {
  const selectors = old.aggregationRule?.clusterRoleSelectors ?? [];
  return { allowInvalidLabelValueInSelector: selectors.some((s) => validateLabelSelector(s, {}, '').length > 0) };
}

function validateRules(rules: readonly PolicyRule[] | undefined, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  (rules ?? []).forEach((rule, i) => errs.push(...validatePolicyRule(rule, namespaced, childPath('rules', i))));
  return errs;
}

/**
 * ValidatePolicyRule: verbs are required; a rule names non-resource URLs (cluster roles only)
 * or resources of API groups, never both.
 */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const n = (list: readonly string[] | undefined): number => list?.length ?? 0;
  if (n(rule.verbs) === 0) errs.push({ type: 'FieldValueRequired', field: childPath(path, 'verbs'), detail: 'verbs must contain at least one value' });
  if (n(rule.nonResourceURLs) > 0) {
    const at = childPath(path, 'nonResourceURLs');
    if (namespaced) errs.push({ type: 'FieldValueInvalid', field: at, badValue: goStrings(rule.nonResourceURLs), detail: 'namespaced rules cannot apply to non-resource URLs' });
    if (n(rule.apiGroups) > 0 || n(rule.resources) > 0 || n(rule.resourceNames) > 0) {
      errs.push({ type: 'FieldValueInvalid', field: at, badValue: goStrings(rule.nonResourceURLs), detail: 'rules cannot apply to both regular resources and non-resource URLs' });
    }
    return errs;
  }
  if (n(rule.apiGroups) === 0) errs.push({ type: 'FieldValueRequired', field: childPath(path, 'apiGroups'), detail: 'resource rules must supply at least one api group' });
  if (n(rule.resources) === 0) errs.push({ type: 'FieldValueRequired', field: childPath(path, 'resources'), detail: 'resource rules must supply at least one resource' });
  return errs;
}

/** ValidateRoleBinding beyond metadata: a Role or ClusterRole of this group, valid subjects. */
export function validateRoleBinding(binding: RoleBinding): FieldError[] {
  return validateBinding(binding.roleRef, binding.subjects, ['Role', 'ClusterRole'], true);
}

/** ValidateClusterRoleBinding beyond metadata: only a ClusterRole; service accounts name their namespace. */
export function validateClusterRoleBinding(binding: ClusterRoleBinding): FieldError[] {
  return validateBinding(binding.roleRef, binding.subjects, ['ClusterRole'], false);
}

/** ValidateRoleBindingUpdate / ValidateClusterRoleBindingUpdate beyond metadata: roleRef is immutable. */
export function validateRoleRefUnchanged(roleRef: RoleRef | undefined, oldRoleRef: RoleRef | undefined): FieldError[] {
  if (roleRefEqual(roleRef, oldRoleRef)) return [];
  return [{ type: 'FieldValueInvalid', field: 'roleRef', badValue: goRoleRef(roleRef), detail: 'cannot change roleRef' }];
}

/** Go's %#v of the internal rbac.RoleRef, as kube's message shows it. */
function goRoleRef(r: RoleRef | undefined): GoValue {
  return new GoValue(`rbac.RoleRef{APIGroup:${JSON.stringify(r?.apiGroup ?? '')}, Kind:${JSON.stringify(r?.kind ?? '')}, Name:${JSON.stringify(r?.name ?? '')}}`);
}

/** Go's %#v of a []string. */
function goStrings(list: readonly string[] | undefined): GoValue {
  return new GoValue(`[]string{${(list ?? []).map((v) => JSON.stringify(v)).join(', ')}}`);
}

function roleRefEqual(a: RoleRef | undefined, b: RoleRef | undefined): boolean {
  return (a?.apiGroup ?? '') === (b?.apiGroup ?? '') && (a?.kind ?? '') === (b?.kind ?? '') && (a?.name ?? '') === (b?.name ?? '');
}

function validateBinding(roleRef: RoleRef | undefined, subjects: readonly Subject[] | undefined, kinds: readonly string[], namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = roleRef?.apiGroup ?? '';
  const kind = roleRef?.kind ?? '';
  const name = roleRef?.name ?? '';
  if (apiGroup !== GROUP_NAME) errs.push(notSupported('roleRef.apiGroup', apiGroup, [GROUP_NAME]));
  if (!kinds.includes(kind)) errs.push(notSupported('roleRef.kind', kind, kinds));
  if (name === '') errs.push({ type: 'FieldValueRequired', field: 'roleRef.name', detail: '' });
  else for (const msg of validateRBACName(name)) errs.push({ type: 'FieldValueInvalid', field: 'roleRef.name', badValue: name, detail: msg });
  (subjects ?? []).forEach((s, i) => errs.push(...validateRoleBindingSubject(s, namespaced, childPath('subjects', i))));
  return errs;
}

/**
 * ValidateRoleBindingSubject: a name; a ServiceAccount has a DNS-subdomain name, no API group
 * and, in a ClusterRoleBinding, a namespace; Users and Groups are of this API group.
 */
export function validateRoleBindingSubject(subject: Subject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = subject.name ?? '';
  const apiGroup = subject.apiGroup ?? '';
  if (name === '') errs.push({ type: 'FieldValueRequired', field: childPath(path, 'name'), detail: '' });
  switch (subject.kind) {
    case SERVICE_ACCOUNT_KIND:
      if (name !== '') for (const msg of nameIsDNSSubdomain(name, false)) errs.push({ type: 'FieldValueInvalid', field: childPath(path, 'name'), badValue: name, detail: msg });
      if (apiGroup !== '') errs.push(notSupported(childPath(path, 'apiGroup'), apiGroup, ['']));
      if (!namespaced && (subject.namespace ?? '') === '') errs.push({ type: 'FieldValueRequired', field: childPath(path, 'namespace'), detail: '' });
      break;
    case USER_KIND:
    case GROUP_KIND:
      if (apiGroup !== GROUP_NAME) errs.push(notSupported(childPath(path, 'apiGroup'), apiGroup, [GROUP_NAME]));
      break;
    default:
      errs.push(notSupported(childPath(path, 'kind'), subject.kind ?? '', [SERVICE_ACCOUNT_KIND, USER_KIND, GROUP_KIND]));
  }
  return errs;
}

function notSupported(field: string, value: string, supported: readonly string[]): FieldError {
  return { type: 'FieldValueNotSupported', field, badValue: value, detail: `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}` };
}
