import type { EventAggregatorKeyFunc, EventAggregatorMessageFunc } from './keys.js';
import { getEventKey } from './keys.js';
import { LRU } from '../../apimachinery/util/cache/lru.js';
import { formatTime, uniqueUnixNano, type PassiveClock } from './time.js';
import type { Event } from './types.js';

interface AggregateRecord {
  /** The distinct local keys (messages) seen in the group, never more than maxEvents - 1 kept. */
  readonly localKeys: Set<string>;
  /** When the group last saw an event, in ms. */
  lastTimestamp: number;
}

/**
 * EventAggregator: once `maxEvents` distinct events of one group (by default: one source, object,
 * type and reason, differing only in message) arrive with less than `maxIntervalInSeconds`
 * between them, further ones are replaced by one aggregate event whose message the message func
 * makes ("(combined from similar events): …"), which the event logger then counts.
 */
export class EventAggregator {
  readonly #cache: LRU<AggregateRecord>;

  constructor(
    lruCacheSize: number,
    private readonly keyFunc: EventAggregatorKeyFunc,
    private readonly messageFunc: EventAggregatorMessageFunc,
    private readonly maxEvents: number,
    private readonly maxIntervalInSeconds: number,
    private readonly clock: PassiveClock,
  ) {
    this.#cache = new LRU(lruCacheSize);
  }

  /**
   * Returns the event to record (the one given, or a new aggregate event) and the key the event
   * logger counts it under: the event's full key, or the aggregate key for an aggregate event,
   * so that later aggregates of the group update the same event. Does not mutate `newEvent`.
   */
  eventAggregate(newEvent: Event): { readonly event: Event; readonly key: string } {
    const now = this.clock.now();
    const eventKey = getEventKey(newEvent);
    const { aggregateKey, localKey } = this.keyFunc(newEvent);

    let record = this.#cache.get(aggregateKey);
    // A group that was quiet longer than the interval starts afresh (an absent one too).
    if (record === undefined || now - record.lastTimestamp > this.maxIntervalInSeconds * 1000) record = { localKeys: new Set(), lastTimestamp: 0 };
    record.localKeys.add(localKey);
    record.lastTimestamp = now;
    this.#cache.add(aggregateKey, record);

    if (record.localKeys.size < this.maxEvents) return { event: newEvent, key: eventKey };

    // Keep the set below the threshold: Go's PopAny removes an arbitrary member.
    const any = record.localKeys.values().next();
    if (any.done !== true) record.localKeys.delete(any.value);

    const time = formatTime(now);
    const event: Event = {
      metadata: {
        name: `${newEvent.involvedObject?.name ?? ''}.${uniqueUnixNano(now).toString(16)}`,
        ...(newEvent.metadata?.namespace !== undefined ? { namespace: newEvent.metadata.namespace } : {}),
      },
      count: 1,
      firstTimestamp: time,
      involvedObject: newEvent.involvedObject ?? {},
      lastTimestamp: time,
      message: this.messageFunc(newEvent),
    };
    if (newEvent.type !== undefined) event.type = newEvent.type;
    if (newEvent.reason !== undefined) event.reason = newEvent.reason;
    if (newEvent.source !== undefined) event.source = newEvent.source;
    return { event, key: aggregateKey };
  }
}
