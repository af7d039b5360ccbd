import { isConflict } from '../apimachinery/errors/index.js';
import { type Clock, realClock } from './cache/clock.js';

/**
 * Retrying a read-modify-write until it stops conflicting (client-go's
 * util/retry over wait.Backoff). The function re-reads what it changes on
 * every attempt: a 409 Conflict means another writer got in between, so
 * sending the same object again would conflict again.
 */

/** wait.Backoff without Cap: `steps` attempts at most, waiting `durationMs` (times `factor` after each wait) plus jitter between them. */
export interface RetryBackoff {
  /** Attempts at most (wait.Backoff's Steps); below 1 counts as 1. */
  readonly steps: number;
  /** The first wait, in milliseconds. */
  readonly durationMs: number;
  /** Each wait is the previous one times `factor` (1: constant; 0 as 1). */
  readonly factor: number;
  /** Each wait d becomes d + random() * jitter * d (0: none). */
  readonly jitter: number;
}

/** client-go's retry.DefaultRetry: for conflicts with a controller that owns the object; 5 attempts 10 ms apart. */
export const defaultRetry: RetryBackoff = Object.freeze({ steps: 5, durationMs: 10, factor: 1, jitter: 0.1 });

/** client-go's retry.DefaultBackoff: for conflicts with unrelated writers; 4 attempts after 10, 50 and 250 ms. */
export const defaultRetryBackoff: RetryBackoff = Object.freeze({ steps: 4, durationMs: 10, factor: 5, jitter: 0.1 });

export interface RetryOptions {
  /** Sleeps between attempts; the real clock when absent. */
  readonly clock?: Clock;
  /** For jitter; Math.random when absent. */
  readonly random?: () => number;
}

/**
 * Runs `fn` until it resolves, throws an error `retriable` rejects, or
 * `backoff.steps` attempts are spent; then rethrows the last error
 * (retry.OnError: the caller sees the conflict, not a timeout). What `fn`
 * resolves to is returned.
 */
export async function retryOnError<R>(backoff: RetryBackoff, retriable: (err: unknown) => boolean, fn: () => Promise<R>, options: RetryOptions = {}): Promise<R> {
  const clock = options.clock ?? realClock;
  const waits = backoffWaits(backoff, options.random ?? Math.random);
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!retriable(err)) throw err;
      const wait = waits.next();
      if (wait.done === true) throw err;
      await clock.sleep(wait.value);
    }
  }
}

/** retry.RetryOnConflict: retryOnError retrying only 409 Conflict (isConflict). */
export function retryOnConflict<R>(backoff: RetryBackoff, fn: () => Promise<R>, options: RetryOptions = {}): Promise<R> {
  return retryOnError(backoff, isConflict, fn, options);
}

/** The waits between attempts, steps - 1 of them, as wait.Backoff.Step hands them out. */
export function* backoffWaits(backoff: RetryBackoff, random: () => number = Math.random): Generator<number, void, undefined> {
  let duration = backoff.durationMs;
  for (let steps = Math.max(1, backoff.steps); steps > 1; steps--) {
    yield backoff.jitter > 0 ? duration + random() * backoff.jitter * duration : duration;
    if (backoff.factor !== 0) duration *= backoff.factor;
  }
}
