import type { Clock } from './clock.js';
import { DelayingQueue, type DelayingWorkQueue } from './delaying.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

export interface RateLimitingWorkQueue<T> extends DelayingWorkQueue<T> {
  /** Adds the item after the delay its rate limiter gives it (a retry after a failure). */
  addRateLimited(item: T): void;
  /** The item succeeded: its rate limiter stops tracking it. It may still be queued. */
  forget(item: T): void;
  /** Retries of the item since it was last forgotten. */
  numRequeues(item: T): number;
}

export interface RateLimitingQueueOptions<T> {
  /** Default: defaultControllerRateLimiter on the same clock. */
  readonly rateLimiter?: RateLimiter<T>;
  readonly clock?: Clock;
}

/** The queue controllers use (client-go's rate-limiting queue): delaying queue plus a rate limiter. */
export class RateLimitingQueue<T> extends DelayingQueue<T> implements RateLimitingWorkQueue<T> {
  readonly rateLimiter: RateLimiter<T>;

  constructor(options: RateLimitingQueueOptions<T> = {}) {
    super(options.clock !== undefined ? { clock: options.clock } : {});
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>({ clock: this.clock });
  }

  addRateLimited(item: T): void {
    // Ignored after shutdown without counting a failure: the item will never be retried.
    if (this.shuttingDown()) return;
    this.addAfter(item, this.rateLimiter.when(item));
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}
