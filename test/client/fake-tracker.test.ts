import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isBadRequest, isConflict, isInvalid, isNotFound, type StatusError } from '../../runtime/apimachinery/errors/index.js';
import { FakeRESTClient, type FakeResource, ObjectTracker } from '../../runtime/client/fake/index.js';
import { ResourceClient } from '../../runtime/client/index.js';
import { statusError } from './status-error.js';

// A custom resource with a scale subresource, as a CRD would declare it.
const widgets: FakeResource = {
  descriptor: { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true },
  subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
  strategicMergePatch: false,
};
const gvr = { group: 'example.com', version: 'v1', resource: 'widgets' };

interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; generation?: number; labels?: Record<string, string> };
  spec?: { replicas?: number; items?: { name: string; v?: number }[] };
  status?: { replicas?: number; selector?: string };
}

function setup(): { tracker: ObjectTracker; client: ResourceClient<Widget> } {
  const tracker = new ObjectTracker({ resources: [widgets] });
  return { tracker, client: new ResourceClient<Widget>(new FakeRESTClient(tracker), widgets.descriptor, 'ns') };
}

describe('ObjectTracker', () => {
  test('the scale subresource reads and writes spec replicas', async () => {
    const { tracker, client } = setup();
    tracker.add({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns' }, spec: { replicas: 2 }, status: { replicas: 1, selector: 'app=w' } });
    const scale = await client.getScale('w');
    assert.deepEqual(scale.spec, { replicas: 2 });
    assert.deepEqual(scale.status, { replicas: 1, selector: 'app=w' });
    assert.equal(scale.kind, 'Scale');
    const updated = await client.updateScale('w', { ...scale, spec: { replicas: 5 } });
    assert.equal(updated.spec?.replicas, 5);
    const w = await client.get('w');
    assert.equal(w.spec?.replicas, 5);
    assert.equal(w.metadata?.generation, 2);
    assert.ok(isConflict(await statusError(client.updateScale('w', scale))), 'the stale Scale resourceVersion is a precondition');
    const negative = await statusError(client.updateScale('w', { metadata: { name: 'w' }, spec: { replicas: -1 } }));
    assert.ok(isInvalid(negative));
    assert.equal(negative.status.message, 'Scale.autoscaling "w" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    assert.ok(isNotFound(await statusError(client.getScale('missing'))));
    const patched = tracker.patchScale(gvr, 'ns', 'w', 'application/merge-patch+json', { spec: { replicas: 7 } });
    assert.equal(patched.spec?.replicas, 7);
  });

  test('custom resources refuse strategic merge patch with 415, as the server does', async () => {
    const { tracker, client } = setup();
    tracker.add({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns' } });
    const err = await statusError(client.patch('w', 'application/strategic-merge-patch+json', { spec: {} }));
    assert.equal(err.code, 415);
    assert.equal(
      err.status.message,
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  test('strategic merge patch without a schema replaces lists', () => {
    const plain: FakeResource = { descriptor: { ...widgets.descriptor, resource: 'gadgets', kind: 'Gadget' } };
    const tracker = new ObjectTracker({ resources: [plain] });
    tracker.add({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', namespace: 'ns' }, spec: { items: [{ name: 'a' }, { name: 'b' }] } });
    const out = tracker.patch({ group: 'example.com', version: 'v1', resource: 'gadgets' }, 'ns', 'g', 'application/strategic-merge-patch+json', { spec: { items: [{ name: 'c' }] } });
    assert.deepEqual(out['spec'], { items: [{ name: 'c' }] });
  });

  test('add() seeds lists and replaces existing objects; resourceVersions come from one counter', () => {
    const tracker = new ObjectTracker({ resources: [widgets] });
    const added = tracker.add({
      apiVersion: 'example.com/v1',
      kind: 'WidgetList',
      items: [{ metadata: { name: 'a', namespace: 'ns' } }, { metadata: { name: 'b', resourceVersion: '999' } }],
    });
    assert.deepEqual(
      added.map((o) => [o.metadata?.name, o.metadata?.namespace, o.metadata?.resourceVersion]),
      [
        ['a', 'ns', '1'],
        ['b', 'default', '2'],
      ],
    );
    const replaced = tracker.add({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a', namespace: 'ns', labels: { v: '2' } } });
    assert.equal(replaced[0]?.metadata?.resourceVersion, '3');
    assert.deepEqual(tracker.get(gvr, 'ns', 'a').metadata?.labels, { v: '2' });
    assert.equal(tracker.resourceVersion(), '3');
    assert.throws(
      () => tracker.add({ apiVersion: 'example.com/v1', kind: 'Unknown', metadata: { name: 'x' } }),
      (e: unknown) => isBadRequest(e),
    );
  });

  test('direct tracker calls throw the same StatusErrors', () => {
    const tracker = new ObjectTracker({ resources: [widgets] });
    assert.throws(
      () => tracker.get(gvr, 'ns', 'x'),
      (e: unknown) => isNotFound(e) && (e as StatusError).message === 'widgets.example.com "x" not found',
    );
    assert.throws(
      () => tracker.get({ group: 'nope', version: 'v1', resource: 'x' }, '', 'x'),
      (e: unknown) => isNotFound(e),
    );
    tracker.create(gvr, 'ns', { metadata: { name: 'x' } });
    assert.throws(
      () => tracker.update(gvr, 'ns', { metadata: { name: 'x', resourceVersion: '0' } }),
      (e: unknown) => isConflict(e),
    );
    assert.throws(
      () => tracker.update(gvr, 'other', { metadata: { name: 'x', namespace: 'ns' } }),
      (e: unknown) => isBadRequest(e),
    );
  });

  test('stored objects are frozen inside the tracker but callers get mutable copies', () => {
    const tracker = new ObjectTracker({ resources: [widgets] });
    const created = tracker.create(gvr, 'ns', { metadata: { name: 'x' }, spec: { replicas: 1 } });
    assert.equal(Object.isFrozen(created), false);
    (created['spec'] as { replicas: number }).replicas = 9;
    assert.deepEqual(tracker.get(gvr, 'ns', 'x')['spec'], { replicas: 1 });
  });
});
