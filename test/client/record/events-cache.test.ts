// Port of k8s.io/client-go/tools/record/events_cache_test.go.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS,
  DEFAULT_AGGREGATE_MAX_EVENTS,
  DEFAULT_SPAM_BURST,
  EventCorrelator,
  eventAggregatorByReasonFunc,
  eventAggregatorByReasonMessageFunc,
  type Event,
  type EventSpamKeyFunc,
} from '../../../runtime/client/record/index.js';
import { formatTime } from '../../../runtime/client/record/time.js';
import { makeEvent, makeEvents, makeObjectReference, makeSimilarEvents, makeUniqueEvents, setCount, SimpleIntervalClock, validateEvent } from './helpers.js';

describe('events cache (events_cache_test.go)', () => {
  test('TestEventAggregatorByReasonFunc: events that differ only in message share the aggregate key', () => {
    const event1 = makeEvent('end-of-world', 'it was fun', makeObjectReference('Pod', 'pod1', 'other'));
    const event2 = makeEvent('end-of-world', 'it was awful', makeObjectReference('Pod', 'pod1', 'other'));
    const event3 = makeEvent('nevermind', 'it was a bug', makeObjectReference('Pod', 'pod1', 'other'));
    const k1 = eventAggregatorByReasonFunc(event1);
    const k2 = eventAggregatorByReasonFunc(event2);
    const k3 = eventAggregatorByReasonFunc(event3);
    assert.equal(k1.aggregateKey, k2.aggregateKey);
    assert.notEqual(k1.localKey, k2.localKey);
    assert.notEqual(k1.aggregateKey, k3.aggregateKey);
  });

  test('TestEventAggregatorByReasonMessageFunc: the aggregate message is prefixed', () => {
    const event1 = makeEvent('end-of-world', 'it was fun', makeObjectReference('Pod', 'pod1', 'other'));
    assert.equal(eventAggregatorByReasonMessageFunc(event1), '(combined from similar events): it was fun');
  });

  describe('TestEventCorrelator', () => {
    const firstEvent = makeEvent('first', 'i am first', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const duplicateEvent = makeEvent('duplicate', 'me again', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const uniqueEvent = makeEvent('unique', 'snowflake', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const similarEvent = makeEvent('similar', 'similar message', { ...makeObjectReference('Pod', 'my-pod', 'my-ns'), fieldPath: 'spec.containers{container1}' });
    const aggregateEvent = makeEvent(similarEvent.reason ?? '', eventAggregatorByReasonMessageFunc(similarEvent), similarEvent.involvedObject ?? {});
    const similarButDifferentContainerEvent: Event = { ...similarEvent, involvedObject: { ...similarEvent.involvedObject, fieldPath: 'spec.containers{container2}' } };

    const scenarios: Record<string, { previousEvents: Event[]; newEvent: Event; expectedEvent?: Event; intervalSeconds: number; expectedSkip?: boolean }> = {
      'create-a-single-event': { previousEvents: [], newEvent: firstEvent, expectedEvent: setCount(firstEvent, 1), intervalSeconds: 5 },
      'the-same-event-should-just-count': { previousEvents: makeEvents(1, duplicateEvent), newEvent: duplicateEvent, expectedEvent: setCount(duplicateEvent, 2), intervalSeconds: 5 },
      'the-same-event-should-just-count-even-if-more-than-aggregate': {
        previousEvents: makeEvents(DEFAULT_AGGREGATE_MAX_EVENTS, duplicateEvent),
        newEvent: duplicateEvent,
        expectedEvent: setCount(duplicateEvent, DEFAULT_AGGREGATE_MAX_EVENTS + 1),
        intervalSeconds: 30, // larger interval induces aggregation but not spam.
      },
      'the-same-event-is-spam-if-happens-too-frequently': { previousEvents: makeEvents(DEFAULT_SPAM_BURST + 1, duplicateEvent), newEvent: duplicateEvent, expectedSkip: true, intervalSeconds: 1 },
      'create-many-unique-events': { previousEvents: makeUniqueEvents(30), newEvent: uniqueEvent, expectedEvent: setCount(uniqueEvent, 1), intervalSeconds: 5 },
      'similar-events-should-aggregate-event': {
        previousEvents: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS - 1, similarEvent, similarEvent.message ?? ''),
        newEvent: similarEvent,
        expectedEvent: setCount(aggregateEvent, 1),
        intervalSeconds: 5,
      },
      'similar-events-many-times-should-count-the-aggregate': {
        previousEvents: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS, similarEvent, similarEvent.message ?? ''),
        newEvent: similarEvent,
        expectedEvent: setCount(aggregateEvent, 2),
        intervalSeconds: 5,
      },
      'events-from-different-containers-do-not-aggregate': {
        previousEvents: makeEvents(1, similarButDifferentContainerEvent),
        newEvent: similarEvent,
        expectedEvent: setCount(similarEvent, 1),
        intervalSeconds: 5,
      },
      'similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate': {
        previousEvents: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS - 1, similarEvent, similarEvent.message ?? ''),
        newEvent: similarEvent,
        expectedEvent: setCount(similarEvent, 1),
        intervalSeconds: DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS,
      },
    };

    for (const [name, input] of Object.entries(scenarios)) {
      test(name, () => {
        const clock = new SimpleIntervalClock(Date.now(), input.intervalSeconds * 1000);
        const correlator = new EventCorrelator({ clock });
        for (const prev of input.previousEvents) {
          const now = formatTime(clock.now());
          const result = correlator.eventCorrelate({ ...prev, firstTimestamp: now, lastTimestamp: now });
          // A skipped event leaves the state alone.
          if (!result.skip) correlator.updateState(result.event);
        }
        const now = formatTime(clock.now());
        const result = correlator.eventCorrelate({ ...input.newEvent, firstTimestamp: now, lastTimestamp: now });
        assert.equal(result.skip, input.expectedSkip ?? false);
        if (result.skip || input.expectedEvent === undefined) return;
        validateEvent(name, result.event, input.expectedEvent);
      });
    }
  });

  describe('TestEventSpamFilter', () => {
    const spamKeyFuncBasedOnObjectsAndReason: EventSpamKeyFunc = (e) =>
      [e.source?.component, e.source?.host, e.involvedObject?.kind, e.involvedObject?.namespace, e.involvedObject?.name, e.involvedObject?.uid, e.involvedObject?.apiVersion, e.reason].join('');
    const originalEvent = makeEvent('original', 'i am first', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const differentReasonEvent = makeEvent('duplicate', 'me again', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const spamEvent = makeEvent('original', 'me again', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const cases: Record<string, { newEvent: Event; expectedEvent?: Event; expectedSkip: boolean; spamKeyFunc?: EventSpamKeyFunc }> = {
      'event should be reported as spam if object reference is the same for default spam filter': { newEvent: differentReasonEvent, expectedSkip: true },
      'event should not be reported as spam if object reference is the same, but reason is different for custom spam filter': {
        newEvent: differentReasonEvent,
        expectedEvent: differentReasonEvent,
        expectedSkip: false,
        spamKeyFunc: spamKeyFuncBasedOnObjectsAndReason,
      },
      'event should  be reported as spam if object reference and reason is the same, but message is different for custom spam filter': {
        newEvent: spamEvent,
        expectedSkip: true,
        spamKeyFunc: spamKeyFuncBasedOnObjectsAndReason,
      },
    };
    for (const [name, input] of Object.entries(cases)) {
      test(name, () => {
        const clock = new SimpleIntervalClock(Date.now(), 1000);
        const correlator = new EventCorrelator({ clock, burstSize: 1, ...(input.spamKeyFunc !== undefined ? { spamKeyFunc: input.spamKeyFunc } : {}) });
        const first = correlator.eventCorrelate(originalEvent);
        if (!first.skip) correlator.updateState(first.event);
        const result = correlator.eventCorrelate(input.newEvent);
        assert.equal(result.skip, input.expectedSkip);
        if (result.skip || input.expectedEvent === undefined) return;
        validateEvent(name, result.event, input.expectedEvent);
      });
    }
  });

  test('the spam filter refills one token every 1/qps seconds (defaultSpamQPS: one event per 5 minutes after the burst)', () => {
    let t = Date.now();
    const correlator = new EventCorrelator({ clock: { now: () => t } });
    const event = makeEvent('r', 'm', makeObjectReference('Pod', 'p', 'ns'));
    for (let i = 0; i < DEFAULT_SPAM_BURST; i++) assert.equal(correlator.eventCorrelate(event).skip, false, `event ${i}`);
    assert.equal(correlator.eventCorrelate(event).skip, true);
    t += 299_000;
    assert.equal(correlator.eventCorrelate(event).skip, true);
    t += 1_000;
    assert.equal(correlator.eventCorrelate(event).skip, false);
    assert.equal(correlator.eventCorrelate(event).skip, true);
  });

  test('a repeat carries the strategic merge patch of count, lastTimestamp and message, in Go key order', () => {
    let t = Date.UTC(2024, 0, 1);
    const correlator = new EventCorrelator({ clock: { now: () => t } });
    const event = (): Event => ({ ...makeEvent('r', 'the message', makeObjectReference('Pod', 'p', 'ns')), firstTimestamp: formatTime(t), lastTimestamp: formatTime(t) });
    const first = correlator.eventCorrelate(event());
    assert.ok(!first.skip);
    assert.equal(first.patch, undefined);
    correlator.updateState({ ...first.event, metadata: { ...first.event.metadata, name: 'p.17a', resourceVersion: '42' } });
    t += 5_000;
    const second = correlator.eventCorrelate(event());
    assert.ok(!second.skip);
    assert.equal(second.event.count, 2);
    assert.equal(second.event.metadata?.name, 'p.17a');
    assert.equal(second.event.metadata?.resourceVersion, '42');
    assert.equal(second.event.firstTimestamp, '2024-01-01T00:00:00Z');
    assert.equal(Buffer.from(second.patch ?? new Uint8Array()).toString(), '{"count":2,"lastTimestamp":"2024-01-01T00:00:05Z","message":"the message"}');
  });

  test('the LRU caches are bounded: an evicted event is recorded afresh', () => {
    const correlator = new EventCorrelator({ lruCacheSize: 2, clock: { now: () => 0 } });
    const events = makeUniqueEvents(3);
    for (const e of events) {
      const r = correlator.eventCorrelate(e);
      assert.ok(!r.skip);
      correlator.updateState(r.event);
    }
    const again = correlator.eventCorrelate(events[0] as Event);
    assert.ok(!again.skip);
    assert.equal(again.event.count, 1);
    assert.equal(again.patch, undefined);
  });

  test('hostile keys: __proto__ as a namespace, name and message are data', () => {
    const correlator = new EventCorrelator({ clock: { now: () => 0 } });
    const e = makeEvent('__proto__', '__proto__', makeObjectReference('__proto__', '__proto__', '__proto__'));
    const first = correlator.eventCorrelate(e);
    assert.ok(!first.skip);
    correlator.updateState(first.event);
    const second = correlator.eventCorrelate(e);
    assert.ok(!second.skip);
    assert.equal(second.event.count, 2);
    assert.equal(({} as Record<string, unknown>)['count'], undefined);
  });
});
