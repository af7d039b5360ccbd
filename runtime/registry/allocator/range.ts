import { randomInt } from 'node:crypto';
import type { Interface as StorageInterface, StoredObject } from '../../storage/index.js';
import { AllocationBitmap } from './bitmap.js';
import { cidrContains, formatIP, parseIP, type CIDR } from './cidr.js';

/** Why an allocation failed, in kube's ipallocator words. */
export class RangeAllocationError extends Error {
  constructor(
    readonly reason: 'Full' | 'Allocated' | 'NotInRange' | 'MismatchedNetwork',
    message: string,
  ) {
    super(message);
  }
}

/** How a range is kept at rest: kube's RangeAllocation (`range` and the bitmap in `data`). */
interface RangeAllocation extends StoredObject {
  range: string;
  data: string;
}

export interface IPRangeAllocatorOptions {
  readonly cidr: CIDR;
  /** A storage without watch cache (reads must see the latest bitmap), and the key of the range in it. */
  readonly storage: StorageInterface;
  readonly key: string;
  /** Source of randomness for the scan start (default: crypto). */
  readonly random?: (below: number) => number;
}

/**
 * The IPs of a CIDR handed out one by one (kube's ipallocator.Range over the etcd-backed
 * allocator): the network address, and for IPv4 the broadcast address, are never handed out;
 * IPv6 ranges are capped at 65536 addresses. Every change is one optimistic update of the
 * bitmap stored at `key`, so several API servers sharing the storage never hand out one IP
 * twice, and allocations survive restarts.
 */
export class IPRangeAllocator {
  readonly cidr: CIDR;
  /** The first usable address (network + 1): item 0 of the bitmap. */
  private readonly base: bigint;
  private readonly max: number;
  /** Dynamic allocation prefers items at or above this (kube's calculateRangeOffset). */
  private readonly offset: number;
  private readonly random: (below: number) => number;

  constructor(private readonly opts: IPRangeAllocatorOptions) {
    this.cidr = opts.cidr;
    const size = 2n ** BigInt(opts.cidr.bits - opts.cidr.prefixLength);
    let max = opts.cidr.family === 'IPv6' ? (size > 65536n ? 65536n : size) : size - 1n;
    max -= 1n;
    this.max = Number(max < 0n ? 0n : max);
    this.base = opts.cidr.base + 1n;
    this.offset = rangeOffset(size);
    this.random = opts.random ?? ((below) => randomInt(below));
  }

  /** The IP of item i of the range: item 0 is the first usable address (the `kubernetes` Service's). */
  ipAt(i: number): string {
    return formatIP(this.base + BigInt(i), this.cidr.family);
  }

  /** Reserves a given IP; `dryRun` only checks that it could be. */
  async allocate(ip: string, opts: { dryRun: boolean }): Promise<void> {
    const i = this.indexOf(ip);
    await this.change(opts.dryRun, (bitmap) => {
      if (bitmap.has(i)) throw new RangeAllocationError('Allocated', 'provided IP is already allocated');
      bitmap.set(i);
    });
  }

  /** Reserves some free IP; `dryRun` only finds one. */
  async allocateNext(opts: { dryRun: boolean }): Promise<string> {
    let found = 0;
    await this.change(opts.dryRun, (bitmap) => {
      const i = bitmap.findFree(this.offset, this.random);
      if (i === undefined) throw new RangeAllocationError('Full', 'range is full');
      bitmap.set(i);
      found = i;
    });
    return this.ipAt(found);
  }

  /** Frees an IP; an IP outside the range or not allocated is ignored (kube's Release). */
  async release(ip: string): Promise<void> {
    const i = this.tryIndexOf(ip);
    if (i === undefined) return;
    await this.change(false, (bitmap) => {
      if (!bitmap.has(i)) return false;
      bitmap.clear(i);
      return true;
    });
  }

  /** Whether the IP is allocated now. */
  async has(ip: string): Promise<boolean> {
    const i = this.tryIndexOf(ip);
    if (i === undefined) return false;
    return (await this.read()).has(i);
  }

  /**
   * Repair (kube's ipallocator controller): marks every IP in `inUse` that lies in the range as
   * allocated, and frees `leaked` IPs. Returns how many were marked.
   */
  async repair(inUse: readonly string[], leaked: readonly string[] = []): Promise<number> {
    let marked = 0;
    await this.change(false, (bitmap) => {
      marked = 0;
      for (const ip of inUse) {
        const i = this.tryIndexOf(ip);
        if (i !== undefined && !bitmap.has(i)) {
          bitmap.set(i);
          marked++;
        }
      }
      for (const ip of leaked) {
        const i = this.tryIndexOf(ip);
        if (i !== undefined) bitmap.clear(i);
      }
      return marked > 0 || leaked.length > 0;
    });
    return marked;
  }

  /** Every allocated IP. */
  async allocated(): Promise<string[]> {
    const bitmap = await this.read();
    const out: string[] = [];
    for (let i = 0; i < this.max; i++) if (bitmap.has(i)) out.push(this.ipAt(i));
    return out;
  }

  /** The item of an IP in the range; throws NotInRange with kube's wording otherwise. */
  private indexOf(ip: string): number {
    const i = this.tryIndexOf(ip);
    if (i === undefined) {
      throw new RangeAllocationError('NotInRange', `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr.text}`);
    }
    return i;
  }

  private tryIndexOf(ip: string): number | undefined {
    const parsed = parseIP(ip);
    if (parsed === undefined || !cidrContains(this.cidr, parsed)) return undefined;
    const offset = parsed.value - this.base;
    return offset >= 0n && offset < BigInt(this.max) ? Number(offset) : undefined;
  }

  private async read(): Promise<AllocationBitmap> {
    return this.bitmapOf((await this.opts.storage.get(this.opts.key, { ignoreNotFound: true })) as RangeAllocation | undefined);
  }

  private bitmapOf(stored: RangeAllocation | undefined): AllocationBitmap {
    if (stored === undefined) return AllocationBitmap.empty(this.max);
    if (stored.range !== this.cidr.text) {
      throw new RangeAllocationError('MismatchedNetwork', `the provided network does not match the current range: stored ${stored.range}, configured ${this.cidr.text}`);
    }
    return AllocationBitmap.fromSnapshot(this.max, typeof stored.data === 'string' ? stored.data : '');
  }

  /**
   * Applies fn to the latest bitmap in one optimistic update (retried on conflict by the
   * storage); fn returning false means nothing changed, and nothing is written. A dry run reads
   * and applies fn without writing.
   */
  private async change(dryRun: boolean, fn: (bitmap: AllocationBitmap) => boolean | void): Promise<void> {
    if (dryRun) {
      fn(await this.read());
      return;
    }
    let unchanged = false;
    await this.opts.storage
      .guaranteedUpdate(this.opts.key, {
        ignoreNotFound: true,
        tryUpdate: (input) => {
          const stored = input as RangeAllocation | undefined;
          const bitmap = this.bitmapOf(stored);
          unchanged = fn(bitmap) === false;
          if (unchanged) throw new Unchanged();
          const name = this.opts.key.slice(this.opts.key.lastIndexOf('/') + 1);
          const object: RangeAllocation = { apiVersion: 'v1', kind: 'RangeAllocation', metadata: { ...stored?.metadata, name }, range: this.cidr.text, data: bitmap.snapshot() };
          return { object };
        },
      })
      .catch((err: unknown) => {
        if (!(err instanceof Unchanged)) throw err;
      });
  }
}

/** Thrown out of tryUpdate to leave the optimistic loop without writing. */
class Unchanged extends Error {}

/** kube's calculateRangeOffset: min(max(16, size/16), 256), 0 for ranges of 16 or fewer. */
function rangeOffset(size: bigint): number {
  if (size <= 16n) return 0;
  const offset = size / 16n;
  return Number(offset < 16n ? 16n : offset > 256n ? 256n : offset);
}
