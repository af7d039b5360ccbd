// The fake clientset's tracker stores what the server would: prototype-named keys are data there too.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { type FakeResource, FieldManagedTracker, ObjectTracker } from '../../runtime/client/fake/index.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, m: { type: 'object', additionalProperties: { type: 'string' } } } } },
};
const widgets: FakeResource = {
  descriptor: { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true },
  subresources: { status: true },
  strategicMergePatch: true,
  schema,
};
const gvr = { group: 'example.com', version: 'v1', resource: 'widgets' };
const own = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null && Object.prototype.hasOwnProperty.call(v, k) ? (v as Record<string, unknown>)[k] : undefined), o);

describe('fake ObjectTracker with __proto__ and constructor keys', () => {
  afterEach(() => {
    assert.deepEqual(Object.keys(Object.prototype), []);
    assert.equal(({} as Record<string, unknown>)['isAdmin'], undefined);
  });

  test('create, every patch type and apply keep them as fields', async () => {
    const tracker = new ObjectTracker({ resources: [widgets] });
    tracker.create(gvr, 'ns', JSON.parse('{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"free":{"__proto__":{"isAdmin":true}},"m":{"constructor":"c"}}}'));
    assert.deepEqual(own(tracker.get(gvr, 'ns', 'w'), 'spec', 'free', '__proto__'), { isAdmin: true });

    tracker.patch(gvr, 'ns', 'w', 'application/merge-patch+json', '{"__proto__":{"isAdmin":true},"spec":{"free":{"__proto__":{"x":1}},"m":{"__proto__":"p"}}}');
    tracker.patch(gvr, 'ns', 'w', 'application/strategic-merge-patch+json', '{"constructor":{"prototype":{"isAdmin":true}},"spec":{"m":{"constructor":"d"}}}');
    tracker.patch(gvr, 'ns', 'w', 'application/json-patch+json', '[{"op":"copy","from":"/spec/free/__proto__","path":"/spec/free/prototype"}]');
    const w = tracker.get(gvr, 'ns', 'w');
    assert.deepEqual(own(w, 'spec', 'free', '__proto__'), { isAdmin: true, x: 1 });
    assert.deepEqual(own(w, 'spec', 'free', 'prototype'), { isAdmin: true, x: 1 });
    assert.deepEqual(own(w, 'spec', 'm'), JSON.parse('{"constructor":"d","__proto__":"p"}'));
    assert.equal(Object.getPrototypeOf(w), Object.prototype);

    // Server-side apply runs through the field manager, as the fake clientset's writes do (on an
    // object without the undeclared top-level keys above, which the server would have pruned).
    tracker.create(gvr, 'ns', JSON.parse('{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w2"},"spec":{"m":{"constructor":"c"}}}'));
    const config = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w2\nspec:\n  m:\n    __proto__: q\n    bin: !!binary aGVsbG8=\n';
    await new FieldManagedTracker(tracker, () => new Date()).patch(gvr, 'ns', 'w2', 'application/apply-patch+yaml', config, { fieldManager: 'm' });
    const w2 = tracker.get(gvr, 'ns', 'w2');
    assert.deepEqual(own(w2, 'spec', 'm'), JSON.parse('{"constructor":"c","__proto__":"q","bin":"hello"}'));
    assert.equal(Object.getPrototypeOf(w2), Object.prototype);
  });
});
