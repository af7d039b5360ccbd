import { isAlreadyExists } from '../../apimachinery/errors/index.js';
import type { Creater, RequestContext } from '../../registry/rest.js';

/** The namespaces every cluster has: `default` (bootstrap controller) and the system ones. */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/**
 * Creates the system namespaces that are missing (the bootstrap and system-namespaces
 * controllers). Idempotent: run at start and periodically, so a namespace deleted behind the
 * API's back comes back.
 */
export async function ensureSystemNamespaces(namespaces: Creater, ctx: RequestContext): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    try {
      await namespaces.create(ctx, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, async () => {}, { dryRun: false, fieldManager: 'kube-apiserver' });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
}
