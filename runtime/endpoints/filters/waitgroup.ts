import { newServiceUnavailable } from '../../apimachinery/errors/index.js';
import { Cancellation } from '../../apimachinery/request/cancellation.js';
import { withCancellation, type Filter } from '../../apimachinery/request/http.js';
import type { LongRunningRequestCheck } from './longrunning.js';
import { isRequestExemptFromRetryAfter } from './retryafter.js';

/**
 * The requests a server is serving, for graceful shutdown (kube's SafeWaitGroup behind
 * WithWaitGroup, and the watch termination of WithWatchTerminationDuringShutdown):
 * non-long-running requests are counted so shutdown can wait for them; long-running ones are
 * registered so shutdown can end them.
 */
export class RequestWaitGroup {
  private count = 0;
  private closed = false;
  private terminated: unknown;
  private idle: Array<() => void> = [];
  private readonly longRunning = new Set<Cancellation>();
  /** Long-running requests not yet finished, terminated or not (their streams may still be ending). */
  private longRunningActive = 0;
  private longRunningIdle: Array<() => void> = [];

  /** Non-long-running requests being served. */
  get inFlight(): number {
    return this.count;
  }

  /** Long-running requests being served (terminated ones included until their handler returns). */
  get longRunningCount(): number {
    return this.longRunningActive;
  }

  /** Counts a request in; false once close() was called (the request must be refused). */
  add(): boolean {
    if (this.closed) return false;
    this.count++;
    return true;
  }

  done(): void {
    this.count--;
    if (this.count === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Refuses new non-long-running requests from now on. */
  close(): void {
    this.closed = true;
  }

  /** Resolves true once no counted request remains, false when `timeoutMs` passes first. */
  wait(timeoutMs: number): Promise<boolean> {
    return waitIdle(() => this.count === 0, this.idle, timeoutMs);
  }

  /** Resolves true once every long-running request has returned, false when `timeoutMs` passes first. */
  waitLongRunning(timeoutMs: number): Promise<boolean> {
    return waitIdle(() => this.longRunningActive === 0, this.longRunningIdle, timeoutMs);
  }

  /**
   * Registers a long-running request: the signal aborts when terminateLongRunning() is called
   * (at once if it already was). Call the returned release when the request ends.
   */
  trackLongRunning(parent: Cancellation): { cancellation: Cancellation; release: () => void } {
    const cancellation = new Cancellation([parent]);
    if (this.terminated !== undefined) cancellation.abort(this.terminated);
    else this.longRunning.add(cancellation);
    this.longRunningActive++;
    let released = false;
    return {
      cancellation,
      release: () => {
        if (released) return;
        released = true;
        this.longRunning.delete(cancellation);
        if (--this.longRunningActive === 0) for (const resolve of this.longRunningIdle.splice(0)) resolve();
      },
    };
  }

  /** Ends every long-running request now and any that starts later (their handlers see the signal abort). */
  terminateLongRunning(reason: unknown = new Error('apiserver is shutting down')): void {
    this.terminated = reason;
    for (const c of this.longRunning) c.abort(reason);
    this.longRunning.clear();
  }
}

function waitIdle(isIdle: () => boolean, waiters: Array<() => void>, timeoutMs: number): Promise<boolean> {
  if (isIdle()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      const i = waiters.indexOf(onIdle);
      if (i >= 0) waiters.splice(i, 1);
      resolve(false);
    }, timeoutMs);
    const onIdle = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    waiters.push(onIdle);
  });
}

/**
 * WithWaitGroup: counts non-long-running requests into the group and, once it is closed for
 * shutdown, answers new ones 503 ServiceUnavailable `apiserver is shutting down` with
 * `Retry-After: 1` (another server of the cluster will answer the retry), except the requests
 * the retry-after filter exempts too (probes, metrics, the loopback client), served uncounted.
 * Long-running requests get a signal that shutdown aborts.
 */
export function withWaitGroup(group: RequestWaitGroup, longRunning: LongRunningRequestCheck): Filter {
  return async (req, res, next) => {
    if (longRunning(req.info)) {
      const tracked = group.trackLongRunning(req.cancellation);
      try {
        await next(withCancellation(req, tracked.cancellation), res);
      } finally {
        tracked.release();
      }
      return;
    }
    if (!group.add()) {
      if (isRequestExemptFromRetryAfter(req)) return next(req, res);
      res.setHeader('Retry-After', '1');
      res.writeError(newServiceUnavailable('apiserver is shutting down'));
      return;
    }
    try {
      await next(req, res);
    } finally {
      group.done();
    }
  };
}
