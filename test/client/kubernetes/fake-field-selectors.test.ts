// Field selectors on the fake Kubernetes clientset, as client-go's fake treats them: its
// ObjectTracker (k8s.io/client-go/testing/fixture.go) lists and watches every object of the
// GroupVersionResource and namespace, and its typed fakes (gentype's alsoFakeLister.List over
// testing.ExtractFromListOptions) filter lists by labels only, so a field selector
// (`involvedObject.name=x` on Events, `spec.nodeName=n` on Pods, even `metadata.name`) is parsed
// and not applied; its watches (ObjectTracker.Watch) apply no selector at all, labels included,
// and scope by namespace only. The project's own kinds keep the server's selection
// (fake-clientset.test.ts, fake-watch.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isBadRequest } from '../../../runtime/apimachinery/errors/index.js';
import { FakeRESTClient, type FakeResource, ObjectTracker } from '../../../runtime/client/fake/index.js';
import { ResourceClient } from '../../../runtime/client/index.js';
import { emitKubernetesFake, importKubernetes, loadDocuments } from '../../../generator/openapi-import/index.js';
import { newSimpleClientset } from '../../../generated/kubernetes/clientset/fake/index.js';
import { statusError } from '../status-error.js';

const NS = 'default';

const event = (name: string, about: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: NS, labels },
  involvedObject: { kind: 'Pod', name: about, namespace: NS },
  reason: 'R',
});

describe('field selectors on a kind whose fields the fake does not know (fieldSelectors: ignored)', () => {
  const events: FakeResource = { descriptor: { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true }, fieldSelectors: 'ignored' };
  const setup = () => {
    const tracker = new ObjectTracker({ resources: [events] });
    tracker.add(event('a', 'pod-a', { app: 'x' }), event('b', 'pod-b'));
    return new ResourceClient<{ metadata?: { name?: string } }>(new FakeRESTClient(tracker), events.descriptor, NS);
  };
  const names = (l: { items: { metadata?: { name?: string } }[] }) => l.items.map((i) => i.metadata?.name);

  it('a list is not filtered by fields, any field label is accepted, labels still filter', async () => {
    const c = setup();
    assert.deepEqual(names(await c.list({ fieldSelector: 'involvedObject.name=pod-a' })), ['a', 'b']);
    assert.deepEqual(names(await c.list({ fieldSelector: 'metadata.name=a' })), ['a', 'b']);
    assert.deepEqual(names(await c.list({ fieldSelector: 'involvedObject.name=pod-a', labelSelector: 'app=x' })), ['a']);
  });

  it('a field selector must still parse (client-go: ExtractFromListOptions), a 400 here', async () => {
    const c = setup();
    const err = await statusError(c.list({ fieldSelector: 'involvedObject.name' }));
    assert.ok(isBadRequest(err), err.status.message);
  });

  it('a watch is not filtered by fields', async () => {
    const c = setup();
    const w = await c.watch({ fieldSelector: 'involvedObject.name=pod-a' });
    const seen: string[] = [];
    for await (const e of w) {
      seen.push(`${e.type} ${(e.object as { metadata?: { name?: string } }).metadata?.name}`);
      if (seen.length === 2) break;
    }
    assert.deepEqual(seen, ['ADDED a', 'ADDED b']);
  });

  it("a watch is not filtered by labels either (client-go's tracker watch takes no selectors): initial events and later changes", async () => {
    const c = setup();
    const w = await c.watch({ labelSelector: 'app=x', fieldSelector: 'metadata.name=a' });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const e of w) {
        seen.push(`${e.type} ${(e.object as { metadata?: { name?: string } }).metadata?.name}`);
        if (seen.length === 3) break;
      }
    })();
    await c.create(event('c', 'pod-c', { app: 'y' }));
    await reading;
    assert.deepEqual(seen, ['ADDED a', 'ADDED b', 'ADDED c']);
  });

  it('a watch with a selector that does not parse fails as the list does (client-go: ExtractFromListOptions panics)', async () => {
    const c = setup();
    const field = await statusError(c.watch({ fieldSelector: 'involvedObject.name' }));
    assert.ok(isBadRequest(field), field.status.message);
    const label = await statusError(c.watch({ labelSelector: 'app in x' }));
    assert.ok(isBadRequest(label), label.status.message);
    const listed = await statusError(c.list({ labelSelector: 'app in x' }));
    assert.equal(label.status.message, listed.status.message);
  });
});

describe('the fake Kubernetes clientset', () => {
  // Passes once generated/kubernetes/clientset/fake/index.ts is regenerated with generator/emit/fake.ts.
  it('lists Events with a field selector as client-go’s fake does: unfiltered, no 400', async () => {
    const fake = newSimpleClientset(event('a', 'pod-a'), event('b', 'pod-b'));
    const listed = await fake.coreV1().events(NS).list({ fieldSelector: 'involvedObject.name=pod-a' });
    assert.deepEqual(
      listed.items.map((e) => e.metadata?.name),
      ['a', 'b'],
    );
  });

  it('watches Events as client-go’s fake does: neither labels nor fields filter, the namespace does', async () => {
    const other = { ...event('o', 'pod-o', { app: 'x' }), metadata: { name: 'o', namespace: 'other', labels: { app: 'x' } } };
    const fake = newSimpleClientset(event('a', 'pod-a', { app: 'x' }), event('b', 'pod-b'), other);
    const w = await fake.coreV1().events(NS).watch({ labelSelector: 'app=x', fieldSelector: 'involvedObject.name=pod-a' });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const e of w) {
        seen.push(`${e.type} ${(e.object as { metadata?: { name?: string } }).metadata?.name}`);
        if (seen.length === 3) break;
      }
    })();
    await fake
      .coreV1()
      .events('other')
      .create({ ...other, metadata: { name: 'o2', namespace: 'other', labels: { app: 'x' } } });
    await fake.coreV1().events(NS).create(event('c', 'pod-c'));
    await reading;
    assert.deepEqual(seen, ['ADDED a', 'ADDED b', 'ADDED c']);
    const listed = await fake.coreV1().events(NS).list({ labelSelector: 'app=x' });
    assert.deepEqual(
      listed.items.map((e) => e.metadata?.name),
      ['a'],
      'a list still filters by labels (gentype’s alsoFakeLister)',
    );
  });

  it('the generator marks every Kubernetes kind fieldSelectors: ignored (generator/emit/fake.ts)', () => {
    const text = emitKubernetesFake(importKubernetes(loadDocuments(['apis/coordination.k8s.io/v1.json'])))[0]!.text;
    assert.match(text, /fieldSelectors: ["']ignored["']/);
    assert.doesNotMatch(text, /selectableFields/);
  });
});
