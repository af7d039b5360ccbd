// The fake Kubernetes clientset keeps events.k8s.io/v1 Events apart from core/v1 Events, while the
// server serves both from one storage (kube's cohabitating resources). That is client-go's fake:
// its ObjectTracker (k8s.io/client-go/testing/fixture.go) keys objects by GroupVersionResource, so
// an Event created through CoreV1().Events() is not listed by EventsV1().Events(), nor watched
// there. And its typed fakes filter lists by label only (gentype's alsoFakeLister.List over
// testing.ExtractFromListOptions); this fake filters by the fields the kinds declare as the
// server does, which tests against the server keep honest.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newSimpleClientset } from '../../../generated/kubernetes/clientset/fake/index.js';

const NS = 'default';

describe('the fake Kubernetes clientset keeps the two Event resources apart, as client-go’s tracker does (keyed by GroupVersionResource)', () => {
  it('a core/v1 Event is not an events.k8s.io/v1 Event, and back', async () => {
    const fake = newSimpleClientset();
    await fake
      .coreV1()
      .events(NS)
      .create({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'core-e', namespace: NS }, involvedObject: { kind: 'Pod', name: 'p', namespace: NS }, reason: 'R' });
    await fake
      .eventsV1()
      .events(NS)
      .create({
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'events-e', namespace: NS },
        eventTime: '2026-11-26T10:00:00.000000Z',
        reportingController: 'k8s.io/tester',
        reportingInstance: 'tester-1',
        action: 'Testing',
        reason: 'R',
      });
    const core = (await fake.coreV1().events(NS).list()).items.map((e) => e.metadata?.name);
    const events = (await fake.eventsV1().events(NS).list()).items.map((e) => e.metadata?.name);
    assert.deepEqual(core, ['core-e']);
    assert.deepEqual(events, ['events-e']);
    await assert.rejects(fake.eventsV1().events(NS).get('core-e'), (e: unknown) => (e as { status?: { code?: number } }).status?.code === 404);
    await assert.rejects(fake.coreV1().events(NS).get('events-e'), (e: unknown) => (e as { status?: { code?: number } }).status?.code === 404);
  });
});
