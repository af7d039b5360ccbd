import { realClock as processClock } from '../cache/clock.js';

/**
 * Time as the leader elector sees it (k8s.io/utils/clock). One reading serves
 * both of client-go's uses: the record's timestamps (wall time, written to the
 * Lease) and the local observation times that decide expiry (compared only
 * with each other, so a monotonic source keeps them honest).
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, possibly fractional. */
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts (never rejects); leaves no timer behind. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The process clock: the performance timer anchored at its origin, so
 * readings never step back when the wall clock is adjusted (Go's monotonic
 * reading), and microseconds reach the Lease's MicroTime.
 */
export const realClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  // The informers' sleep: resolves early on abort and leaves no timer behind.
  sleep: (ms, signal) => processClock.sleep(ms, signal),
};

interface Sleeper {
  readonly at: number;
  readonly seq: number;
  readonly wake: () => void;
}

/**
 * A clock that moves only when told (k8s.io/utils/clock/testing.FakeClock):
 * `step` and `setTime` wake the sleepers that came due, in deadline order;
 * a sleep of zero or less resolves at once.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  constructor(start: number | Date = 0) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      // Already due (a tick missed while a condition ran): no step is needed to pass it.
      if (signal?.aborted === true || ms <= 0) return resolve();
      const sleeper: Sleeper = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  step(ms: number): void {
    this.setTime(this.#now + ms);
  }

  setTime(t: number): void {
    this.#now = Math.max(this.#now, t);
    const due = this.#sleepers.filter((s) => s.at <= this.#now).sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.#sleepers = this.#sleepers.filter((s) => s.at > this.#now);
    for (const s of due) s.wake();
  }

  /** The deadline of the earliest sleeper, or undefined when nobody sleeps. */
  nextWake(): number | undefined {
    let next: number | undefined;
    for (const s of this.#sleepers) if (next === undefined || s.at < next) next = s.at;
    return next;
  }
}
