import { semanticDeepEqual } from '../../apimachinery/serializer/semantic.js';
import type { KubeObject } from '../../registry/rest.js';

/** The metadata fields the garbage collector writes (ownerReferences, finalizers), and the legacy selfLink. */
const GC_FIELDS = ['ownerReferences', 'finalizers', 'selfLink'] as const;

/**
 * kube's IsOnlyMutatingGCFields (pkg/registry/rbac/helpers.go): true when `obj` differs from
 * `old` in nothing but the fields the garbage collector writes (compared semantically: an absent
 * list equals an empty one), so the GC may drop a finalizer or an owner of a role or binding
 * without holding the permissions it grants. False when there is no old object (a create
 * through PUT).
 */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (old === undefined) return false;
  const oldMeta = old.metadata ?? {};
  const meta: Record<string, unknown> = { ...obj.metadata };
  for (const f of GC_FIELDS) meta[f] = oldMeta[f];
  return semanticDeepEqual({ ...obj, metadata: meta }, old);
}
