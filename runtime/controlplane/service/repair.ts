import type { IPRanges } from '../../registry/allocator/types.js';
import type { RequestContext } from '../../registry/rest.js';
import type { ServiceStorage } from './rest.js';

/** Rounds an allocated IP must be seen without a Service before it is released (kube's numRepairsBeforeLeakCleanup). */
const ROUNDS_BEFORE_LEAK_CLEANUP = 3;

export interface ServiceIPRepairOptions {
  readonly services: ServiceStorage;
  readonly ranges: IPRanges;
  readonly context: (namespace: string, parent: { readonly signal: AbortSignal }) => RequestContext;
  /** kube's repair runs every 3 minutes. */
  readonly intervalMs?: number;
}

/**
 * The cluster IP repair controller (pkg/registry/core/service/ipallocator/controller/repair.go):
 * every IP a stored Service holds is marked allocated (a range restored from an older backup,
 * or written before allocation existed, catches up), and an IP allocated without a Service for
 * several rounds in a row (a write that failed after allocating, a Service removed by its last
 * finalizer) is released.
 */
export class ServiceIPRepair {
  private readonly leaks = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();

  constructor(private readonly opts: ServiceIPRepairOptions) {}

  /** One round; resolves when the ranges agree with the Services as listed. */
  async runOnce(): Promise<void> {
    const inUse = new Set(await this.opts.services.ipsInUse(this.opts.context('', this.stopping)));
    const seen = new Set<string>();
    for (const range of this.opts.ranges.byFamily.values()) {
      const leaked: string[] = [];
      for (const ip of await range.allocated()) {
        if (inUse.has(ip)) continue;
        seen.add(ip);
        const rounds = (this.leaks.get(ip) ?? 0) + 1;
        this.leaks.set(ip, rounds);
        if (rounds >= ROUNDS_BEFORE_LEAK_CLEANUP) leaked.push(ip);
      }
      await range.repair([...inUse], leaked);
      for (const ip of leaked) this.leaks.delete(ip);
    }
    for (const ip of this.leaks.keys()) if (!seen.has(ip)) this.leaks.delete(ip);
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
