import { type Clock, realClock } from './clock.js';

/** How often waitForCacheSync polls (client-go's syncedPollPeriod). */
export const SYNCED_POLL_PERIOD_MS = 100;

/**
 * Waits until every `hasSynced` returns true (informers, handler
 * registrations); false when `signal` aborts first (cache.WaitForCacheSync).
 */
export async function waitForCacheSync(signal: AbortSignal, hasSynced: readonly (() => boolean)[], clock: Clock = realClock): Promise<boolean> {
  for (;;) {
    if (hasSynced.every((f) => f())) return true;
    if (signal.aborted) return false;
    await clock.sleep(SYNCED_POLL_PERIOD_MS, signal);
  }
}
