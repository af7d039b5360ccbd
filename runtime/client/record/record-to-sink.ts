import { isAlreadyExists, isStatusError } from '../../apimachinery/errors/index.js';
import type { Logger } from '../cache/log.js';
import type { Clock } from '../workqueue/clock.js';
import type { EventCorrelator } from './correlator.js';
import type { Event, EventSink } from './types.js';

/** How often recordToSink tries one event before giving up (maxTriesPerEvent). */
export const MAX_TRIES_PER_EVENT = 12;
/** The pause between tries (defaultSleepDuration); the first one is randomised. */
export const DEFAULT_SLEEP_DURATION_MS = 10_000;
/** The StatusCause a create in a namespace being deleted carries (v1.NamespaceTerminatingCause). */
const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/**
 * The request could not be built (rest.RequestConstructionError): building it again would fail
 * the same way, so the event is dropped at once.
 */
export class RequestConstructionError extends Error {
  override readonly name = 'RequestConstructionError';
}

export interface RecordToSinkContext {
  /** Aborted when the broadcaster shuts down: no further tries, no sleeping. */
  readonly signal: AbortSignal;
  readonly sleepDuration: number;
  readonly clock: Clock;
  /** In [0, 1): spreads the first retry of many clients after the server comes back. */
  readonly random: () => number;
  readonly logger: Logger;
}

/**
 * recordToSink: correlates the event, then writes it (a create, or for a repeat a patch of the
 * stored event) up to MAX_TRIES_PER_EVENT times, sleeping between tries, until the sink takes it
 * or rejects it for good. Never throws.
 */
export async function recordToSink(sink: EventSink, event: Event, correlator: EventCorrelator, ctx: RecordToSinkContext): Promise<void> {
  let result;
  try {
    result = correlator.eventCorrelate(event);
  } catch (err) {
    ctx.logger.error('Event correlation failed', { err });
    return;
  }
  if (result.skip) return;
  for (let tries = 0; ;) {
    if (await recordEvent(sink, result.event, result.patch, (result.event.count ?? 0) > 1, correlator, ctx.logger)) return;
    tries++;
    if (tries >= MAX_TRIES_PER_EVENT) {
      ctx.logger.error('Unable to write event (retry limit exceeded!)', { event });
      return;
    }
    const delay = tries === 1 ? ctx.sleepDuration * ctx.random() : ctx.sleepDuration;
    if (!(await sleep(delay, ctx))) {
      ctx.logger.error('Unable to write event (broadcaster is shut down)', { event });
      return;
    }
  }
}

/**
 * recordEvent: one try. A repeat is patched, and created afresh when the stored event is gone
 * (expired); returns true when the event was written or is dropped for good (a request that
 * cannot be built, any answer of the server), false when it should be tried again (the server
 * could not be reached, its answer was not understood).
 */
export async function recordEvent(sink: EventSink, event: Event, patch: Uint8Array | undefined, updateExistingEvent: boolean, correlator: EventCorrelator, logger: Logger): Promise<boolean> {
  let written: Event | undefined;
  let err: unknown;
  if (updateExistingEvent) {
    try {
      written = await sink.patch(event, patch ?? new Uint8Array());
    } catch (e) {
      err = e;
    }
  }
  if (!updateExistingEvent || isKeyNotFoundError(err)) {
    err = undefined;
    try {
      // A create never carries a resourceVersion.
      written = await sink.create({ ...event, metadata: { ...event.metadata, resourceVersion: '' } });
    } catch (e) {
      err = e;
    }
  }
  if (err === undefined) {
    // The server's copy carries the name and resourceVersion later repeats must patch.
    if (written !== undefined) correlator.updateState(written);
    return true;
  }
  if (err instanceof RequestConstructionError) {
    logger.error('Unable to construct event (will not retry!)', { err, event });
    return true;
  }
  if (isStatusError(err)) {
    if (isAlreadyExists(err) || err.causes.some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE)) logger.info('Server rejected event (will not retry!)', { event, err });
    else logger.error('Server rejected event (will not retry!)', { err, event });
    return true;
  }
  logger.error('Unable to write event (may retry after sleeping)', { err, event });
  return false;
}

/** util.IsKeyNotFoundError: a StatusError with code 404, whatever its reason. */
function isKeyNotFoundError(err: unknown): boolean {
  return isStatusError(err) && err.code === 404;
}

/** Waits `ms` on the clock; false when the signal aborted first. A zero wait only yields to the event loop. */
function sleep(ms: number, ctx: RecordToSinkContext): Promise<boolean> {
  if (ctx.signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (ok: boolean): void => {
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = (): void => {
      cancel();
      finish(false);
    };
    let cancel = (): void => {};
    if (ms <= 0) {
      const t = setImmediate(() => finish(!ctx.signal.aborted));
      cancel = () => clearImmediate(t);
    } else {
      const h = ctx.clock.setTimer(() => finish(true), ms);
      cancel = () => h.cancel();
    }
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}
