// Event recording (client-go's tools/record): recorders make core/v1 events about objects, a
// broadcaster hands them to sinks through a correlator (aggregation, counting, spam filter).
export { newBroadcaster, MAX_QUEUED_EVENTS, type BroadcasterOptions, type EventBroadcaster, type EventWatch } from './event-broadcaster.js';
export type { RecorderOptions } from './recorder.js';
export {
  EventCorrelator,
  MAX_LRU_CACHE_ENTRIES,
  DEFAULT_AGGREGATE_MAX_EVENTS,
  DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS,
  DEFAULT_SPAM_BURST,
  DEFAULT_SPAM_QPS,
  type CorrelatorOptions,
  type EventCorrelateResult,
} from './correlator.js';
export { EventAggregator } from './aggregator.js';
export { EventSourceObjectSpamFilter } from './spam-filter.js';
export {
  getEventKey,
  getSpamKey,
  eventAggregatorByReasonFunc,
  eventAggregatorByReasonMessageFunc,
  type EventAggregatorKeyFunc,
  type EventAggregatorMessageFunc,
  type EventSpamKeyFunc,
} from './keys.js';
export { recordToSink, recordEvent, RequestConstructionError, MAX_TRIES_PER_EVENT, DEFAULT_SLEEP_DURATION_MS, type RecordToSinkContext } from './record-to-sink.js';
export { RESTEventSink } from './sink.js';
export { FakeRecorder, type FakeRecorderOptions } from './fake.js';
export { getReference, getPartialReference, ObjectReferenceError, type ObjectKindsFunc } from './reference.js';
export { sprintf } from './format.js';
export type { PassiveClock } from './time.js';
export { EVENT_TYPE_NORMAL, EVENT_TYPE_WARNING, validateEventType } from './types.js';
export type { Event, EventSink, EventSource, EventRecorder, ObjectReference, Referenceable } from './types.js';
