// The recorder against the real control plane: core/v1 events about a ConfigMap written through
// the REST sink, counted by patches, aggregated, and recreated after the stored one is gone.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { restClientFromKubeconfig, type HTTPRESTClient } from '../../../runtime/client/index.js';
import { newBroadcaster, RESTEventSink, type Event, type EventBroadcaster, type EventRecorder } from '../../../runtime/client/record/index.js';
import { describeBackends } from '../../integration/harness.js';

const NS = 'record-events';

interface EventList {
  readonly items: readonly Event[];
}

async function eventually<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeBackends('event recording against the control plane', (get) => {
  let rest: HTTPRESTClient;
  let caster: EventBroadcaster;
  let recorder: EventRecorder;
  const errors: string[] = [];
  let cm: { apiVersion: string; kind: string; metadata: { name: string; namespace: string; uid?: string } };

  const eventsAbout = async (name: string): Promise<Event[]> => {
    const list = await rest.request<EventList>({ method: 'GET', path: `/api/v1/namespaces/${NS}/events` });
    return list.items.filter((e) => e.involvedObject?.name === name && e.involvedObject.kind === 'ConfigMap');
  };

  before(async () => {
    rest = restClientFromKubeconfig({ path: get().kubeconfigPath }).rest;
    await rest.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } });
    cm = await rest.request({
      method: 'POST',
      path: `/api/v1/namespaces/${NS}/configmaps`,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: NS }, data: { a: '1' } },
    });
    // Every write must succeed at its first try: a rejection or a retry would be logged as an error.
    caster = newBroadcaster({ sleepDuration: 100, logger: { error: (m, d) => errors.push(`${m} ${JSON.stringify(d)}`), info: () => {} } });
    caster.startRecordingToSink(new RESTEventSink(rest));
    recorder = caster.newRecorder({ component: 'record-it', host: 'node-1' });
  });
  after(() => {
    caster.shutdown();
    rest.close();
  });

  it('creates one event, then counts repeats by patching it', async () => {
    for (let i = 0; i < 3; i++) recorder.eventf(cm, 'Normal', 'Synced', 'ConfigMap %s synced', cm.metadata.name);
    const [event] = await eventually('one event with count 3', async () => {
      const events = (await eventsAbout('settings')).filter((e) => e.reason === 'Synced');
      return events.length === 1 && events[0]?.count === 3 ? events : undefined;
    });
    assert.ok(event !== undefined);
    assert.equal(event.type, 'Normal');
    assert.equal(event.message, 'ConfigMap settings synced');
    assert.deepEqual(event.source, { component: 'record-it', host: 'node-1' });
    assert.equal(event.reportingComponent, 'record-it');
    assert.equal(event.reportingInstance, 'node-1');
    assert.deepEqual(
      { ...event.involvedObject },
      { kind: 'ConfigMap', namespace: NS, name: 'settings', uid: cm.metadata.uid, apiVersion: 'v1', resourceVersion: (cm.metadata as { resourceVersion?: string }).resourceVersion },
    );
    assert.match(event.metadata?.name ?? '', /^settings\.[0-9a-f]+$/);
  });

  it('aggregates ten similar events into "(combined from similar events): …" and counts the aggregate', async () => {
    for (let i = 0; i < 11; i++) recorder.eventf(cm, 'Warning', 'Invalid', 'key %d is invalid', i);
    const aggregate = await eventually('the aggregate event counted twice', async () => {
      const events = (await eventsAbout('settings')).filter((e) => e.reason === 'Invalid');
      const agg = events.find((e) => e.message?.startsWith('(combined from similar events): '));
      return agg?.count === 2 && events.length === 10 ? agg : undefined;
    });
    assert.equal(aggregate.message, '(combined from similar events): key 10 is invalid');
    assert.equal(aggregate.type, 'Warning');
  });

  it('creates the event again when the stored one is gone', async () => {
    recorder.event(cm, 'Normal', 'Rotated', 'keys rotated');
    const first = await eventually('the Rotated event', async () => (await eventsAbout('settings')).find((e) => e.reason === 'Rotated'));
    await rest.request({ method: 'DELETE', path: `/api/v1/namespaces/${NS}/events/${first.metadata?.name ?? ''}` });
    recorder.event(cm, 'Normal', 'Rotated', 'keys rotated');
    const again = await eventually('the Rotated event recreated', async () => (await eventsAbout('settings')).find((e) => e.reason === 'Rotated'));
    // The patch found nothing (404): the repeat was created under the name it had, with its count.
    assert.equal(again.metadata?.name, first.metadata?.name);
    assert.equal(again.count, 2);
  });

  it('logged no error: no write was rejected or retried', () => {
    assert.deepEqual(errors, []);
  });
});
