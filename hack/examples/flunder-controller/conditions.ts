// The status the controller wants for a Flunder, as pure functions of the Flunder and what the
// listers hold, and kube's rule for merging conditions (meta.SetStatusCondition): a condition
// keeps its lastTransitionTime while its status does not change.
import type { Condition } from '../../../apis/meta/v1/types.js';
import type { Fischer, Flunder } from '../../../apis/wardle/v1alpha1/types.js';
import type { DeepReadonly } from '../../../runtime/client/index.js';

export const REFERENCE_RESOLVED = 'ReferenceResolved';
export const ALLOWED = 'Allowed';

/** What the conditions are computed from: the listers' answers, nothing fetched. */
export interface World {
  flunderExists(namespace: string, name: string): boolean;
  fischerExists(name: string): boolean;
  /** Names of the Fischers whose disallowedFlunders lists `flunderName`, sorted. */
  fischersDisallowing(flunderName: string): readonly string[];
}

type DesiredCondition = Omit<Condition, 'lastTransitionTime' | 'observedGeneration'>;

/** ReferenceResolved: the referent exists (True with nothing referenced). */
export function referenceResolved(f: DeepReadonly<Flunder>, world: World): DesiredCondition {
  const ref = f.spec?.reference;
  if (ref === undefined || ref === '') {
    return { type: REFERENCE_RESOLVED, status: 'True', reason: 'NoReference', message: 'the Flunder refers to nothing' };
  }
  if (f.spec?.referenceType === 'Fischer') {
    return world.fischerExists(ref)
      ? { type: REFERENCE_RESOLVED, status: 'True', reason: 'FischerFound', message: `fischer ${ref} exists` }
      : { type: REFERENCE_RESOLVED, status: 'False', reason: 'FischerNotFound', message: `fischer ${ref} does not exist` };
  }
  const ns = f.metadata?.namespace ?? '';
  return world.flunderExists(ns, ref)
    ? { type: REFERENCE_RESOLVED, status: 'True', reason: 'FlunderFound', message: `flunder ${ns}/${ref} exists` }
    : { type: REFERENCE_RESOLVED, status: 'False', reason: 'FlunderNotFound', message: `flunder ${ns}/${ref} does not exist` };
}

/** Allowed: no Fischer bans the Flunder's name (BanFlunder only refuses creates; this reports bans made later). */
export function allowed(f: DeepReadonly<Flunder>, world: World): DesiredCondition {
  const by = world.fischersDisallowing(f.metadata?.name ?? '');
  return by.length === 0
    ? { type: ALLOWED, status: 'True', reason: 'NotDisallowed', message: 'no fischer disallows this flunder' }
    : { type: ALLOWED, status: 'False', reason: 'DisallowedByFischer', message: `disallowed by fischer ${by.join(', ')}` };
}

/**
 * The conditions after setting `desired` on `current` (meta.SetStatusCondition): an existing
 * condition of the type keeps its lastTransitionTime unless its status changes. Conditions of
 * other types are kept. The result is sorted by type, so equal states compare equal.
 */
export function setConditions(current: readonly DeepReadonly<Condition>[] | undefined, desired: readonly DesiredCondition[], generation: number | undefined, now: string): Condition[] {
  const byType = new Map<string, Condition>((current ?? []).map((c) => [c.type, { ...c }]));
  for (const d of desired) {
    const old = byType.get(d.type);
    const lastTransitionTime = old !== undefined && old.status === d.status ? old.lastTransitionTime : now;
    byType.set(d.type, { ...d, lastTransitionTime, ...(generation === undefined ? {} : { observedGeneration: generation }) });
  }
  return [...byType.values()].sort((a, b) => a.type.localeCompare(b.type));
}

/** Conditions equal field by field (the order of a sorted list included). */
export function sameConditions(a: readonly DeepReadonly<Condition>[] | undefined, b: readonly Condition[]): boolean {
  const x = [...(a ?? [])].sort((p, q) => p.type.localeCompare(q.type));
  if (x.length !== b.length) return false;
  const keys: (keyof Condition)[] = ['type', 'status', 'reason', 'message', 'lastTransitionTime', 'observedGeneration'];
  return x.every((c, i) => keys.every((k) => c[k] === b[i]?.[k]));
}

/** metav1.Time: RFC 3339 in seconds. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export type { Fischer, Flunder };
