import { randomInt } from 'node:crypto';
import type { Interface as StorageInterface } from '../../storage/index.js';
import { cidrContains, formatIP, parseIP, type CIDR } from './cidr.js';
import { RangeAllocationError, rangeOffset, StoredBitmap } from './stored.js';

export { RangeAllocationError };

/** How the items of a range map to bitmap positions, and kube's words for them. */
interface RangeSpec<T> {
  /** The range's text as stored and shown (`10.0.0.0/24`, `30000-32767`). */
  readonly text: string;
  readonly max: number;
  /** Dynamic allocation prefers positions at or above this. */
  readonly offset: number;
  indexOf(item: T): number | undefined;
  itemAt(i: number): T;
  readonly allocated: string;
  notInRange(item: T): string;
  readonly mismatch: string;
}

export interface RangeAllocatorOptions {
  /** A storage without watch cache (reads must see the latest bitmap), and the key of the range in it. */
  readonly storage: StorageInterface;
  readonly key: string;
  /** Source of randomness for the scan start (default: crypto). */
  readonly random?: (below: number) => number;
}

/**
 * Items of a range handed out one by one (kube's ipallocator.Range and portallocator over the
 * etcd-backed allocator), over a StoredBitmap: several API servers sharing the storage never
 * hand out one item twice, and allocations survive restarts.
 */
export class RangeAllocator<T> {
  private readonly random: (below: number) => number;
  private readonly bitmap: StoredBitmap;

  constructor(
    private readonly spec: RangeSpec<T>,
    opts: RangeAllocatorOptions,
  ) {
    this.random = opts.random ?? ((below) => randomInt(below));
    this.bitmap = new StoredBitmap(opts.storage, opts.key, spec.text, spec.max, spec.mismatch);
  }

  /** Reserves a given item; `dryRun` only checks that it could be. */
  async allocate(item: T, opts: { dryRun: boolean }): Promise<void> {
    const i = this.spec.indexOf(item);
    if (i === undefined) throw new RangeAllocationError('NotInRange', this.spec.notInRange(item));
    await this.bitmap.change(opts.dryRun, (bitmap) => {
      if (bitmap.has(i)) throw new RangeAllocationError('Allocated', this.spec.allocated);
      bitmap.set(i);
    });
  }

  /** Reserves some free item; `dryRun` only finds one. */
  async allocateNext(opts: { dryRun: boolean }): Promise<T> {
    let found = 0;
    await this.bitmap.change(opts.dryRun, (bitmap) => {
      const i = bitmap.findFree(this.spec.offset, this.random);
      if (i === undefined) throw new RangeAllocationError('Full', 'range is full');
      bitmap.set(i);
      found = i;
    });
    return this.spec.itemAt(found);
  }

  /** Frees an item; one outside the range or not allocated is ignored (kube's Release). */
  async release(item: T): Promise<void> {
    const i = this.spec.indexOf(item);
    if (i === undefined) return;
    await this.bitmap.change(false, (bitmap) => {
      if (!bitmap.has(i)) return false;
      bitmap.clear(i);
      return true;
    });
  }

  /** Whether the item is allocated now. */
  async has(item: T): Promise<boolean> {
    const i = this.spec.indexOf(item);
    return i !== undefined && (await this.bitmap.read()).has(i);
  }

  /**
   * Repair (kube's repair controllers): marks every item of `inUse` that lies in the range as
   * allocated, and frees `leaked` ones. Returns how many were marked.
   */
  async repair(inUse: readonly T[], leaked: readonly T[] = []): Promise<number> {
    let marked = 0;
    await this.bitmap.change(false, (bitmap) => {
      marked = 0;
      for (const item of inUse) {
        const i = this.spec.indexOf(item);
        if (i !== undefined && !bitmap.has(i)) {
          bitmap.set(i);
          marked++;
        }
      }
      for (const item of leaked) {
        const i = this.spec.indexOf(item);
        if (i !== undefined) bitmap.clear(i);
      }
      return marked > 0 || leaked.length > 0;
    });
    return marked;
  }

  /** Every allocated item. */
  async allocated(): Promise<T[]> {
    const bitmap = await this.bitmap.read();
    const out: T[] = [];
    for (let i = 0; i < this.spec.max; i++) if (bitmap.has(i)) out.push(this.spec.itemAt(i));
    return out;
  }
}

/**
 * The IPs of a CIDR (kube's ipallocator.Range): the network address, and for IPv4 the
 * broadcast address, are never handed out; IPv6 ranges are capped at 65536 addresses; dynamic
 * allocation prefers the upper band (kube's offset: min(max(16, size/16), 256)).
 */
export class IPRangeAllocator extends RangeAllocator<string> {
  readonly cidr: CIDR;
  private readonly base: bigint;

  constructor(opts: RangeAllocatorOptions & { readonly cidr: CIDR }) {
    const cidr = opts.cidr;
    const size = 2n ** BigInt(cidr.bits - cidr.prefixLength);
    let max = cidr.family === 'IPv6' ? (size > 65536n ? 65536n : size) : size - 1n;
    max -= 1n;
    const count = Number(max < 0n ? 0n : max);
    const base = cidr.base + 1n;
    super(
      {
        text: cidr.text,
        max: count,
        offset: rangeOffset(size, 16n, 256n),
        indexOf: (ip) => {
          const parsed = parseIP(ip);
          if (parsed === undefined || !cidrContains(cidr, parsed)) return undefined;
          const i = parsed.value - base;
          return i >= 0n && i < BigInt(count) ? Number(i) : undefined;
        },
        itemAt: (i) => formatIP(base + BigInt(i), cidr.family),
        allocated: 'provided IP is already allocated',
        notInRange: (ip) => `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${cidr.text}`,
        mismatch: 'the provided network does not match the current range',
      },
      opts,
    );
    this.cidr = cidr;
    this.base = base;
  }

  /** The IP of item i of the range: item 0 is the first usable address (the `kubernetes` Service's). */
  ipAt(i: number): string {
    return formatIP(this.base + BigInt(i), this.cidr.family);
  }
}

/** A range of ports, `base` to `base + size - 1` (kube's net.PortRange, shown `30000-32767`). */
export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/** kube's default --service-node-port-range. */
export const DEFAULT_NODE_PORT_RANGE: PortRange = { base: 30000, size: 2768 };

export function formatPortRange(r: PortRange): string {
  return `${r.base}-${r.base + r.size - 1}`;
}

/** The ports of a range (kube's portallocator): dynamic allocation prefers ports above min(max(16, size/32), 128). */
export class PortRangeAllocator extends RangeAllocator<number> {
  constructor(opts: RangeAllocatorOptions & { readonly range: PortRange }) {
    const r = opts.range;
    const text = formatPortRange(r);
    super(
      {
        text,
        max: r.size,
        offset: rangeOffset(BigInt(r.size), 32n, 128n),
        indexOf: (port) => (Number.isInteger(port) && port >= r.base && port < r.base + r.size ? port - r.base : undefined),
        itemAt: (i) => r.base + i,
        allocated: 'provided port is already allocated',
        notInRange: () => `provided port is not in the valid range. The range of valid ports is ${text}`,
        mismatch: 'the provided port range does not match the current port range',
      },
      opts,
    );
  }
}
