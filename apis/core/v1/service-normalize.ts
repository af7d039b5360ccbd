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

const needsNodePort = (svc: Service): boolean => svc.spec?.type === 'NodePort' || svc.spec?.type === 'LoadBalancer';
const needsHealthCheckNodePort = (svc: Service): boolean => svc.spec?.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';

/**
 * patchAllocatedValues: a client that left allocated values out of an update keeps them: the
 * cluster IPs, each port's node port (matched by port name, unless another port uses it now),
 * the health check node port.
 */
export function patchAllocatedValues(svc: Service, old: Service): void {
  const spec = (svc.spec ??= {});
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if ((spec.clusterIP ?? '') === '' && old.spec?.clusterIP !== undefined) spec.clusterIP = old.spec.clusterIP;
    if ((spec.clusterIPs ?? []).length === 0 && (old.spec?.clusterIPs ?? []).length > 0) spec.clusterIPs = [...(old.spec?.clusterIPs ?? [])];
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const used = (s: Service): Set<number> => new Set((s.spec?.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p !== 0));
    const newUsed = used(svc);
    const inBoth = new Set([...used(old)].filter((p) => newUsed.has(p)));
    const byName = new Map((old.spec?.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const p of spec.ports ?? []) {
      if ((p.nodePort ?? 0) !== 0) continue;
      const previous = byName.get(p.name ?? '') ?? 0;
      if (previous !== 0 && !inBoth.has(previous)) p.nodePort = previous;
    }
  }
  if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(svc) && (spec.healthCheckNodePort ?? 0) === 0 && old.spec?.healthCheckNodePort !== undefined) {
    spec.healthCheckNodePort = old.spec.healthCheckNodePort;
  }
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
