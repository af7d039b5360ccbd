import type { AllocationTransaction, NetworkAllocators } from '../../../runtime/registry/allocator/types.js';
import { allocateClusterIPsCreate, allocateClusterIPsUpdate, clusterIPsOf, releaseIPs } from './service-ips.js';
import { allocateNodePortsCreate, allocateNodePortsUpdate, nodePortsOf, releaseAll } from './service-nodeports.js';
import type { Service } from './types.js';

/**
 * What kube's Service storage does around a write (BeginCreate/BeginUpdate and their finish
 * functions, AfterDelete): cluster IPs, then node ports; what was taken is given back when the
 * write fails, what the Service gave up is released once it is stored.
 */

/** allocateCreate: the Service is completed and its IPs and ports taken. Mutates svc. */
export async function allocateCreate(svc: Service, allocs: NetworkAllocators, dryRun: boolean): Promise<AllocationTransaction> {
  const ips = await allocateClusterIPsCreate(svc, allocs.ipRanges, dryRun);
  try {
    const ports = await allocateNodePortsCreate(svc, allocs.portRange, dryRun);
    return transaction(allocs, dryRun, ips, ports);
  } catch (err) {
    if (!dryRun) await releaseIPs(allocs.ipRanges, ips.taken);
    throw err;
  }
}

/** allocateUpdate: allocated values the client left out are kept, then what the change needs is taken. Mutates svc. */
export async function allocateUpdate(svc: Service, old: Service, allocs: NetworkAllocators, dryRun: boolean): Promise<AllocationTransaction> {
  const ips = await allocateClusterIPsUpdate(svc, old, allocs.ipRanges, dryRun);
  try {
    const ports = await allocateNodePortsUpdate(svc, old, allocs.portRange, dryRun);
    return transaction(allocs, dryRun, ips, ports);
  } catch (err) {
    if (!dryRun) await releaseIPs(allocs.ipRanges, ips.taken);
    throw err;
  }
}

/** afterDelete: a deleted Service's IPs and node ports go back to their ranges. */
export async function releaseService(svc: Service, allocs: NetworkAllocators): Promise<void> {
  await releaseIPs(allocs.ipRanges, clusterIPsOf(svc));
  await releaseAll(allocs.portRange, nodePortsOf(svc));
}

function transaction(allocs: NetworkAllocators, dryRun: boolean, ips: { taken: string[]; released: string[] }, ports: { taken: number[]; released: number[] }): AllocationTransaction {
  return {
    commit: async () => {
      if (dryRun) return;
      await releaseIPs(allocs.ipRanges, ips.released);
      await releaseAll(allocs.portRange, ports.released);
    },
    revert: async () => {
      if (dryRun) return;
      await releaseIPs(allocs.ipRanges, ips.taken);
      await releaseAll(allocs.portRange, ports.taken);
    },
  };
}
