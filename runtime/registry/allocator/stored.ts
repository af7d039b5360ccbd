import type { Interface as StorageInterface, StoredObject } from '../../storage/index.js';
import { AllocationBitmap } from './bitmap.js';

/** Why an allocation failed, in kube's allocator words (the message is the caller's). */
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

/** Thrown out of tryUpdate to leave the optimistic loop without writing. */
class Unchanged extends Error {}

/**
 * The allocation bitmap of a range kept in storage at one key (kube's etcd-backed
 * allocator.Interface): every change is one optimistic update of the stored bitmap, so several
 * API servers sharing the storage never hand out one item twice, and allocations survive
 * restarts. `range` names the range; a stored bitmap of another range is refused.
 */
export class StoredBitmap {
  constructor(
    private readonly storage: StorageInterface,
    private readonly key: string,
    private readonly range: string,
    /** Items in the range. */
    readonly max: number,
    /** What a MismatchedNetwork error says. */
    private readonly mismatch: string,
  ) {}

  async read(): Promise<AllocationBitmap> {
    return this.bitmapOf((await this.storage.get(this.key, { ignoreNotFound: true })) as RangeAllocation | undefined);
  }

  /**
   * Applies fn to the latest bitmap in one optimistic update (retried on conflict by the
   * storage); fn returning false means nothing changed, and nothing is written. A dry run reads
   * and applies fn without writing.
   */
  async change(dryRun: boolean, fn: (bitmap: AllocationBitmap) => boolean | void): Promise<void> {
    if (dryRun) {
      fn(await this.read());
      return;
    }
    await this.storage
      .guaranteedUpdate(this.key, {
        ignoreNotFound: true,
        tryUpdate: (input) => {
          const stored = input as RangeAllocation | undefined;
          const bitmap = this.bitmapOf(stored);
          if (fn(bitmap) === false) throw new Unchanged();
          const name = this.key.slice(this.key.lastIndexOf('/') + 1);
          const object: RangeAllocation = { apiVersion: 'v1', kind: 'RangeAllocation', metadata: { ...stored?.metadata, name }, range: this.range, data: bitmap.snapshot() };
          return { object };
        },
      })
      .catch((err: unknown) => {
        if (!(err instanceof Unchanged)) throw err;
      });
  }

  private bitmapOf(stored: RangeAllocation | undefined): AllocationBitmap {
    if (stored === undefined) return AllocationBitmap.empty(this.max);
    if (stored.range !== this.range) throw new RangeAllocationError('MismatchedNetwork', `${this.mismatch}: stored ${stored.range}, configured ${this.range}`);
    return AllocationBitmap.fromSnapshot(this.max, typeof stored.data === 'string' ? stored.data : '');
  }
}

/** kube's calculateRangeOffset: min(max(16, size/step), cap), 0 for ranges of 16 or fewer. */
export function rangeOffset(size: bigint, step: bigint, cap: bigint): number {
  if (size <= 16n) return 0;
  const offset = size / step;
  return Number(offset < 16n ? 16n : offset > cap ? cap : offset);
}
