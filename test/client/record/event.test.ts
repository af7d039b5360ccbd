// Port of k8s.io/client-go/tools/record/event_test.go, against a sink in memory.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StatusError } from '../../../runtime/apimachinery/errors/index.js';
import type { Logger } from '../../../runtime/client/cache/log.js';
import {
  EventCorrelator,
  getPartialReference,
  MAX_QUEUED_EVENTS,
  MAX_TRIES_PER_EVENT,
  newBroadcaster,
  recordToSink,
  RequestConstructionError,
  type Event,
  type EventBroadcaster,
  type RecordToSinkContext,
} from '../../../runtime/client/record/index.js';
import { FakeClock, realClock } from '../../../runtime/client/workqueue/clock.js';
import { Channel, onCreateFactory, onPatchFactory, SimpleIntervalClock, TestEventSink, validateEvent } from './helpers.js';

interface LogEntry {
  readonly level: 'error' | 'info';
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>> | undefined;
}

function captureLogger(): Logger & { readonly entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return {
    entries,
    error: (message, details) => entries.push({ level: 'error', message, details }),
    info: (message, details) => entries.push({ level: 'info', message, details }),
  };
}

/** newBroadcasterForTests: no sleeping between tries; shut down after the test. */
function broadcasterForTests(t: { after(fn: () => void): void }, logger: Logger = captureLogger()): EventBroadcaster {
  const caster = newBroadcaster({ sleepDuration: 0, logger });
  t.after(() => caster.shutdown());
  return caster;
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const testPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', namespace: 'baz', uid: 'bar' } };
const testPod2 = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', namespace: 'baz', uid: 'differentUid' } };

interface Item {
  readonly obj: object;
  readonly reason: string;
  readonly messageFmt: string;
  readonly expect: Event;
  readonly expectLog: string;
  readonly expectUpdate: boolean;
}

/** The table TestEventf and TestMultiSinkCache share. */
function eventfTable(): Item[] {
  const testRef = getPartialReference(testPod, 'spec.containers[2]');
  const testRef2 = getPartialReference(testPod2, 'spec.containers[3]');
  const expect = (uid: string, fieldPath: string | undefined, reason: string, message: string, count: number): Event => ({
    metadata: { name: 'foo', namespace: 'baz' },
    involvedObject: { kind: 'Pod', name: 'foo', namespace: 'baz', uid, apiVersion: 'v1', ...(fieldPath !== undefined ? { fieldPath } : {}) },
    reason,
    message,
    source: { component: 'eventTest' },
    reportingComponent: 'eventTest',
    count,
    type: 'Normal',
  });
  const log = (uid: string, fieldPath: string, reason: string, message: string): string =>
    `Event(v1.ObjectReference{Kind:"Pod", Namespace:"baz", Name:"foo", UID:"${uid}", APIVersion:"v1", ResourceVersion:"", FieldPath:"${fieldPath}"}): type: 'Normal' reason: '${reason}' ${message}`;
  const started = (n: number): Item => ({
    obj: testRef,
    reason: 'Started',
    messageFmt: 'some verbose message: %v',
    expect: expect('bar', 'spec.containers[2]', 'Started', 'some verbose message: 1', n),
    expectLog: log('bar', 'spec.containers[2]', 'Started', 'some verbose message: 1'),
    expectUpdate: n > 1,
  });
  const ref2 = (reason: string, n: number): Item => ({
    obj: testRef2,
    reason,
    messageFmt: 'some verbose message: %v',
    expect: expect('differentUid', 'spec.containers[3]', reason, 'some verbose message: 1', n),
    expectLog: log('differentUid', 'spec.containers[3]', reason, 'some verbose message: 1'),
    expectUpdate: n > 1,
  });
  return [
    started(1),
    {
      obj: testPod,
      reason: 'Killed',
      messageFmt: 'some other verbose message: %v',
      expect: expect('bar', undefined, 'Killed', 'some other verbose message: 1', 1),
      expectLog: log('bar', '', 'Killed', 'some other verbose message: 1'),
      expectUpdate: false,
    },
    started(2),
    ref2('Started', 1),
    started(3),
    ref2('Stopped', 1),
    ref2('Stopped', 2),
  ];
}

/** A sink whose creates and patches arrive on channels, patches applied as the server applies them. */
function channelSink(): { sink: TestEventSink; created: Channel<Event>; patched: Channel<Event>; updated: Channel<Event> } {
  const cache = new Map<string, Event>();
  const created = new Channel<Event>();
  const patched = new Channel<Event>();
  const updated = new Channel<Event>();
  const sink = new TestEventSink({
    onCreate: onCreateFactory(cache, created),
    onUpdate: (e) => {
      updated.send(e);
      return e;
    },
    onPatch: onPatchFactory(cache, patched),
  });
  return { sink, created, patched, updated };
}

describe('event recording (event_test.go)', () => {
  test('TestBroadcasterShutdown: aborting the signal shuts the broadcaster and its consumers down', async () => {
    const logger = captureLogger();
    const ac = new AbortController();
    const caster = newBroadcaster({ signal: ac.signal, logger });
    caster.startStructuredLogging();
    ac.abort(new Error('time to stop'));
    await settle();
    const recorder = caster.newRecorder({ component: 'eventTest' });
    recorder.event(testPod, 'Normal', 'Started', 'after shutdown');
    await settle();
    assert.deepEqual(
      logger.entries.map((e) => e.message),
      ['Unable to record event (will not retry!)'],
    );
    // Shutting down again is harmless, and a watcher started now is an empty one.
    caster.shutdown();
    caster.startEventWatcher(() => assert.fail('no event after shutdown')).stop();
  });

  test('TestStartEventWatcherExitsOnDirectShutdown: shutdown ends the consumers', async () => {
    const caster = newBroadcaster({ sleepDuration: 0, logger: captureLogger() });
    let handled = 0;
    caster.startEventWatcher(() => void handled++);
    caster.shutdown();
    await settle();
    caster.newRecorder({ component: 'eventTest' }).event(testPod, 'Normal', 'Started', 'x');
    await settle();
    assert.equal(handled, 0);
  });

  test('TestNonRacyShutdown: events recorded right before shutdown never throw', (t) => {
    const caster = broadcasterForTests(t);
    const recorder = caster.newRecorder({ component: 'eventTest' }, { clock: new FakeClock(Date.now()) });
    for (let i = 0; i < 100; i++) recorder.eventf({ kind: 'Pod' }, 'Normal', 'Started', 'blah');
    caster.shutdown();
  });

  test('TestEventf: events are created, repeats patched with their count; StartLogging and structured logging see each', async () => {
    const { sink, created, patched } = channelSink();
    const logger = captureLogger();
    const caster = broadcasterForTests({ after: () => {} }, logger);
    try {
      const sinkWatcher = caster.startRecordingToSink(sink);
      const clock = new FakeClock(Date.now());
      const recorder = caster.newRecorder({ component: 'eventTest' }, { clock });
      for (const [index, item] of eventfTable().entries()) {
        clock.step(1000);
        const logCalled = new Channel<string>();
        const logWatcher = caster.startLogging((m) => logCalled.send(m));
        const structuredLogWatcher = caster.startStructuredLogging();
        const logged = logger.entries.length;
        recorder.eventf(item.obj, 'Normal', item.reason, item.messageFmt, 1);
        assert.equal(await logCalled.receive(), item.expectLog);
        const actual = item.expectUpdate ? await patched.receive() : await created.receive();
        validateEvent(String(index), actual, item.expect);
        const o = item.expect.involvedObject;
        assert.deepEqual(
          logger.entries.slice(logged).find((e) => e.message === 'Event occurred'),
          {
            level: 'info',
            message: 'Event occurred',
            details: { object: 'baz/foo', fieldPath: o?.fieldPath ?? '', kind: 'Pod', apiVersion: 'v1', type: 'Normal', reason: item.reason, message: item.expect.message },
          },
        );
        logWatcher.stop();
        structuredLogWatcher.stop();
      }
      sinkWatcher.stop();
      assert.equal(created.pending + patched.pending, 0);
    } finally {
      caster.shutdown();
    }
  });

  describe('TestWriteEventError', () => {
    const cases: Record<string, { timesToSendError: number; attemptsWanted: number; err: () => unknown }> = {
      giveUp1: { timesToSendError: 1000, attemptsWanted: 1, err: () => new RequestConstructionError('') },
      giveUp2: { timesToSendError: 1000, attemptsWanted: 1, err: () => new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: '', code: 0 }) },
      retry1: { timesToSendError: 1000, attemptsWanted: MAX_TRIES_PER_EVENT, err: () => new TypeError('unexpected object') },
      retry2: { timesToSendError: 1000, attemptsWanted: MAX_TRIES_PER_EVENT, err: () => new Error('A weird error') },
      succeedEventually: { timesToSendError: 2, attemptsWanted: 2, err: () => new Error('A weird error') },
    };
    const correlator = new EventCorrelator({ clock: new SimpleIntervalClock(Date.now(), 1000) });
    for (const [name, c] of Object.entries(cases)) {
      test(name, async () => {
        let attempts = 0;
        const sink = new TestEventSink({
          onCreate: (e) => {
            attempts++;
            if (attempts < c.timesToSendError) throw c.err();
            return e;
          },
        });
        await recordToSink(sink, { metadata: {}, involvedObject: {} }, correlator, sinkContext());
        assert.equal(attempts, c.attemptsWanted);
      });
    }
  });

  test('TestUpdateExpiredEvent: a repeat whose stored event expired (404 on patch) is created again, without resourceVersion', async () => {
    const correlator = new EventCorrelator({ clock: new SimpleIntervalClock(Date.now(), 1000) });
    let createdEvent: Event | undefined;
    const sink = new TestEventSink({
      onPatch: () => {
        throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: '', code: 404, reason: 'NotFound' });
      },
      onCreate: (e) => (createdEvent = e),
    });
    await recordToSink(sink, { metadata: { resourceVersion: 'updated-resource-version' }, involvedObject: {}, count: 2 }, correlator, sinkContext());
    assert.ok(createdEvent !== undefined, 'Event did not get created after patch failed');
    assert.equal(createdEvent.metadata?.resourceVersion ?? '', '');
  });

  test('TestCancelEvent: a shut down broadcaster tries an event once, then gives up without sleeping', async () => {
    const correlator = new EventCorrelator({ clock: new SimpleIntervalClock(Date.now(), 1000) });
    let attempts = 0;
    const sink = new TestEventSink({
      onCreate: () => {
        attempts++;
        throw new TypeError('unexpected object');
      },
    });
    const ac = new AbortController();
    ac.abort();
    const logger = captureLogger();
    await recordToSink(sink, { metadata: {}, involvedObject: {} }, correlator, { ...sinkContext(logger), signal: ac.signal, sleepDuration: 1000 });
    assert.equal(attempts, 1);
    assert.deepEqual(
      logger.entries.map((e) => e.message),
      ['Unable to write event (may retry after sleeping)', 'Unable to write event (broadcaster is shut down)'],
    );
  });

  test('a shutdown during the sleep between tries ends them', async () => {
    const clock = new FakeClock(0);
    const ac = new AbortController();
    let attempts = 0;
    const sink = new TestEventSink({
      onCreate: () => {
        attempts++;
        throw new Error('connection refused');
      },
    });
    const done = recordToSink(sink, { metadata: {}, involvedObject: {} }, new EventCorrelator({ clock }), { ...sinkContext(), clock, signal: ac.signal, sleepDuration: 10_000, random: () => 0.5 });
    await settle();
    assert.equal(attempts, 1);
    assert.equal(clock.pendingTimers(), 1);
    clock.step(5_000); // the first sleep is randomised: 10 s × 0.5
    await settle();
    assert.equal(attempts, 2);
    ac.abort();
    await done;
    assert.equal(attempts, 2);
    assert.equal(clock.pendingTimers(), 0);
  });

  test('AlreadyExists and a terminating namespace are dropped quietly, other rejections logged as errors', async () => {
    const status = (code: number, reason: 'AlreadyExists' | 'Forbidden', causes?: { reason: string }[]): StatusError =>
      new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'm', code, reason, ...(causes ? { details: { causes } } : {}) });
    for (const [err, level] of [
      [status(409, 'AlreadyExists'), 'info'],
      [status(403, 'Forbidden', [{ reason: 'NamespaceTerminating' }]), 'info'],
      [status(403, 'Forbidden'), 'error'],
    ] as const) {
      const logger = captureLogger();
      let attempts = 0;
      const sink = new TestEventSink({
        onCreate: () => {
          attempts++;
          throw err;
        },
      });
      await recordToSink(sink, { metadata: {}, involvedObject: {} }, new EventCorrelator(), sinkContext(logger));
      assert.equal(attempts, 1);
      assert.deepEqual(
        logger.entries.map((e) => [e.level, e.message]),
        [[level, 'Server rejected event (will not retry!)']],
      );
    }
  });

  test('TestLotsOfEvents: a full queue of events, each failing four times, reaches the sink and the log', async (t) => {
    const counts = new Array<number>(MAX_QUEUED_EVENTS).fill(0);
    let recorded = 0;
    let logged = 0;
    const sink = new TestEventSink({
      onCreate: (e) => {
        const n = Number(e.message);
        counts[n] = (counts[n] ?? 0) + 1;
        if ((counts[n] ?? 0) < 5) throw new Error('fake error');
        recorded++;
        return e;
      },
    });
    const caster = broadcasterForTests(t);
    const sinkWatcher = caster.startRecordingToSink(sink);
    const logWatcher = caster.startLogging(() => void logged++);
    const recorder = caster.newRecorder({ component: 'eventTest' });
    for (let i = 0; i < MAX_QUEUED_EVENTS; i++) {
      // A unique object defeats the spam filter, a unique reason the aggregation.
      recorder.eventf({ kind: 'Pod', name: `foo-${i}`, namespace: 'baz', uid: 'bar', apiVersion: 'version' }, 'Normal', `Reason-${i}`, '%s', String(i));
    }
    const deadline = Date.now() + 20_000;
    while ((recorded < MAX_QUEUED_EVENTS || logged < MAX_QUEUED_EVENTS) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(recorded, MAX_QUEUED_EVENTS);
    assert.equal(logged, MAX_QUEUED_EVENTS);
    for (const [i, c] of counts.entries()) assert.ok(c >= 5, `Only attempted to record event '${i}' ${c} times.`);
    sinkWatcher.stop();
    logWatcher.stop();
  });

  test('TestEventfNoNamespace: an event about a cluster-scoped object goes to the default namespace', async (t) => {
    const { sink, created } = channelSink();
    const caster = broadcasterForTests(t);
    const sinkWatcher = caster.startRecordingToSink(sink);
    const clock = new FakeClock(Date.now());
    const recorder = caster.newRecorder({ component: 'eventTest' }, { clock });
    const testRef = getPartialReference({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', uid: 'bar' } }, 'spec.containers[2]');
    clock.step(1000);
    const logCalled = new Channel<string>();
    const logWatcher = caster.startLogging((m) => logCalled.send(m));
    recorder.eventf(testRef, 'Normal', 'Started', 'some verbose message: %v', 1);
    assert.equal(
      await logCalled.receive(),
      `Event(v1.ObjectReference{Kind:"Pod", Namespace:"", Name:"foo", UID:"bar", APIVersion:"v1", ResourceVersion:"", FieldPath:"spec.containers[2]"}): type: 'Normal' reason: 'Started' some verbose message: 1`,
    );
    validateEvent('0', await created.receive(), {
      metadata: { name: 'foo', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'foo', uid: 'bar', apiVersion: 'v1', fieldPath: 'spec.containers[2]' },
      reason: 'Started',
      message: 'some verbose message: 1',
      source: { component: 'eventTest' },
      count: 1,
      type: 'Normal',
    });
    logWatcher.stop();
    sinkWatcher.stop();
  });

  test('TestMultiSinkCache: a second sink starts with a clean correlator', async (t) => {
    const first = channelSink();
    const second = channelSink();
    const caster = broadcasterForTests(t);
    const clock = new FakeClock(Date.now());
    const recorder = caster.newRecorder({ component: 'eventTest' }, { clock });
    for (const { sink, created, patched } of [first, second]) {
      const sinkWatcher = caster.startRecordingToSink(sink);
      for (const [index, item] of eventfTable().entries()) {
        clock.step(1000);
        recorder.eventf(item.obj, 'Normal', item.reason, item.messageFmt, 1);
        validateEvent(String(index), item.expectUpdate ? await patched.receive() : await created.receive(), item.expect);
      }
      sinkWatcher.stop();
    }
  });
});

/** The broadcaster's side of recordToSink, as the Go tests build eventBroadcasterImpl by hand. */
function sinkContext(logger: Logger = captureLogger()): RecordToSinkContext {
  return { signal: new AbortController().signal, sleepDuration: 0, clock: realClock, random: Math.random, logger };
}
