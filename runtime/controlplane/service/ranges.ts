import type { NetworkAllocators } from '../../registry/allocator/types.js';
import { parseCIDR, type CIDR, type IPFamily } from '../../registry/allocator/cidr.js';
import { DEFAULT_NODE_PORT_RANGE, IPRangeAllocator, PortRangeAllocator, type PortRange } from '../../registry/allocator/range.js';
import type { StorageFactory } from '../../storage/index.js';

/** kube-apiserver's default --service-cluster-ip-range. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';

/** Where each family's allocation bitmap is kept (kube's /ranges/serviceips and /ranges/secondaryserviceips); node ports: /ranges/servicenodeports. */
const KEYS = ['/ranges/serviceips', '/ranges/secondaryserviceips'] as const;

/**
 * Parses --service-cluster-ip-range: one CIDR, or two of different families (dual-stack), each
 * with at most 2^20 addresses (kube's limit, so the bitmap stays small). Returns the problem
 * as kube words it, or the CIDRs.
 */
export function parseServiceClusterIPRange(value: string): CIDR[] | string {
  const parts = value.split(',').map((s) => s.trim());
  if (parts.length > 2) return '--service-cluster-ip-range must not contain more than two entries';
  const cidrs: CIDR[] = [];
  for (const part of parts) {
    const cidr = parseCIDR(part);
    if (cidr === undefined) return `--service-cluster-ip-range: invalid CIDR address: ${part}`;
    if (cidr.bits - cidr.prefixLength > 20) {
      return `specified --service-cluster-ip-range is too large; for ${cidr.bits}-bit addresses, the mask must be >= ${cidr.bits - 20}`;
    }
    cidrs.push(cidr);
  }
  if (cidrs.length === 2 && cidrs[0]?.family === cidrs[1]?.family) {
    return '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family';
  }
  return cidrs;
}

/**
 * Parses --service-node-port-range (`30000-32767`, or one port) as kube's net.ParsePortRange;
 * returns the problem in kube's words, or the range.
 */
export function parseServiceNodePortRange(value: string): PortRange | string {
  const m = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  const base = Number(m?.[1]);
  const last = m?.[2] === undefined ? base : Number(m[2]);
  if (m === null || base > 65535 || last > 65535 || last < base) return `invalid argument "${value}" for "--service-node-port-range" flag: couldn't parse port range "${value}"`;
  return { base, size: last - base + 1 };
}

/**
 * The allocators of the cluster's service ranges and node port range, over storage without a
 * watch cache (each allocation reads the latest bitmap).
 */
export async function newServiceAllocators(factory: StorageFactory, o: { ipRanges: readonly CIDR[]; nodePorts?: PortRange }): Promise<NetworkAllocators> {
  const storage = await factory.forResource({ resourcePrefix: '/ranges/', watchCache: false });
  const byFamily = new Map<IPFamily, IPRangeAllocator>();
  o.ipRanges.forEach((cidr, i) => byFamily.set(cidr.family, new IPRangeAllocator({ cidr, storage, key: KEYS[i] as string })));
  return {
    ipRanges: { primary: (o.ipRanges[0] as CIDR).family, byFamily },
    portRange: new PortRangeAllocator({ range: o.nodePorts ?? DEFAULT_NODE_PORT_RANGE, storage, key: '/ranges/servicenodeports' }),
  };
}
