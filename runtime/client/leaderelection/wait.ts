import type { Clock } from './clock.js';

/** What a finished context says (Go's context.Canceled and context.DeadlineExceeded), as the elector logs it. */
export const CONTEXT_CANCELED = 'context canceled';
export const DEADLINE_EXCEEDED = 'context deadline exceeded';

/** wait.Jitter: `d` plus a random part of up to `factor` times `d` (factor ≤ 0 means 1). */
export function jitter(d: number, factor: number): number {
  return d + Math.random() * (factor > 0 ? factor : 1) * d;
}

/** A signal that aborts with the parent or after `ms` on the clock, whichever comes first; `stop` releases both. */
export interface TimeoutScope {
  readonly signal: AbortSignal;
  /** Why the signal aborted: DEADLINE_EXCEEDED, CONTEXT_CANCELED, or undefined while it has not. */
  reason(): string | undefined;
  stop(): void;
}

export function withTimeout(clock: Clock, ms: number, parent: AbortSignal | undefined): TimeoutScope {
  const controller = new AbortController();
  const timer = new AbortController();
  let why: string | undefined;
  const end = (reason: string): void => {
    if (why !== undefined) return;
    why = reason;
    timer.abort();
    parent?.removeEventListener('abort', onParent);
    controller.abort(new Error(reason));
  };
  const onParent = (): void => end(CONTEXT_CANCELED);
  if (parent?.aborted === true) end(CONTEXT_CANCELED);
  else {
    parent?.addEventListener('abort', onParent, { once: true });
    void clock.sleep(ms, timer.signal).then(() => {
      if (!timer.signal.aborted) end(DEADLINE_EXCEEDED);
    });
  }
  return {
    signal: controller.signal,
    reason: () => why,
    stop: () => {
      timer.abort();
      parent?.removeEventListener('abort', onParent);
    },
  };
}

/**
 * wait.PollUntilContextTimeout with immediate=true: runs `condition` now and
 * then on a fixed tick of `interval` (not sliding: a slow condition eats into
 * the wait, and a tick missed while it ran fires at once), until it returns
 * true (undefined is returned) or the scope ends (its reason is returned).
 * The condition gets the scope's signal, so a call in flight at the deadline
 * is cancelled.
 */
export async function pollUntilTimeout(clock: Clock, interval: number, timeout: number, parent: AbortSignal, condition: (signal: AbortSignal) => Promise<boolean>): Promise<string | undefined> {
  const scope = withTimeout(clock, timeout, parent);
  try {
    const start = clock.now();
    let next = start + interval;
    if (scope.signal.aborted) return scope.reason();
    if (await condition(scope.signal)) return undefined;
    for (;;) {
      const now = clock.now();
      // A ticker buffers one tick: after an overrun the latest tick missed fires at once.
      if (next < now) next = start + Math.floor((now - start) / interval) * interval;
      await clock.sleep(next - now, scope.signal);
      if (scope.signal.aborted) return scope.reason();
      next += interval;
      if (await condition(scope.signal)) return undefined;
    }
  } finally {
    scope.stop();
  }
}
