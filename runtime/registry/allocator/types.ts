import type { IPFamily } from './cidr.js';
import type { IPRangeAllocator, RangeAllocator } from './range.js';

/** A cluster's IP ranges of one kind (service cluster IPs): one allocator per family, the primary first. */
export interface IPRanges {
  readonly primary: IPFamily;
  readonly byFamily: ReadonlyMap<IPFamily, IPRangeAllocator>;
}

/**
 * What an allocation did for one write (kube's service storage transaction), finished once the
 * write is known to have succeeded or failed.
 */
export interface AllocationTransaction {
  /** The write was stored: release what it gave back. */
  commit(): Promise<void>;
  /** The write failed: release what was taken for it. */
  revert(): Promise<void>;
}

/** The allocators of a cluster's network resources: IPs per family, and one port range (node ports). */
export interface NetworkAllocators {
  readonly ipRanges: IPRanges;
  readonly portRange: RangeAllocator<number>;
}

/** What one allocation step took, and what the object gives back once its write is stored. */
export interface Allocation<T> {
  taken: T[];
  released: T[];
}
