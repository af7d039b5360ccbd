/**
 * Time as the informer machinery sees it (k8s.io/utils/clock): injected so
 * tests can drive backoff, resync and watch timeouts without waiting.
 */
export interface Clock {
  /** Milliseconds since an arbitrary origin; only differences matter. */
  now(): number;
  /**
   * Resolves after `ms`, or as soon as `signal` aborts (never rejects), and
   * leaves no timer behind either way.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted === true) {
        resolve();
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
