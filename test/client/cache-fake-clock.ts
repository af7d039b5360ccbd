import type { Clock } from '../../runtime/client/cache/index.js';

interface Sleeper {
  readonly at: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/** Virtual time: sleeps resolve only when the test advances the clock past them. */
export class FakeClock implements Clock {
  /** Every sleep asked for, in order, in milliseconds. */
  readonly sleeps: number[] = [];
  private t = 0;
  private seq = 0;
  private sleepers: Sleeper[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted === true) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const onAbort = (): void => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        resolve();
      };
      const sleeper: Sleeper = {
        at: this.t + ms,
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.sleepers.push(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  pending(): number {
    return this.sleepers.length;
  }

  /** Moves time forward by `ms`, waking the sleepers that are due, earliest first. */
  advance(ms: number): void {
    this.t += ms;
    const due = this.sleepers.filter((s) => s.at <= this.t).sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.sleepers = this.sleepers.filter((s) => s.at > this.t);
    for (const s of due) s.resolve();
  }

  /** Jumps to the earliest sleeper's deadline and wakes it; false when nobody sleeps. */
  advanceToNext(): boolean {
    const next = [...this.sleepers].sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
    if (next === undefined) return false;
    this.advance(Math.max(0, next.at - this.t));
    return true;
  }
}
