import { newForbidden, newNotFound } from '../../apimachinery/errors/index.js';
import type { AdmissionContext, Attributes, MutationInterface, ObjectLookup, Operation } from '../types.js';

/** Namespaces the API refuses to delete. */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

const NAMESPACES = { group: '', resource: 'namespaces' } as const;

/**
 * How long after a namespace's deletion passed this plugin its cached copy is not trusted
 * (kube's forceLiveLookupTTL): the watch cache may still show it Active for a moment.
 */
const FORCE_LIVE_LOOKUP_TTL_MS = 30_000;

/**
 * NamespaceLifecycle: content may only be written into a namespace that exists, nothing new
 * may be created in a namespace that is terminating, and the system namespaces cannot be deleted.
 * As kube's plugin, it reads the namespace from the cache (so writes into a namespace do not
 * wait on, or fail with, a storage round trip) and reads it live only when the cache does not
 * have it or it was deleted moments ago. It is a mutating plugin that mutates nothing (kube's
 * Admit): it refuses before the object is validated, so a write into a missing namespace is
 * its 404 whatever else is wrong with it. `now` is injectable for tests.
 */
export function namespaceLifecycle(lookup: ObjectLookup, now: () => number = Date.now): MutationInterface {
  const recentlyDeleted = new Map<string, number>();
  const liveLookupForced = (name: string): boolean => {
    const until = recentlyDeleted.get(name);
    if (until === undefined) return false;
    if (until > now()) return true;
    recentlyDeleted.delete(name);
    return false;
  };
  // One TTL for all, so insertion order is expiry order: the expired entries are the oldest.
  const forgetExpired = (): void => {
    for (const [name, until] of recentlyDeleted) {
      if (until > now()) return;
      recentlyDeleted.delete(name);
    }
  };
  const namespaceOf = async (name: string, ctx: AdmissionContext) => {
    const cached = liveLookupForced(name) ? undefined : await lookup.getCached(NAMESPACES, '', name, ctx);
    return cached ?? (await lookup.get(NAMESPACES, '', name, ctx));
  };
  return {
    name: 'NamespaceLifecycle',
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    async admit(a: Attributes, ctx: AdmissionContext): Promise<void> {
      const isNamespace = a.group === '' && a.kind === 'Namespace';
      if (isNamespace) {
        if (a.operation === 'DELETE') {
          if (IMMORTAL_NAMESPACES.has(a.name)) throw newForbidden(NAMESPACES, a.name, 'this namespace may not be deleted');
          forgetExpired();
          recentlyDeleted.delete(a.name);
          recentlyDeleted.set(a.name, now() + FORCE_LIVE_LOOKUP_TTL_MS);
        }
        return;
      }
      if (a.namespace === '' || a.operation === 'DELETE') return;
      // Access reviews are always answered: refusing one would tell whether the namespace exists.
      if (a.group === 'authorization.k8s.io' && a.resource === 'localsubjectaccessreviews') return;
      const namespace = await namespaceOf(a.namespace, ctx);
      if (namespace === undefined) throw newNotFound(NAMESPACES, a.namespace);
      const phase = (namespace.status as { phase?: string } | undefined)?.phase;
      if (a.operation === 'CREATE' && phase === 'Terminating') {
        const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
        const cause = { reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' };
        throw newForbidden({ group: a.group, resource: a.resource }, forbiddenName(a), message, [cause]);
      }
    },
  };
}

/**
 * The name admission.NewForbidden puts in its message (extractResourceName): the request's, else
 * the object's name or generateName (a create before its name is generated), else "Unknown".
 */
function forbiddenName(a: Attributes): string {
  if (a.name !== '') return a.name;
  const meta = a.object?.metadata;
  if (typeof meta?.name === 'string' && meta.name !== '') return meta.name;
  if (typeof meta?.generateName === 'string' && meta.generateName !== '') return meta.generateName;
  return 'Unknown';
}
