import type { RangeAllocator } from '../../registry/allocator/range.js';
import type { NetworkAllocators } from '../../registry/allocator/types.js';
import type { RequestContext } from '../../registry/rest.js';

/** Rounds an allocated IP must be seen without a Service before it is released (kube's numRepairsBeforeLeakCleanup). */
const ROUNDS_BEFORE_LEAK_CLEANUP = 3;

/** What the repair reads of the Services' REST storage (the control plane's ServiceStorage is one). */
export interface ServiceAllocationsInUse {
  inUse(ctx: RequestContext): Promise<{ ips: string[]; ports: number[] }>;
}

export interface ServiceIPRepairOptions {
  readonly services: ServiceAllocationsInUse;
  readonly allocators: NetworkAllocators;
  readonly context: (namespace: string, parent: { readonly signal: AbortSignal }) => RequestContext;
  /** kube's repair runs every 3 minutes. */
  readonly intervalMs?: number;
}

/**
 * The cluster IP and node port repair controllers (pkg/registry/core/service/{ipallocator,
 * portallocator}/controller/repair.go): every IP and port a stored Service holds is marked
 * allocated (a range restored from an older backup, or written before allocation existed,
 * catches up), and one allocated without a Service for several rounds in a row (a write that
 * failed after allocating, a Service removed by its last finalizer) is released.
 */
export class ServiceIPRepair {
  private readonly leaks = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();

  constructor(private readonly opts: ServiceIPRepairOptions) {}

  /** One round; resolves when the ranges agree with the Services as listed. */
  async runOnce(): Promise<void> {
    const inUse = await this.opts.services.inUse(this.opts.context('', this.stopping));
    const seen = new Set<string>();
    for (const range of this.opts.allocators.ipRanges.byFamily.values()) await this.repairRange(range, inUse.ips, seen, 'ip');
    await this.repairRange(this.opts.allocators.portRange, inUse.ports, seen, 'port');
    for (const key of this.leaks.keys()) if (!seen.has(key)) this.leaks.delete(key);
  }

  private async repairRange<T>(range: RangeAllocator<T>, used: readonly T[], seen: Set<string>, kind: string): Promise<void> {
    const inUse = new Set(used);
    const leaked: T[] = [];
    for (const item of await range.allocated()) {
      if (inUse.has(item)) continue;
      const key = `${kind}/${String(item)}`;
      seen.add(key);
      const rounds = (this.leaks.get(key) ?? 0) + 1;
      this.leaks.set(key, rounds);
      if (rounds >= ROUNDS_BEFORE_LEAK_CLEANUP) {
        leaked.push(item);
        this.leaks.delete(key);
      }
    }
    await range.repair(used, leaked);
  }

  /** A first round now (so allocation starts from a repaired range), then periodic ones. */
  async start(): Promise<void> {
    await this.runOnce();
    this.timer = setInterval(() => {
      this.runOnce().catch(() => {});
    }, this.opts.intervalMs ?? 180_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.stopping.abort();
  }
}
