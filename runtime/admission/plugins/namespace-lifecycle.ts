import { newForbidden, newNotFound } from '../../apimachinery/errors/index.js';
import type { AdmissionContext, Attributes, ObjectLookup, Operation, ValidationInterface } from '../types.js';

/** Namespaces the API refuses to delete. */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

const NAMESPACES = { group: '', resource: 'namespaces' } as const;

/**
 * NamespaceLifecycle: content may only be written into a namespace that exists, nothing new
 * may be created in a namespace that is terminating, and the system namespaces cannot be deleted.
 */
export function namespaceLifecycle(lookup: ObjectLookup): ValidationInterface {
  return {
    name: 'NamespaceLifecycle',
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    async validate(a: Attributes, ctx: AdmissionContext): Promise<void> {
      const isNamespace = a.group === '' && a.kind === 'Namespace';
      if (isNamespace) {
        if (a.operation === 'DELETE' && IMMORTAL_NAMESPACES.has(a.name)) throw newForbidden(NAMESPACES, a.name, 'this namespace may not be deleted');
        return;
      }
      if (a.namespace === '' || a.operation === 'DELETE') return;
      const namespace = await lookup.get(NAMESPACES, '', a.namespace, ctx);
      if (namespace === undefined) throw newNotFound(NAMESPACES, a.namespace);
      const phase = (namespace.status as { phase?: string } | undefined)?.phase;
      if (a.operation === 'CREATE' && phase === 'Terminating') {
        const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
        throw newForbidden({ group: a.group, resource: a.resource }, a.name, message, [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }]);
      }
    },
  };
}
