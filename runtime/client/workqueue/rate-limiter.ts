import { type Clock, realClock } from './clock.js';
import { TokenBucket } from './token-bucket.js';

/**
 * Rate limiters of client-go's workqueue: how long an item waits before it
 * is retried.
 */
export interface RateLimiter<T> {
  /** The delay before the item's next retry; counts a failure where the limiter tracks them. */
  when(item: T): number;
  /** Stops tracking the item (it succeeded): its next failure starts from the base delay again. */
  forget(item: T): void;
  /** Failures counted for the item since it was last forgotten. */
  numRequeues(item: T): number;
}

/** base × 2^failures per item, capped at max (ItemExponentialFailureRateLimiter). */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  readonly #failures = new Map<T, number>();

  constructor(
    readonly baseDelayMs: number,
    readonly maxDelayMs: number,
  ) {}

  when(item: T): number {
    const exp = this.#failures.get(item) ?? 0;
    this.#failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * 2 ** exp;
    return Number.isFinite(backoff) && backoff < this.maxDelayMs ? backoff : this.maxDelayMs;
  }

  forget(item: T): void {
    this.#failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.#failures.get(item) ?? 0;
  }
}

/** An overall token bucket shared by every item (BucketRateLimiter); tracks no item. */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  readonly #bucket: TokenBucket;

  constructor(options: { readonly qps: number; readonly burst: number; readonly clock?: Clock }) {
    this.#bucket = new TokenBucket(options.qps, options.burst, options.clock ?? realClock);
  }

  when(_item: T): number {
    return this.#bucket.reserve();
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The worst (longest) of several limiters (MaxOfRateLimiter). */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  readonly #limiters: readonly RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.#limiters = limiters;
  }

  when(item: T): number {
    // Every limiter sees every failure, as each keeps its own account.
    return this.#limiters.reduce((max, l) => Math.max(max, l.when(item)), 0);
  }

  forget(item: T): void {
    for (const l of this.#limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    return this.#limiters.reduce((max, l) => Math.max(max, l.numRequeues(item)), 0);
  }
}

/**
 * DefaultControllerRateLimiter: per-item exponential backoff from 5 ms to
 * 1000 s, and no more than 10 retries a second overall after a burst of 100.
 */
export function defaultControllerRateLimiter<T>(options: { readonly clock?: Clock } = {}): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(5, 1000 * 1000),
    new BucketRateLimiter<T>({ qps: 10, burst: 100, ...(options.clock !== undefined ? { clock: options.clock } : {}) }),
  );
}
