import type { Clock } from './clock.js';

/**
 * A token bucket in the reservation style of golang.org/x/time/rate: it
 * starts full (`burst` tokens) and refills at `qps` tokens per second.
 * `reserve()` always succeeds, taking a token now or one yet to come, and
 * returns how long the caller must wait for it, so callers queue up behind
 * each other instead of being refused.
 */
export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly clock: Clock,
  ) {
    if (!(qps > 0) || !(burst >= 1)) throw new RangeError(`token bucket needs qps > 0 and burst >= 1, got qps=${qps} burst=${burst}`);
    this.#tokens = burst;
    this.#last = clock.now();
  }

  /** Takes one token; returns the delay in milliseconds until it is really available (0 when it is). */
  reserve(): number {
    const now = this.clock.now();
    this.#advance(now);
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.qps) * 1000);
  }

  /** Tokens available now (negative while reservations are outstanding). */
  tokens(): number {
    this.#advance(this.clock.now());
    return this.#tokens;
  }

  #advance(now: number): void {
    // Time never runs backwards for the bucket, whatever the clock does.
    if (now <= this.#last) return;
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#last) / 1000) * this.qps);
    this.#last = now;
  }
}
