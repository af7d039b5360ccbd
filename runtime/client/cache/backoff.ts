import type { Clock } from './clock.js';

/** Exponential backoff with jitter and a cap (wait.ExponentialBackoffManager). */
export interface BackoffOptions {
  /** First delay; 800 ms by default, as client-go's reflector. */
  readonly initialMs?: number;
  /** Delays stop growing here (jitter may add up to `jitter` times more); 30 s by default. */
  readonly capMs?: number;
  readonly factor?: number;
  /** Each delay d becomes d + random() * jitter * d; 1 by default. */
  readonly jitter?: number;
  /** A quiet period after which the next delay starts from `initialMs` again; 2 min by default. */
  readonly resetAfterMs?: number;
}

export const defaultBackoff: Required<BackoffOptions> = Object.freeze({
  initialMs: 800,
  capMs: 30_000,
  factor: 2,
  jitter: 1,
  resetAfterMs: 120_000,
});

/**
 * Hands out successive delays. The reflector asks for one after each failure;
 * when no failure happened for `resetAfterMs`, the server is presumed healthy
 * again and the sequence restarts, so a rare failure costs a short pause.
 */
export class ExponentialBackoff {
  private readonly opts: Required<BackoffOptions>;
  private duration: number;
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(
    options: BackoffOptions,
    private readonly clock: Clock,
    private readonly random: () => number = Math.random,
  ) {
    this.opts = { ...defaultBackoff, ...options };
    this.duration = this.opts.initialMs;
  }

  /** The next delay in milliseconds. */
  next(): number {
    const now = this.clock.now();
    if (now - this.lastStart > this.opts.resetAfterMs) this.duration = this.opts.initialMs;
    this.lastStart = now;
    const base = this.duration;
    this.duration = Math.min(this.duration * this.opts.factor, this.opts.capMs);
    return this.opts.jitter > 0 ? base + this.random() * this.opts.jitter * base : base;
  }
}
