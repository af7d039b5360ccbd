// The recorder, broadcaster, sink and fake beyond event_test.go: kube's reference rules, the
// event name, drop behaviour of the bounded queues, the REST sink's requests, FakeRecorder.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Event as CoreEvent } from '../../../apis/core/v1/event.js';
import type { Logger } from '../../../runtime/client/cache/log.js';
import { Broadcaster } from '../../../runtime/client/record/broadcaster.js';
import { FakeRecorder, getReference, newBroadcaster, ObjectReferenceError, RESTEventSink, sprintf, type Event } from '../../../runtime/client/record/index.js';
import { generateEventName } from '../../../runtime/client/record/time.js';
import type { RESTClient, RESTRequest } from '../../../runtime/client/types.js';
import { FakeClock } from '../../../runtime/client/workqueue/clock.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function captureLogger(): Logger & { readonly messages: string[] } {
  const messages: string[] = [];
  return { messages, error: (m) => messages.push(m), info: (m) => messages.push(m) };
}

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'prod', uid: 'u-1', resourceVersion: '7', labels: { a: 'b' } }, spec: {} };

describe('getReference (tools/reference)', () => {
  test('an object gives kind, apiVersion, name, namespace, uid and resourceVersion', () => {
    assert.deepEqual(getReference(pod), { kind: 'Pod', namespace: 'prod', name: 'web', uid: 'u-1', apiVersion: 'v1', resourceVersion: '7' });
  });
  test('a reference is returned as it is', () => {
    const ref = { kind: 'Pod', name: 'web', fieldPath: 'spec.containers{app}' };
    assert.equal(getReference(ref), ref);
  });
  test('a list is referenced by kind, apiVersion and resourceVersion', () => {
    assert.deepEqual(getReference({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '9' }, items: [] }), { kind: 'PodList', apiVersion: 'v1', resourceVersion: '9' });
  });
  test("kube's errors: nil, no kind without a way to look it up", () => {
    assert.throws(() => getReference(null), new ObjectReferenceError("can't reference a nil object"));
    assert.throws(() => getReference({ metadata: { name: 'x' } }), new ObjectReferenceError('scheme is required to look up gvk'));
    assert.deepEqual(
      getReference({ metadata: { name: 'x' } }, () => ({ apiVersion: 'v1', kind: 'ConfigMap' })),
      { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' },
    );
  });
});

describe('recorder', () => {
  test('only Normal and Warning are recorded; unreferenceable objects are dropped with a log line', async (t) => {
    const logger = captureLogger();
    const caster = newBroadcaster({ logger, sleepDuration: 0 });
    t.after(() => caster.shutdown());
    const seen: Event[] = [];
    caster.startEventWatcher((e) => void seen.push(e));
    const recorder = caster.newRecorder({ component: 'c', host: 'h' });
    recorder.event(pod, 'Error', 'Failed', 'x');
    recorder.event(null as unknown as object, 'Normal', 'Failed', 'x');
    recorder.event(pod, 'Warning', 'Failed', 'boom');
    await settle();
    assert.deepEqual(logger.messages, ['Unsupported event type', 'Could not construct reference, will not report event']);
    assert.equal(seen.length, 1);
    const e = seen[0] as Event;
    assert.equal(e.type, 'Warning');
    assert.deepEqual(e.source, { component: 'c', host: 'h' });
    assert.equal(e.reportingComponent, 'c');
    assert.equal(e.reportingInstance, 'h');
    assert.equal(e.metadata?.namespace, 'prod');
    assert.match(e.metadata?.name ?? '', /^web\.[0-9a-f]+$/);
    assert.ok(Object.isFrozen(e) && Object.isFrozen(e.involvedObject), 'one object is shared by every watcher');
  });

  test('annotatedEventf keeps annotations as data, __proto__ included; timestamps come from the clock at seconds precision', async (t) => {
    const caster = newBroadcaster({ logger: captureLogger() });
    t.after(() => caster.shutdown());
    const seen: Event[] = [];
    caster.startEventWatcher((e) => void seen.push(e));
    const clock = new FakeClock(Date.UTC(2024, 4, 6, 7, 8, 9, 999));
    const annotations = JSON.parse('{"__proto__":"x","k":"v"}') as Record<string, string>;
    caster.newRecorder({ component: 'c' }, { clock }).annotatedEventf(pod, annotations, 'Normal', 'Scaled', 'to %d replicas (%s)', 3, 'up');
    await settle();
    const e = seen[0] as Event;
    assert.equal(e.message, 'to 3 replicas (up)');
    assert.equal(e.firstTimestamp, '2024-05-06T07:08:09Z');
    assert.equal(e.lastTimestamp, '2024-05-06T07:08:09Z');
    assert.equal(JSON.stringify(e.metadata?.annotations), '{"__proto__":"x","k":"v"}');
    assert.equal(Object.getPrototypeOf(e.metadata?.annotations), null);
  });

  test('two events about one object within a millisecond get distinct names', async (t) => {
    const caster = newBroadcaster({ logger: captureLogger() });
    t.after(() => caster.shutdown());
    const seen: Event[] = [];
    caster.startEventWatcher((e) => void seen.push(e));
    const recorder = caster.newRecorder({ component: 'c' }, { clock: new FakeClock(1_000) });
    recorder.event(pod, 'Normal', 'A', 'a');
    recorder.event(pod, 'Normal', 'B', 'b');
    await settle();
    assert.equal(new Set(seen.map((e) => e.metadata?.name)).size, 2);
  });

  test('GenerateEventName: a UUID when <name>.<hex> is no valid object name', () => {
    assert.equal(generateEventName('web', 0x17an), 'web.17a');
    assert.match(generateEventName('', 1n), /^[0-9a-f]{8}-[0-9a-f]{4}-/);
    assert.match(generateEventName('Upper', 1n), /^[0-9a-f]{8}-[0-9a-f]{4}-/);
    assert.match(generateEventName('x'.repeat(252), 1n), /^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});

describe('Broadcaster (watch.Broadcaster, DropIfChannelFull)', () => {
  test('a watcher whose queue is full misses events; the others get every one, in order', async () => {
    const b = new Broadcaster<number>(3);
    const slow = b.watch();
    const fast = b.watch();
    const got: number[] = [];
    const consume = (async () => {
      for (let v = await fast.next(); v !== undefined; v = await fast.next()) got.push(v.item);
    })();
    for (let i = 0; i < 3; i++) assert.equal(b.actionOrDrop(i), true);
    await settle();
    for (let i = 3; i < 6; i++) assert.equal(b.actionOrDrop(i), true);
    await settle();
    b.shutdown();
    await consume;
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5]);
    const slowGot: number[] = [];
    for (let v = await slow.next(); v !== undefined; v = await slow.next()) slowGot.push(v.item);
    assert.deepEqual(slowGot, [0, 1, 2]);
  });

  test('a full incoming queue refuses events; a watcher sees only what came after it; no watch or action after shutdown', async () => {
    const b = new Broadcaster<string>(2);
    const early = b.watch();
    assert.equal(b.actionOrDrop('a'), true);
    assert.equal(b.actionOrDrop('b'), true);
    assert.equal(b.actionOrDrop('c'), false);
    const late = b.watch();
    // Watching moved a and b on to early, so the incoming queue has room again.
    assert.equal(b.actionOrDrop('d'), true);
    await settle();
    b.shutdown();
    // early was full (2): d reached late only; c never got in.
    assert.deepEqual([(await early.next())?.item, (await early.next())?.item, await early.next()], ['a', 'b', undefined]);
    assert.deepEqual([(await late.next())?.item, await late.next()], ['d', undefined]);
    assert.throws(() => b.watch(), /broadcaster already stopped/);
    assert.throws(() => b.actionOrDrop('e'), /broadcaster already stopped/);
  });

  test('the recorder logs what the full queue drops', async (t) => {
    const logger = captureLogger();
    const caster = newBroadcaster({ logger });
    t.after(() => caster.shutdown());
    const recorder = caster.newRecorder({ component: 'c' });
    for (let i = 0; i < 1001; i++) recorder.event({ kind: 'Pod', name: `p${i}` }, 'Normal', 'R', 'm');
    assert.deepEqual(logger.messages, ['Unable to record event: too many queued events, dropped event']);
  });
});

describe('RESTEventSink (EventSinkImpl)', () => {
  function recordingClient(): RESTClient & { readonly requests: RESTRequest[] } {
    const requests: RESTRequest[] = [];
    return {
      requests,
      request: <R>(req: RESTRequest) => {
        requests.push(req);
        return Promise.resolve({ metadata: { name: 'n', resourceVersion: '1' }, involvedObject: {} } as R);
      },
      watch: () => Promise.reject(new Error('no watch')),
    };
  }
  const event: Event = { metadata: { name: 'web.17a', namespace: 'prod' }, involvedObject: { kind: 'Pod' }, count: 1 };

  test('POST, PUT and a strategic merge PATCH in the event namespace, bodies as core/v1 Event JSON', async () => {
    const client = recordingClient();
    const sink = new RESTEventSink(client);
    await sink.create(event);
    await sink.update(event);
    await sink.patch(event, Buffer.from('{"count":2}'));
    await sink.create({ ...event, metadata: { name: 'cluster' } });
    assert.deepEqual(
      client.requests.map((r) => [r.method, r.path, r.contentType]),
      [
        ['POST', '/api/v1/namespaces/prod/events', undefined],
        ['PUT', '/api/v1/namespaces/prod/events/web.17a', undefined],
        ['PATCH', '/api/v1/namespaces/prod/events/web.17a', 'application/strategic-merge-patch+json'],
        ['POST', '/api/v1/events', undefined],
      ],
    );
    assert.deepEqual(JSON.parse(client.requests[0]?.body as string), { ...event, apiVersion: 'v1', kind: 'Event' });
    assert.equal(Buffer.from(client.requests[2]?.body as Uint8Array).toString(), '{"count":2}');
  });

  test('a sink bound to a namespace refuses events of another one', async () => {
    const sink = new RESTEventSink(recordingClient(), 'other');
    await assert.rejects(sink.create(event), new Error("can't create an event with namespace 'prod' in namespace 'other'"));
    await assert.rejects(sink.patch(event, new Uint8Array()), new Error("can't patch an event with namespace 'prod' in namespace 'other'"));
  });
});

describe('the Event shape', () => {
  test("core/v1 Events of the generated clients and the recorder's Event are assignable both ways (a typed events client can be a sink)", () => {
    const toRecord = (e: CoreEvent): Event => e;
    const toCore = (e: Event): CoreEvent => e;
    const e: Event = { metadata: { name: 'n' }, involvedObject: { kind: 'Pod' }, count: 2 };
    assert.deepEqual(toRecord(toCore(e)), e);
  });
});

describe('FakeRecorder', () => {
  test('"<type> <reason> <message>", with the object and annotations when asked; bounded', () => {
    const f = new FakeRecorder({ bufferSize: 3, includeObject: true });
    f.event(pod, 'Normal', 'Started', 'it began');
    f.eventf(pod, 'Warning', 'Failed', 'exit code %d', 2);
    f.annotatedEventf(pod, { b: '2', a: '1' }, 'Normal', 'Noted', '%s', 'x');
    f.event(pod, 'Normal', 'Dropped', 'beyond the buffer');
    assert.deepEqual(f.events, [
      'Normal Started it began involvedObject{kind=Pod,apiVersion=v1}',
      'Warning Failed exit code 2 involvedObject{kind=Pod,apiVersion=v1}',
      'Normal Noted x involvedObject{kind=Pod,apiVersion=v1} map[a:1 b:2]',
    ]);
    assert.equal(f.shift(), 'Normal Started it began involvedObject{kind=Pod,apiVersion=v1}');
  });
});

describe('sprintf (fmt.Sprintf for eventf)', () => {
  test("Go's verbs and markers", () => {
    assert.equal(sprintf('%v %s %d %q %t %x %%', 1, 'a', 2.7, 'q"', true, 255), '1 a 2 "q\\"" true ff %');
    assert.equal(sprintf('%v', { b: 1, a: [1, 2] }), 'map[a:[1 2] b:1]');
    assert.equal(sprintf('%d'), '%!d(MISSING)');
    assert.equal(sprintf('%d', 'x'), '%!d(string=x)');
    assert.equal(sprintf('a', 1), 'a%!(EXTRA int=1)');
    assert.equal(sprintf('%v', new Error('boom')), 'boom');
  });
});
