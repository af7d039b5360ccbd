import type { Watch, WatchEvent } from '../types.js';
import type { Clock } from './clock.js';
import type { ReflectorStore } from './delta-fifo.js';
import { errorFromWatchStatus, VeryShortWatchError } from './errors.js';
import { deepFreeze } from './freeze.js';
import { metaOf } from './keys.js';
import type { Logger } from './log.js';

/** The annotation of the bookmark that ends the initial events of a watch-list (metav1.InitialEventsAnnotationKey). */
export const INITIAL_EVENTS_ANNOTATION = 'k8s.io/initial-events-end';

/** An open watch being consumed: its iterator (so a watch-list can go on with it) and its stop. */
export interface OpenWatch<T> {
  readonly events: AsyncIterator<WatchEvent<T>>;
  stop(): void;
}

export function openWatch<T>(w: Watch<T>): OpenWatch<T> {
  return { events: w[Symbol.asyncIterator](), stop: () => w.stop() };
}

export interface HandleWatchParams<T> {
  readonly reflectorName: string;
  readonly watch: OpenWatch<T>;
  readonly store: ReflectorStore<T>;
  readonly setLastSyncResourceVersion: (rv: string) => void;
  readonly clock: Clock;
  /** When the watch was requested: a watch closing within a second of it without events is an error. */
  readonly start: number;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** Return (leaving the watch open) at the bookmark that ends a watch-list's initial events. */
  readonly exitOnInitialEventsEnd: boolean;
}

export interface HandleWatchResult {
  /** The bookmark ending a watch-list's initial events was seen. */
  readonly initialEventsEnd: boolean;
  /** `signal` aborted. */
  readonly stopped: boolean;
}

/**
 * Applies watch events to the store in order and records each event's
 * resourceVersion (bookmarks included) as the point to resume from. Resolves
 * when the stream ends cleanly or `signal` aborts; throws the Status error of
 * an ERROR event, a VeryShortWatchError, or whatever the stream threw. The
 * watch is stopped on every exit except a watch-list's initial-events end.
 */
export async function handleWatch<T>(p: HandleWatchParams<T>): Promise<HandleWatchResult> {
  let eventCount = 0;
  let initialEventsEnd = false;
  let keepOpen = false;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (p.signal.aborted) resolve('aborted');
    else p.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([p.watch.events.next(), aborted]);
      if (next === 'aborted') return { initialEventsEnd, stopped: true };
      if (next.done === true) break;
      const event = next.value;
      if (event.type === 'ERROR') throw errorFromWatchStatus(event.object);
      if (typeof event.object !== 'object' || event.object === null) {
        p.logger.error('unable to understand watch event', { reflector: p.reflectorName, type: event.type });
        continue;
      }
      const meta = metaOf(event.object);
      applyEvent(p, event);
      if (event.type === 'BOOKMARK' && meta.annotations[INITIAL_EVENTS_ANNOTATION] === 'true') initialEventsEnd = true;
      p.setLastSyncResourceVersion(meta.resourceVersion);
      eventCount++;
      if (p.exitOnInitialEventsEnd && initialEventsEnd) {
        keepOpen = true;
        return { initialEventsEnd, stopped: false };
      }
    }
    if (p.clock.now() - p.start < 1000 && eventCount === 0) throw new VeryShortWatchError(p.reflectorName);
    return { initialEventsEnd, stopped: false };
  } finally {
    if (onAbort !== undefined) p.signal.removeEventListener('abort', onAbort);
    if (!keepOpen) p.watch.stop();
  }
}

function applyEvent<T>(p: HandleWatchParams<T>, event: Exclude<WatchEvent<T>, { type: 'ERROR' }>): void {
  try {
    switch (event.type) {
      case 'ADDED':
        p.store.add(deepFreeze(event.object));
        break;
      case 'MODIFIED':
        p.store.update(deepFreeze(event.object));
        break;
      case 'DELETED':
        p.store.delete(deepFreeze(event.object));
        break;
      case 'BOOKMARK':
        break;
      default:
        p.logger.error('unknown watch event', { reflector: p.reflectorName, type: (event as { type: unknown }).type });
    }
  } catch (err) {
    // One object the store cannot take (no name, a throwing index function) must not end the watch.
    p.logger.error('unable to apply watch event to the store', { reflector: p.reflectorName, type: event.type, err });
  }
}
