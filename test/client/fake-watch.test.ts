import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fischer, Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { newFakeClientset, newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { isBadRequest, isResourceExpired, StatusError } from '../../runtime/apimachinery/errors/index.js';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../runtime/client/fake/index.js';
import type { Watch, WatchEvent } from '../../runtime/client/index.js';

/** Reads the next n events of a watch. */
async function next<T>(w: Watch<T>, n: number): Promise<WatchEvent<T>[]> {
  const out: WatchEvent<T>[] = [];
  const it = w[Symbol.asyncIterator]();
  while (out.length < n) {
    const r = await it.next();
    if (r.done === true) break;
    out.push(r.value);
  }
  return out;
}

/** Every event until the stream ends. */
async function drain<T>(w: Watch<T>): Promise<WatchEvent<T>[]> {
  const out: WatchEvent<T>[] = [];
  for await (const ev of w) out.push(ev);
  return out;
}

const summary = (events: WatchEvent<{ metadata?: { name?: string; resourceVersion?: string } }>[]): string[] =>
  events.map((e) => (e.type === 'ERROR' ? `ERROR ${e.object.code}` : `${e.type} ${e.object.metadata?.name ?? ''}@${e.object.metadata?.resourceVersion ?? ''}`));

describe('fake clientset: watch', () => {
  test('from "" starts with the current objects, then streams changes', async () => {
    const cs = newSimpleClientset({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'a' } });
    const fischers = cs.wardleV1alpha1().fischers();
    const w = await fischers.watch();
    await fischers.create({ metadata: { name: 'b' } });
    const b = await fischers.get('b');
    await fischers.update({ ...b, disallowedFlunders: ['x'] });
    await fischers.delete('a');
    assert.deepEqual(summary(await next(w, 4)), ['ADDED a@1', 'ADDED b@2', 'MODIFIED b@3', 'DELETED a@4']);
    w.stop();
    assert.deepEqual(await drain(w), []);
    assert.equal(cs.tracker().watcherCount(), 0);
  });

  test('from a resourceVersion replays only the later changes of that resource', async () => {
    const cs = newSimpleClientset();
    const fischers = cs.wardleV1alpha1().fischers();
    await fischers.create({ metadata: { name: 'a' } });
    const list = await fischers.list();
    await fischers.create({ metadata: { name: 'b' } });
    await cs
      .wardleV1alpha1()
      .flunders('ns')
      .create({ metadata: { name: 'other-resource' } });
    await fischers.delete('a');
    const w = await fischers.watch({ resourceVersion: list.metadata.resourceVersion });
    assert.deepEqual(summary(await next(w, 2)), ['ADDED b@2', 'DELETED a@4']);
    w.stop();
  });

  test('a resourceVersion older than the history gets one 410 ERROR event, then the stream ends', async () => {
    const cs = newFakeClientset({ historyLimit: 3 });
    const fischers = cs.wardleV1alpha1().fischers();
    for (const n of ['a', 'b', 'c', 'd', 'e']) await fischers.create({ metadata: { name: n } });
    const events = await drain(await fischers.watch({ resourceVersion: '1' }));
    assert.equal(events.length, 1);
    const ev = events[0]!;
    assert.equal(ev.type, 'ERROR');
    assert.deepEqual(ev.object, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 1 (2)',
      reason: 'Expired',
      code: 410,
    });
    assert.ok(isResourceExpired(new StatusError(ev.object as never)));
    assert.equal(cs.tracker().watcherCount(), 0);
    // The floor itself still works: everything after it is in the history.
    const fromFloor = await fischers.watch({ resourceVersion: '2' });
    assert.deepEqual(summary(await next(fromFloor, 3)), ['ADDED c@3', 'ADDED d@4', 'ADDED e@5']);
    fromFloor.stop();
    const oldList = await fischers.list({ resourceVersion: '1', resourceVersionMatch: 'Exact' }).catch((e: unknown) => e);
    assert.ok(isResourceExpired(oldList));
    assert.equal((oldList as StatusError).status.message, 'The resourceVersion for the provided list is too old.');
  });

  test('compaction expires older resourceVersions', async () => {
    const cs = newSimpleClientset();
    const fischers = cs.wardleV1alpha1().fischers();
    for (const n of ['a', 'b', 'c']) await fischers.create({ metadata: { name: n } });
    cs.tracker().compact(2);
    assert.deepEqual(summary(await drain(await fischers.watch({ resourceVersion: '1' }))), ['ERROR 410']);
    const w = await fischers.watch({ resourceVersion: '2' });
    assert.deepEqual(summary(await next(w, 1)), ['ADDED c@3']);
    w.stop();
  });

  test('selectors: objects entering the selection are ADDED, leaving it DELETED', async () => {
    const cs = newSimpleClientset();
    const flunders = cs.wardleV1alpha1().flunders('ns');
    const w = await flunders.watch({ labelSelector: 'watched=yes' });
    const f: Flunder = await flunders.create({ metadata: { name: 'f' } });
    const labelled = await flunders.update({ ...f, metadata: { ...f.metadata, labels: { watched: 'yes' } } });
    const changed = await flunders.update({ ...labelled, spec: { reference: 'x' } });
    const unlabelled = await flunders.update({ ...changed, metadata: { ...changed.metadata, labels: {} } });
    await flunders.delete('f');
    assert.deepEqual(summary(await next(w, 3)), ['ADDED f@2', 'MODIFIED f@3', 'DELETED f@4']);
    assert.equal(unlabelled.metadata?.resourceVersion, '4');
    const fieldWatch = await cs.wardleV1beta1().flunders('').watch({ fieldSelector: 'spec.referenceType=Fischer' });
    await cs
      .wardleV1beta1()
      .flunders('a')
      .create({ metadata: { name: 'one' }, spec: { referenceType: 'Flunder' } });
    await cs
      .wardleV1beta1()
      .flunders('b')
      .create({ metadata: { name: 'two' }, spec: { referenceType: 'Fischer' } });
    assert.deepEqual(summary(await next(fieldWatch, 1)), ['ADDED two@7']);
    fieldWatch.stop();
    w.stop();
    const bad = await flunders.watch({ fieldSelector: 'spec.reference=x' }).catch((e: unknown) => e);
    assert.ok(isBadRequest(bad));
  });

  test('a namespaced watch sees its namespace only', async () => {
    const cs = newSimpleClientset();
    const w = await cs.wardleV1alpha1().flunders('mine').watch();
    await cs
      .wardleV1alpha1()
      .flunders('theirs')
      .create({ metadata: { name: 'x' } });
    await cs
      .wardleV1alpha1()
      .flunders('mine')
      .create({ metadata: { name: 'y' } });
    assert.deepEqual(summary(await next(w, 1)), ['ADDED y@2']);
    w.stop();
  });

  test('watch-list: initial events end with a bookmark annotated initial-events-end', async () => {
    const cs = newSimpleClientset();
    const fischers = cs.wardleV1alpha1().fischers();
    await fischers.create({ metadata: { name: 'a' } });
    const w = await fischers.watch({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true, resourceVersion: '' });
    const [added, bookmark] = await next(w, 2);
    assert.equal(added?.type, 'ADDED');
    assert.deepEqual(bookmark, {
      type: 'BOOKMARK',
      object: { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { resourceVersion: '1', annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } } },
    });
    w.stop();
    const quiet = await fischers.watch({ resourceVersion: '0', sendInitialEvents: false });
    await fischers.create({ metadata: { name: 'b' } });
    assert.deepEqual(summary(await next(quiet, 1)), ['ADDED b@2']);
    quiet.stop();
  });

  test('the abort signal and timeoutSeconds end the stream; break stops it', async () => {
    const cs = newSimpleClientset();
    const fischers = cs.wardleV1alpha1().fischers();
    const ac = new AbortController();
    const w = await fischers.watch({ signal: ac.signal });
    ac.abort();
    assert.deepEqual(await drain(w), []);
    const timed = await fischers.watch({ timeoutSeconds: 0.01 });
    assert.deepEqual(await drain(timed), []);
    const broken = await fischers.watch();
    await fischers.create({ metadata: { name: 'a' } });
    for await (const ev of broken) {
      assert.equal(ev.type, 'ADDED');
      break;
    }
    assert.equal(cs.tracker().watcherCount(), 0);
  });

  test('watchers get their own copies', async () => {
    const cs = newSimpleClientset();
    const fischers = cs.wardleV1alpha1().fischers();
    const w1 = await fischers.watch();
    const w2 = await fischers.watch();
    await fischers.create({ metadata: { name: 'a' } });
    const [e1] = await next(w1, 1);
    const [e2] = await next(w2, 1);
    (e1!.object as Fischer).disallowedFlunders = ['mutated'];
    assert.equal((e2!.object as Fischer).disallowedFlunders, undefined);
    assert.equal((await fischers.get('a')).disallowedFlunders, undefined);
    w1.stop();
    w2.stop();
  });
});
