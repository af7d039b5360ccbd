/**
 * The time source of the delaying and rate-limited queues (k8s.io/utils/clock):
 * the real one for controllers, FakeClock for tests that step time by hand.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once, `ms` from now; the handle cancels it. */
  setTimer(fn: () => void, ms: number): TimerHandle;
}

export interface TimerHandle {
  /** Cancels the timer; harmless after it fired. */
  cancel(): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(t) };
  },
};

interface FakeTimer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that moves only when `step` or `setTime` is called; timers due by
 * then fire in order of their deadline (then of creation), synchronously.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: FakeTimer[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer: FakeTimer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
        this.#timers = this.#timers.filter((t) => t !== timer);
      },
    };
  }

  /** Advances time by `ms`, firing the timers that come due (including ones they schedule). */
  step(ms: number): void {
    this.setTime(this.#now + ms);
  }

  setTime(t: number): void {
    for (;;) {
      const due = this.#timers.filter((x) => x.at <= t).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((x) => x !== due);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = Math.max(this.#now, t);
  }

  /** Timers not yet fired nor cancelled: what a leak check in a test looks at. */
  pendingTimers(): number {
    return this.#timers.length;
  }
}
