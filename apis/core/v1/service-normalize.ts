import type { Service } from './types.js';

/**
 * How kube's Service storage reads a client's cluster IP fields before allocating
 * (normalizeClusterIPs and patchAllocatedValues of pkg/registry/core/service/storage): old
 * clients set only clusterIP, and a PUT without the allocated values keeps them. Idempotent,
 * so the strategy applies them too, for installs without allocation. Mutate the Service.
 */

/** Whether a Service of this type holds cluster IPs (every type but ExternalName). */
export function needsClusterIP(svc: Service): boolean {
  return svc.spec?.type !== 'ExternalName';
}

/** patchAllocatedValues: a client that left clusterIP(s) out of an update keeps the allocated ones. */
export function patchAllocatedValues(svc: Service, old: Service): void {
  if (!needsClusterIP(old) || !needsClusterIP(svc)) return;
  const spec = (svc.spec ??= {});
  if ((spec.clusterIP ?? '') === '' && old.spec?.clusterIP !== undefined) spec.clusterIP = old.spec.clusterIP;
  if ((spec.clusterIPs ?? []).length === 0 && (old.spec?.clusterIPs ?? []).length > 0) spec.clusterIPs = [...(old.spec?.clusterIPs ?? [])];
}

export const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** normalizeClusterIPs: keeps clusterIP and clusterIPs in step for clients that set only one of them. */
export function normalizeClusterIPs(svc: Service, old: Service | undefined): void {
  const spec = (svc.spec ??= {});
  const clusterIP = spec.clusterIP ?? '';
  if (old === undefined) {
    if (clusterIP !== '' && (spec.clusterIPs ?? []).length === 0) spec.clusterIPs = [clusterIP];
    return;
  }
  const oldSpec = old.spec ?? {};
  const oldIPs = oldSpec.clusterIPs ?? [];
  if (oldIPs.length > 0 && (spec.clusterIPs ?? []).length === 0 && (oldSpec.clusterIP ?? '') === clusterIP) spec.clusterIPs = [...oldIPs];
  if ((oldSpec.clusterIP ?? '') !== clusterIP) {
    if ((oldSpec.clusterIP ?? '') !== '' && clusterIP === '' && sameList(oldIPs, spec.clusterIPs)) delete spec.clusterIPs;
    const ips = spec.clusterIPs ?? [];
    if (oldIPs.length > 0 && clusterIP !== '' && sameList(oldIPs, ips)) spec.clusterIPs = [clusterIP, ...ips.slice(1)];
  }
}

