import type { EventSpamKeyFunc } from './keys.js';
import { LRU } from '../../apimachinery/util/cache/lru.js';
import type { PassiveClock } from './time.js';
import type { Event } from './types.js';

/**
 * A token bucket that refuses rather than queues (flowcontrol's passive rate limiter over
 * golang.org/x/time/rate's AllowN): full at creation, refilled at `qps`, each accepted call takes
 * one token. It reads the clock once per call, so an interval clock in tests steps once, as Go's.
 */
class PassiveTokenBucket {
  #tokens: number;
  #last: number | undefined;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.#tokens = burst;
  }

  tryAccept(now: number): boolean {
    if (this.#last !== undefined && now > this.#last) this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#last) / 1000) * this.qps);
    if (this.#last === undefined || now > this.#last) this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/**
 * EventSourceObjectSpamFilter: each source+object (the spam key) may burst `burst` events, then
 * one every 1/qps seconds; the rest are skipped. Buckets live in an LRU cache of `lruCacheSize`.
 */
export class EventSourceObjectSpamFilter {
  readonly #cache: LRU<PassiveTokenBucket>;

  constructor(
    lruCacheSize: number,
    private readonly burst: number,
    private readonly qps: number,
    private readonly clock: PassiveClock,
    private readonly spamKeyFunc: EventSpamKeyFunc,
  ) {
    this.#cache = new LRU(lruCacheSize);
  }

  /** Whether the event is spam and must be skipped. */
  filter(event: Event): boolean {
    const key = this.spamKeyFunc(event);
    const bucket = this.#cache.get(key) ?? new PassiveTokenBucket(this.qps, this.burst);
    const skip = !bucket.tryAccept(this.clock.now());
    this.#cache.add(key, bucket);
    return skip;
  }
}
