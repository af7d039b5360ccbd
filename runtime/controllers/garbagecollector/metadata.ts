import type { ObjectMeta, OwnerReference } from '../../../apis/meta/v1/types.js';
import type { KubeObject } from '../../registry/rest.js';

/**
 * What the garbage collector keeps of an object (kube's metadata-only informers): enough to
 * build the owner graph and notice deletions, nothing of spec or status.
 */
export interface ObjectMetadata {
  readonly metadata: Pick<ObjectMeta, 'name' | 'namespace' | 'uid' | 'resourceVersion' | 'ownerReferences' | 'finalizers' | 'deletionTimestamp'>;
}

/**
 * The metadata-only view of a stored object, decoded once: storage types the fields it
 * does not read as unknown, and ownerReferences or finalizers of another shape count as none.
 */
export function metadataOf(obj: KubeObject): ObjectMetadata {
  const m = obj.metadata ?? {};
  const ownerReferences = ownerReferencesIn(m['ownerReferences']);
  const finalizers = Array.isArray(m['finalizers']) ? m['finalizers'].filter((f): f is string => typeof f === 'string') : undefined;
  const deletionTimestamp = typeof m['deletionTimestamp'] === 'string' ? m['deletionTimestamp'] : undefined;
  return {
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      ...(ownerReferences !== undefined ? { ownerReferences } : {}),
      ...(finalizers !== undefined ? { finalizers } : {}),
      ...(deletionTimestamp !== undefined ? { deletionTimestamp } : {}),
    },
  };
}

function ownerReferencesIn(v: unknown): OwnerReference[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter((r): r is OwnerReference => {
    if (typeof r !== 'object' || r === null) return false;
    const o = r as Record<string, unknown>;
    return typeof o['apiVersion'] === 'string' && typeof o['kind'] === 'string' && typeof o['name'] === 'string' && typeof o['uid'] === 'string';
  });
}
