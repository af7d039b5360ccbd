import { getEventKey } from './keys.js';
import { LRU } from '../../apimachinery/util/cache/lru.js';
import type { Event } from './types.js';

/** What the logger remembers of an event it saw (eventLog). */
interface EventLog {
  readonly count: number;
  readonly firstTimestamp: string | null | undefined;
  readonly name: string;
  readonly resourceVersion: string;
}

/** metav1.Time(time.Unix(0, 0)) as JSON: the lastTimestamp of the "before" side of the patch. */
const EPOCH = '1970-01-01T00:00:00Z';

/**
 * eventLogger: counts repeats of an event. A repeat takes the first occurrence's name,
 * resourceVersion and firstTimestamp, its count goes up by one, and it carries the strategic
 * merge patch the sink applies to the stored event.
 */
export class EventLogger {
  readonly #cache: LRU<EventLog>;

  constructor(lruCacheEntries: number) {
    this.#cache = new LRU(lruCacheEntries);
  }

  /** Records an occurrence of the event under `key`; returns the event to write and, for a repeat, its patch. Does not mutate `newEvent`. */
  eventObserve(newEvent: Event, key: string): { readonly event: Event; readonly patch: Uint8Array | undefined } {
    let event: Event = { ...newEvent, metadata: { ...newEvent.metadata } };
    let patch: Uint8Array | undefined;
    const last = this.#cache.get(key);
    if (last !== undefined && last.count > 0) {
      event = {
        ...event,
        metadata: { ...event.metadata, name: last.name, resourceVersion: last.resourceVersion },
        firstTimestamp: last.firstTimestamp ?? null,
        count: last.count + 1,
      };
      patch = twoWayPatch(event);
    }
    this.#remember(key, event);
    return { event, patch };
  }

  /** Takes the server's copy of an event (its name and resourceVersion) as the latest observation. */
  updateState(event: Event): void {
    this.#remember(getEventKey(event), event);
  }

  #remember(key: string, event: Event): void {
    this.#cache.add(key, {
      count: event.count ?? 0,
      firstTimestamp: event.firstTimestamp,
      name: event.metadata?.name ?? '',
      resourceVersion: event.metadata?.resourceVersion ?? '',
    });
  }
}

/**
 * strategicpatch.CreateTwoWayMergePatch from the event with count 0, lastTimestamp at the epoch
 * and no message to the event itself. Only those three fields differ between the two sides,
 * none of them a list, so the patch is the fields whose JSON differs, with Go's omitempty (a
 * zero count or empty message is absent) and keys in Go's sorted order.
 */
function twoWayPatch(event: Event): Uint8Array {
  const patch: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if ((event.count ?? 0) !== 0) patch['count'] = event.count;
  const last = event.lastTimestamp ?? null;
  if (last !== EPOCH) patch['lastTimestamp'] = last;
  if ((event.message ?? '') !== '') patch['message'] = event.message;
  return Buffer.from(JSON.stringify(patch), 'utf8');
}
