import type { NamespaceCondition, NamespaceConditionType } from '../../../apis/core/v1/types.js';

/**
 * The status conditions the namespace controller writes while it deletes a namespace's content
 * (pkg/controller/namespace/deletion/status_condition_utils.go), in kube's words: each type is
 * True with what went wrong or is left, or False with its "ok" reason and message.
 */

/** The condition types the controller owns, in the order kube adds them. */
const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

const OK: Readonly<Record<(typeof CONDITION_TYPES)[number], { reason: string; message: string }>> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

/** What one pass over a terminating namespace found. */
export interface DeletionOutcome {
  /** Groups whose resources could not be discovered, with why (`<group/version>: <error>`). */
  readonly discoveryFailures: readonly string[];
  /** Per resource that failed to be deleted or listed: the error message. */
  readonly contentErrors: readonly string[];
  /** `<resource>.<group>` → objects left (kube prints `pods.` for the core group). */
  readonly remaining: ReadonlyMap<string, number>;
  /** Finalizer → objects left that carry it. */
  readonly finalizers: ReadonlyMap<string, number>;
}

/** The conditions kube's condition updater computes for an outcome (lastTransitionTime unset). */
export function deletionConditions(o: DeletionOutcome): Map<NamespaceConditionType, Omit<NamespaceCondition, 'lastTransitionTime'>> {
  const out = new Map<NamespaceConditionType, Omit<NamespaceCondition, 'lastTransitionTime'>>();
  const failing = (type: NamespaceConditionType, reason: string, message: string): void => void out.set(type, { type, status: 'True', reason, message });
  if (o.discoveryFailures.length > 0) {
    failing(
      'NamespaceDeletionDiscoveryFailure',
      'DiscoveryFailed',
      `Discovery failed for some groups, ${o.discoveryFailures.length} failing: unable to retrieve the complete list of server APIs: ${[...o.discoveryFailures].sort().join(', ')}`,
    );
  }
  if (o.contentErrors.length > 0) {
    const msgs = [...o.contentErrors].sort();
    failing('NamespaceDeletionContentFailure', 'ContentDeletionFailed', `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`);
  }
  const remaining = counted(o.remaining, (r, n) => `${r} has ${n} resource instances`);
  if (remaining.length > 0) failing('NamespaceContentRemaining', 'SomeResourcesRemain', `Some resources are remaining: ${remaining.join(', ')}`);
  const finalizers = counted(o.finalizers, (f, n) => `${f} in ${n} resource instances`);
  if (finalizers.length > 0) {
    failing('NamespaceFinalizersRemaining', 'SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}`);
  }
  for (const type of CONDITION_TYPES) if (!out.has(type)) out.set(type, { type, status: 'False', ...OK[type] });
  return out;
}

/** Non-zero counts, formatted and sorted (kube sorts for stable updates). */
function counted(counts: ReadonlyMap<string, number>, format: (key: string, n: number) => string): string[] {
  return [...counts]
    .filter(([, n]) => n > 0)
    .map(([k, n]) => format(k, n))
    .sort();
}

/**
 * updateConditions: each owned type is added when missing, or changed in place when its
 * status, reason or message differs (lastTransitionTime moves only when the status does).
 * Returns the new list, or undefined when nothing changed.
 */
export function mergeConditions(
  current: readonly NamespaceCondition[],
  next: ReadonlyMap<NamespaceConditionType, Omit<NamespaceCondition, 'lastTransitionTime'>>,
  now: string,
): NamespaceCondition[] | undefined {
  const conditions = current.map((c) => ({ ...c }));
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const want = next.get(type);
    if (want === undefined) continue;
    const have = conditions.find((c) => c.type === type);
    if (have === undefined) {
      conditions.push({ type, status: want.status, lastTransitionTime: now, reason: want.reason, message: want.message } as NamespaceCondition);
      changed = true;
    } else if (have.status !== want.status || have.reason !== want.reason || have.message !== want.message) {
      if (have.status !== want.status) have.lastTransitionTime = now;
      Object.assign(have, { status: want.status, reason: want.reason, message: want.message });
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}
