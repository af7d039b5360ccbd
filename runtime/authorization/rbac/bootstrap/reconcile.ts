import type { LabelSelector } from '../../../../apis/meta/v1/types.js';
import type { AggregationRule, PolicyRule, RoleRef, Subject } from '../../../../apis/rbac/v1/types.js';
import { deepCopyJSON, hasField, ownField, setField } from '../../../apimachinery/serializer/jsonvalue.js';
import { semanticDeepEqual } from '../../../apimachinery/serializer/semantic.js';
import { covers } from '../escalation.js';
import { AUTO_UPDATE_ANNOTATION_KEY } from './metadata.js';

/**
 * kube's pkg/registry/rbac/reconciliation, the pure part: what an existing role or binding must
 * become to hold the expected one's permissions or subjects. Missing rules (subjects) are added;
 * extra ones are kept unless removeExtraPermissions (removeExtraSubjects); labels and annotations
 * are merged with the existing values winning; an object annotated
 * `rbac.authorization.kubernetes.io/autoupdate: "false"` is `protected` (the caller leaves it).
 */

export type ReconcileOperation = 'create' | 'update' | 'recreate' | 'none';

interface Meta {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A Role or ClusterRole (RuleOwner); only a ClusterRole has an aggregationRule. */
export interface RuleOwner {
  metadata?: Meta & { name?: string; namespace?: string };
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
}

/** A RoleBinding or ClusterRoleBinding. */
export interface RoleBindingLike {
  metadata?: Meta & { name?: string; namespace?: string; uid?: string };
  roleRef: RoleRef;
  subjects?: Subject[];
}

export interface ReconcileRoleResult<T extends RuleOwner> {
  /** The role to write (a copy of the existing one, changed), or the expected one to create. */
  readonly role: T;
  readonly missingRules: readonly PolicyRule[];
  readonly extraRules: readonly PolicyRule[];
  readonly missingAggregationRuleSelectors: readonly LabelSelector[];
  readonly extraAggregationRuleSelectors: readonly LabelSelector[];
  readonly operation: ReconcileOperation;
  readonly protected: boolean;
}

export interface ReconcileRoleBindingResult<T extends RoleBindingLike> {
  readonly roleBinding: T;
  readonly missingSubjects: readonly Subject[];
  readonly extraSubjects: readonly Subject[];
  readonly operation: ReconcileOperation;
  readonly protected: boolean;
}

/** ReconcileCreate's result for a role that does not exist yet. */
export function roleToCreate<T extends RuleOwner>(expected: T): ReconcileRoleResult<T> {
  return {
    role: expected,
    missingRules: expected.rules ?? [],
    extraRules: [],
    missingAggregationRuleSelectors: expected.aggregationRule?.clusterRoleSelectors ?? [],
    extraAggregationRuleSelectors: [],
    operation: 'create',
    protected: false,
  };
}

/** ReconcileCreate's result for a binding that does not exist yet. */
export function roleBindingToCreate<T extends RoleBindingLike>(expected: T): ReconcileRoleBindingResult<T> {
  return { roleBinding: expected, missingSubjects: expected.subjects ?? [], extraSubjects: [], operation: 'create', protected: false };
}

/** computeReconciledRole. */
export function computeReconciledRole<T extends RuleOwner>(existing: T, expected: T, removeExtraPermissions: boolean): ReconcileRoleResult<T> {
  let operation: ReconcileOperation = 'none';
  const role = deepCopyJSON(existing);
  role.metadata ??= {};
  const { changed, meta } = mergedMeta(existing.metadata, expected.metadata);
  if (changed) operation = 'update';
  setMeta(role.metadata, meta);

  const extraRules = covers(expected.rules ?? [], existing.rules ?? []).uncoveredRules;
  const missingRules = covers(existing.rules ?? [], expected.rules ?? []).uncoveredRules;
  if (!removeExtraPermissions && missingRules.length > 0) {
    role.rules = [...(role.rules ?? []), ...deepCopyJSON(missingRules)];
    operation = 'update';
  } else if (removeExtraPermissions && (missingRules.length > 0 || extraRules.length > 0)) {
    role.rules = deepCopyJSON(expected.rules ?? []);
    operation = 'update';
  }

  const extraSelectors = aggregationRuleCovers(expected.aggregationRule, existing.aggregationRule);
  const missingSelectors = aggregationRuleCovers(existing.aggregationRule, expected.aggregationRule);
  if (expected.aggregationRule === undefined && existing.aggregationRule !== undefined) {
    // an aggregated role that should not be: its rules stay (and the expected ones join them)
    delete role.aggregationRule;
    operation = 'update';
  } else if (!removeExtraPermissions && missingSelectors.length > 0) {
    role.aggregationRule = { clusterRoleSelectors: [...(role.aggregationRule?.clusterRoleSelectors ?? []), ...deepCopyJSON(missingSelectors)] };
    operation = 'update';
  } else if (removeExtraPermissions && (missingSelectors.length > 0 || extraSelectors.length > 0)) {
    role.aggregationRule = deepCopyJSON(expected.aggregationRule);
    operation = 'update';
  }
  return {
    role,
    missingRules,
    extraRules,
    missingAggregationRuleSelectors: missingSelectors,
    extraAggregationRuleSelectors: extraSelectors,
    operation,
    protected: isProtected(existing.metadata),
  };
}

/** computeReconciledRoleBinding: a binding whose roleRef differs is recreated (roleRef cannot change). */
export function computeReconciledRoleBinding<T extends RoleBindingLike>(existing: T, expected: T, removeExtraSubjects: boolean): ReconcileRoleBindingResult<T> {
  const isProtectedBinding = isProtected(existing.metadata);
  if (!sameRoleRef(expected.roleRef, existing.roleRef)) {
    return { roleBinding: expected, missingSubjects: [], extraSubjects: [], operation: 'recreate', protected: isProtectedBinding };
  }
  let operation: ReconcileOperation = 'none';
  const roleBinding = deepCopyJSON(existing);
  roleBinding.metadata ??= {};
  const { changed, meta } = mergedMeta(existing.metadata, expected.metadata);
  if (changed) operation = 'update';
  setMeta(roleBinding.metadata, meta);

  const { list1Only: missingSubjects, list2Only: extraSubjects } = diffSubjectLists(expected.subjects ?? [], existing.subjects ?? []);
  if (!removeExtraSubjects && missingSubjects.length > 0) {
    roleBinding.subjects = [...(roleBinding.subjects ?? []), ...deepCopyJSON(missingSubjects)];
    operation = 'update';
  } else if (removeExtraSubjects && (missingSubjects.length > 0 || extraSubjects.length > 0)) {
    roleBinding.subjects = deepCopyJSON(expected.subjects ?? []);
    operation = 'update';
  }
  return { roleBinding, missingSubjects, extraSubjects, operation, protected: isProtectedBinding };
}

/**
 * diffSubjectLists: the subjects only in list1 and only in list2, each once, in list order (both
 * empty: the lists hold the same subjects). Subjects are equal when all four fields are.
 */
export function diffSubjectLists(list1: readonly Subject[], list2: readonly Subject[]): { list1Only: Subject[]; list2Only: Subject[] } {
  const only = (from: readonly Subject[], other: readonly Subject[]): Subject[] => {
    const out: Subject[] = [];
    for (const s of from) if (!containsSubject(other, s) && !containsSubject(out, s)) out.push(s);
    return out;
  };
  return { list1Only: only(list1, list2), list2Only: only(list2, list1) };
}

function containsSubject(list: readonly Subject[], item: Subject): boolean {
  return list.some(
    (s) => (s.kind ?? '') === (item.kind ?? '') && (s.apiGroup ?? '') === (item.apiGroup ?? '') && (s.name ?? '') === (item.name ?? '') && (s.namespace ?? '') === (item.namespace ?? ''),
  );
}

function sameRoleRef(a: RoleRef, b: RoleRef): boolean {
  return (a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.kind ?? '') === (b.kind ?? '') && (a.name ?? '') === (b.name ?? '');
}

/** aggregationRuleCovers: the servant's selectors no owner selector equals (semantically). */
export function aggregationRuleCovers(owner: AggregationRule | undefined, servant: AggregationRule | undefined): LabelSelector[] {
  if (servant === undefined) return [];
  if (owner === undefined) return [...(servant.clusterRoleSelectors ?? [])];
  const ownerSelectors = owner.clusterRoleSelectors ?? [];
  return (servant.clusterRoleSelectors ?? []).filter((s) => !ownerSelectors.some((o) => semanticDeepEqual(o, s)));
}

function isProtected(meta: Meta | undefined): boolean {
  return meta?.annotations !== undefined && ownField(meta.annotations, AUTO_UPDATE_ANNOTATION_KEY) === 'false';
}

/**
 * The expected labels and annotations merged under the existing ones (kube's merge: later maps
 * win), and whether that changed them. Go's reflect.DeepEqual tells an absent map from an empty
 * one, and so does this.
 */
function mergedMeta(existing: Meta | undefined, expected: Meta | undefined): { changed: boolean; meta: Meta } {
  const labels = merge(expected?.labels, existing?.labels);
  const annotations = merge(expected?.annotations, existing?.annotations);
  const changed = !sameMap(labels, existing?.labels) || !sameMap(annotations, existing?.annotations);
  return { changed, meta: { ...(labels !== undefined ? { labels } : {}), ...(annotations !== undefined ? { annotations } : {}) } };
}

function setMeta(target: Meta, meta: Meta): void {
  delete target.labels;
  delete target.annotations;
  if (meta.labels !== undefined) target.labels = meta.labels;
  if (meta.annotations !== undefined) target.annotations = meta.annotations;
}

/** merge: undefined when every map is; keys of later maps win. Keys are data (Map, then an own-property object). */
function merge(...maps: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  let out: Map<string, string> | undefined;
  for (const m of maps) {
    if (m === undefined) continue;
    out ??= new Map();
    for (const [k, v] of Object.entries(m)) out.set(k, v);
  }
  if (out === undefined) return undefined;
  const obj: Record<string, string> = {};
  for (const [k, v] of out) setField(obj, k, v);
  return obj;
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  return ak.every((k) => hasField(b, k) && ownField(b, k) === ownField(a, k));
}
