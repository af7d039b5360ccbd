import { EventAggregator } from './aggregator.js';
import { EventLogger } from './event-logger.js';
import { eventAggregatorByReasonFunc, eventAggregatorByReasonMessageFunc, getSpamKey, type EventAggregatorKeyFunc, type EventAggregatorMessageFunc, type EventSpamKeyFunc } from './keys.js';
import { EventSourceObjectSpamFilter } from './spam-filter.js';
import type { PassiveClock } from './time.js';
import type { Event } from './types.js';

/** kube's defaults (events_cache.go). */
export const MAX_LRU_CACHE_ENTRIES = 4096;
/** A similar event more than 10 times in 10 minutes is aggregated. */
export const DEFAULT_AGGREGATE_MAX_EVENTS = 10;
export const DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS = 600;
/** A source may send 25 events about an object, then one every 5 minutes. */
export const DEFAULT_SPAM_BURST = 25;
export const DEFAULT_SPAM_QPS = 1 / 300;

/** CorrelatorOptions: every field optional, a zero or absent one takes kube's default. */
export interface CorrelatorOptions {
  /** Size of each of the three LRU caches. */
  readonly lruCacheSize?: number;
  readonly burstSize?: number;
  readonly qps?: number;
  readonly keyFunc?: EventAggregatorKeyFunc;
  readonly messageFunc?: EventAggregatorMessageFunc;
  readonly maxEvents?: number;
  readonly maxIntervalInSeconds?: number;
  readonly clock?: PassiveClock;
  readonly spamKeyFunc?: EventSpamKeyFunc;
}

/** What the correlator decided (EventCorrelateResult). */
export type EventCorrelateResult =
  | { readonly skip: true }
  | {
      readonly skip: false;
      /** The event to write. */
      readonly event: Event;
      /** For a repeat: the strategic merge patch to apply to the stored event instead of creating it. */
      readonly patch: Uint8Array | undefined;
    };

const realPassiveClock: PassiveClock = { now: () => Date.now() };

const orDefault = <T>(v: T | undefined, d: T): T => (v === undefined || v === 0 ? d : v);

/**
 * EventCorrelator: before an event is written, aggregates similar ones, counts repeats (which
 * become patches of the stored event) and skips what the spam filter refuses. One per sink, so
 * that two sinks keep separate state.
 */
export class EventCorrelator {
  readonly #filter: EventSourceObjectSpamFilter;
  readonly #aggregator: EventAggregator;
  readonly #logger: EventLogger;

  constructor(options: CorrelatorOptions = {}) {
    const size = orDefault(options.lruCacheSize, MAX_LRU_CACHE_ENTRIES);
    const clock = options.clock ?? realPassiveClock;
    this.#filter = new EventSourceObjectSpamFilter(size, orDefault(options.burstSize, DEFAULT_SPAM_BURST), orDefault(options.qps, DEFAULT_SPAM_QPS), clock, options.spamKeyFunc ?? getSpamKey);
    this.#aggregator = new EventAggregator(
      size,
      options.keyFunc ?? eventAggregatorByReasonFunc,
      options.messageFunc ?? eventAggregatorByReasonMessageFunc,
      orDefault(options.maxEvents, DEFAULT_AGGREGATE_MAX_EVENTS),
      orDefault(options.maxIntervalInSeconds, DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS),
      clock,
    );
    this.#logger = new EventLogger(size);
  }

  /** EventCorrelate: filters, aggregates and counts an event. Does not mutate `newEvent`. */
  eventCorrelate(newEvent: Event): EventCorrelateResult {
    const aggregated = this.#aggregator.eventAggregate(newEvent);
    const observed = this.#logger.eventObserve(aggregated.event, aggregated.key);
    if (this.#filter.filter(observed.event)) return { skip: true };
    return { skip: false, event: observed.event, patch: observed.patch };
  }

  /** UpdateState: the server's copy of a written event (name, resourceVersion, count) becomes what later repeats patch. */
  updateState(event: Event): void {
    this.#logger.updateState(event);
  }
}
