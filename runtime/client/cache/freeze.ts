import type { DeepReadonly } from '../types.js';

/**
 * Freezes `obj` and everything reachable from it, in place, and returns it
 * typed as read-only. Cached objects are shared by every handler and lister,
 * so a mutation anywhere would silently corrupt what all of them see; frozen,
 * the mutation throws at its source instead (ES modules are strict).
 *
 * An object that is already frozen is taken as deeply frozen (it was frozen
 * here before, or by a producer that knows what it is doing): this keeps a
 * second pass over a cached object free and makes cycles harmless.
 */
export function deepFreeze<T>(obj: T): DeepReadonly<T> {
  const pending: object[] = [];
  if (typeof obj === 'object' && obj !== null && !Object.isFrozen(obj)) pending.push(obj);
  while (pending.length > 0) {
    const o = Object.freeze(pending.pop() as Record<string, unknown>);
    for (const key of Object.keys(o)) {
      const v = o[key];
      if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) pending.push(v);
    }
  }
  return obj as DeepReadonly<T>;
}
