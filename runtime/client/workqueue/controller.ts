import type { RateLimitingWorkQueue } from './rate-limiting.js';

/** What a reconcile may ask for besides success or failure (controller-runtime's Result). */
export interface ReconcileResult {
  /** Process the key again after this many milliseconds (the retry count is reset). */
  readonly requeueAfterMs?: number;
  /** Process the key again after its rate-limited delay, as after an error but without one. */
  readonly requeue?: boolean;
}

export interface ControllerOptions<K> {
  readonly queue: RateLimitingWorkQueue<K>;
  /** Concurrent workers; one key is never processed by two at once. Default 1. */
  readonly workers?: number;
  /**
   * Brings the world in line with the key's desired state. Throwing (or
   * rejecting) retries the key with the queue's rate limit; returning
   * normally forgets its failures. `signal` aborts when the controller stops.
   */
  readonly reconcile: (key: K, signal: AbortSignal) => Promise<ReconcileResult | void> | ReconcileResult | void;
  /** Stops the controller: no new key is started, keys in progress finish, the queue shuts down. */
  readonly signal: AbortSignal;
  /** Every reconcile error, before the retry. Default: a line on stderr (utilruntime.HandleError). */
  readonly onError?: (key: K, err: unknown) => void;
  /** Drop a key (forget it, no retry) once it has failed this many times in a row. Default: retry forever. */
  readonly maxRetries?: number;
}

/**
 * Runs a reconcile loop over a work queue: N workers take keys, reconcile
 * them, forget them on success and requeue them rate-limited on error.
 * Resolves once the signal has aborted and every worker has finished its
 * key; the queue is then shut down, its timers cancelled.
 */
export async function runController<K>(options: ControllerOptions<K>): Promise<void> {
  const { queue, signal } = options;
  const workers = Math.max(1, Math.floor(options.workers ?? 1));
  const onError = options.onError ?? defaultOnError;
  const stop = (): void => {
    void queue.shutDownWithDrain();
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  try {
    await Promise.all(Array.from({ length: workers }, () => worker(options, onError)));
  } finally {
    signal.removeEventListener('abort', stop);
    queue.shutDown();
  }
}

async function worker<K>(options: ControllerOptions<K>, onError: (key: K, err: unknown) => void): Promise<void> {
  const { queue, signal } = options;
  for (;;) {
    const next = await queue.get();
    if (next.shutdown) return;
    const key = next.item;
    try {
      // Keys still queued when the controller stops are not started.
      if (signal.aborted) return;
      await processKey(options, key, onError);
    } finally {
      queue.done(key);
    }
  }
}

async function processKey<K>(options: ControllerOptions<K>, key: K, onError: (key: K, err: unknown) => void): Promise<void> {
  const { queue } = options;
  let result: ReconcileResult | void;
  try {
    result = await options.reconcile(key, options.signal);
  } catch (err) {
    onError(key, err);
    if (options.maxRetries !== undefined && queue.numRequeues(key) >= options.maxRetries) queue.forget(key);
    else queue.addRateLimited(key);
    return;
  }
  if (result?.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
    queue.forget(key);
    queue.addAfter(key, result.requeueAfterMs);
  } else if (result?.requeue === true) {
    queue.addRateLimited(key);
  } else {
    queue.forget(key);
  }
}

function defaultOnError(key: unknown, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`error reconciling ${String(key)}: ${message}\n`);
}
