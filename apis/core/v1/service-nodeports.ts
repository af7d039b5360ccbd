import { newInternalError, newInvalid } from '../../../runtime/apimachinery/errors/index.js';
import { RangeAllocationError, type RangeAllocator } from '../../../runtime/registry/allocator/range.js';
import type { Allocation } from '../../../runtime/registry/allocator/types.js';
import type { Service } from './types.js';

/**
 * Node port allocation for Services (kube's alloc.go: initNodePorts, updateNodePorts, the
 * health check node port): NodePort and LoadBalancer Services get a port of the node port
 * range for each service port (ports sharing a number share a node port), requested ones are
 * reserved, and a port a Service stops using is given back once the write is stored.
 */

const GK = { group: '', kind: 'Service' };

function needsNodePort(svc: Service): boolean {
  return svc.spec?.type === 'NodePort' || svc.spec?.type === 'LoadBalancer';
}

/** shouldAllocateNodePorts: always for NodePort; for LoadBalancer unless allocateLoadBalancerNodePorts is false. */
function shouldAllocateNodePorts(svc: Service): boolean {
  if (svc.spec?.type === 'NodePort') return true;
  return svc.spec?.type === 'LoadBalancer' && svc.spec.allocateLoadBalancerNodePorts !== false;
}

/** apiservice.NeedsHealthCheck: a LoadBalancer that keeps traffic on the node. */
function needsHealthCheck(svc: Service): boolean {
  return svc.spec?.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';
}

/** collectServiceNodePorts: every node port and the health check node port. */
export function nodePortsOf(svc: Service): number[] {
  const ports = (svc.spec?.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p !== 0);
  const hc = svc.spec?.healthCheckNodePort ?? 0;
  return hc !== 0 ? [...ports, hc] : ports;
}

/** Allocation for a new Service (txnAllocNodePorts). */
export async function allocateNodePortsCreate(svc: Service, range: RangeAllocator<number>, dryRun: boolean): Promise<Allocation<number>> {
  const taken: number[] = [];
  try {
    if (needsNodePort(svc)) await initNodePorts(svc, range, dryRun, taken);
    if (needsHealthCheck(svc)) await allocHealthCheckNodePort(svc, range, dryRun, taken);
  } catch (err) {
    await releaseAll(range, taken);
    throw err;
  }
  return { taken, released: [] };
}

/** Allocation for an update (txnUpdateNodePorts): type changes release, new ports are taken, dropped ones released. */
export async function allocateNodePortsUpdate(svc: Service, old: Service, range: RangeAllocator<number>, dryRun: boolean): Promise<Allocation<number>> {
  const taken: number[] = [];
  const released: number[] = [];
  const type = svc.spec?.type ?? 'ClusterIP';
  try {
    if (needsNodePort(old) && (type === 'ExternalName' || type === 'ClusterIP')) released.push(...(old.spec?.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p !== 0));
    if (needsNodePort(svc)) await updateNodePorts(svc, old, range, dryRun, taken, released);
    const hadHC = needsHealthCheck(old);
    const needsHC = needsHealthCheck(svc);
    if (!hadHC && needsHC) await allocHealthCheckNodePort(svc, range, dryRun, taken);
    else if (hadHC && !needsHC && (old.spec?.healthCheckNodePort ?? 0) !== 0) released.push(old.spec?.healthCheckNodePort as number);
  } catch (err) {
    await releaseAll(range, taken);
    throw err;
  }
  return { taken, released };
}

async function initNodePorts(svc: Service, range: RangeAllocator<number>, dryRun: boolean, taken: number[]): Promise<void> {
  const ports = svc.spec?.ports ?? [];
  const byServicePort = new Map<number, number>();
  for (const [i, p] of ports.entries()) {
    if ((p.nodePort ?? 0) === 0 && !shouldAllocateNodePorts(svc)) continue;
    const shared = byServicePort.get(p.port);
    if (shared === undefined) {
      const requested = ports.find((q) => q.port === p.port && (q.nodePort ?? 0) !== 0)?.nodePort ?? 0;
      const np = requested !== 0 ? await allocatePort(svc, range, requested, `spec.ports[${i}].nodePort`, dryRun) : await allocateNextPort(range, dryRun);
      if (!dryRun) taken.push(np);
      p.nodePort = np;
      byServicePort.set(p.port, np);
    } else if ((p.nodePort ?? 0) !== shared) {
      if ((p.nodePort ?? 0) === 0) {
        p.nodePort = shared;
      } else {
        await allocatePort(svc, range, p.nodePort as number, `spec.ports[${i}].nodePort`, dryRun);
        if (!dryRun) taken.push(p.nodePort as number);
      }
    }
  }
}

async function updateNodePorts(svc: Service, old: Service, range: RangeAllocator<number>, dryRun: boolean, taken: number[], released: number[]): Promise<void> {
  const oldNumbers = nodePortsOf(old);
  const allocatedNow = new Set<number>();
  for (const [i, p] of (svc.spec?.ports ?? []).entries()) {
    const np = p.nodePort ?? 0;
    if (np === 0 && !shouldAllocateNodePorts(svc)) continue;
    if (np !== 0) {
      if (!oldNumbers.includes(np) && !allocatedNow.has(np)) {
        await allocatePort(svc, range, np, `spec.ports[${i}].nodePort`, dryRun);
        if (!dryRun) taken.push(np);
        allocatedNow.add(np);
      }
    } else {
      p.nodePort = await allocateNextPort(range, dryRun);
      if (!dryRun) taken.push(p.nodePort);
    }
  }
  const newNumbers = nodePortsOf(svc);
  for (const np of oldNumbers) if (!newNumbers.includes(np) && np !== (old.spec?.healthCheckNodePort ?? 0)) released.push(np);
}

async function allocHealthCheckNodePort(svc: Service, range: RangeAllocator<number>, dryRun: boolean, taken: number[]): Promise<void> {
  const spec = svc.spec ?? {};
  const requested = spec.healthCheckNodePort ?? 0;
  if (requested !== 0) {
    try {
      await range.allocate(requested, { dryRun });
    } catch (err) {
      throw newInternalError(new Error(`failed to allocate requested HealthCheck NodePort ${requested}: ${(err as Error).message}`));
    }
    if (!dryRun) taken.push(requested);
    return;
  }
  try {
    spec.healthCheckNodePort = await range.allocateNext({ dryRun });
  } catch (err) {
    throw newInternalError(new Error(`failed to allocate a HealthCheck NodePort 0: ${(err as Error).message}`));
  }
  if (!dryRun) taken.push(spec.healthCheckNodePort);
}

/** A requested node port; a taken or out-of-range one is a 422 on the port's field. */
async function allocatePort(svc: Service, range: RangeAllocator<number>, port: number, field: string, dryRun: boolean): Promise<number> {
  try {
    await range.allocate(port, { dryRun });
    return port;
  } catch (err) {
    if (!(err instanceof RangeAllocationError)) throw err;
    throw newInvalid(GK, svc.metadata?.name ?? '', [{ type: 'FieldValueInvalid', field, badValue: port, detail: err.message }]);
  }
}

async function allocateNextPort(range: RangeAllocator<number>, dryRun: boolean): Promise<number> {
  try {
    return await range.allocateNext({ dryRun });
  } catch (err) {
    throw newInternalError(new Error(`failed to allocate a nodePort: ${(err as Error).message}`));
  }
}

/** Releases ports; errors are the caller's. */
export async function releaseAll(range: RangeAllocator<number>, ports: readonly number[]): Promise<void> {
  for (const p of ports) await range.release(p);
}
