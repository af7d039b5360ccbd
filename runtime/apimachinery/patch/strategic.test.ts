import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import namespaceSchema from '../../../generated/schemas/core/v1/namespace.json' with { type: 'json' };
import serviceSchema from '../../../generated/schemas/core/v1/service.json' with { type: 'json' };
import endpointsSchema from '../../../generated/schemas/core/v1/endpoints.json' with { type: 'json' };
import { StatusError } from '../errors/index.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { applyStrategicMergePatch } from './index.js';

const smp = (original: JSONObject, patch: unknown, schema: unknown = testSchema): unknown => applyStrategicMergePatch(original, Buffer.from(JSON.stringify(patch)), schema as JSONSchemaProps).value;

function statusOf(fn: () => unknown): { code: number; message: string; reason: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return { code: err.code, message: err.message, reason: err.reason };
  }
  assert.fail('expected an error');
}

// A schema in the shape of kube's strategicpatch test types (mergingList by name, mergingIntList, nonMergingList, retainKeys).
const item: JSONSchemaProps = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    value: { type: 'string' },
    other: { type: 'string' },
    mergeItemPtr: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
    } as JSONSchemaProps,
  },
};
const testSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    value: { type: 'string' },
    mergingList: { type: 'array', items: item, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
    nonMergingList: { type: 'array', items: item },
    mergingIntList: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-patch-strategy': 'merge' },
    nonMergingIntList: { type: 'array', items: { type: 'integer' } },
    simpleMap: { type: 'object', additionalProperties: { type: 'string' } },
    replacingItem: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-patch-strategy': 'replace' },
    retainKeysMap: {
      type: 'object',
      'x-kubernetes-patch-strategy': 'retainKeys',
      properties: { name: { type: 'string' }, value: { type: 'string' }, other: { type: 'string' }, simpleMap: { type: 'object', additionalProperties: { type: 'string' } } },
    },
    retainKeysMergingList: { type: 'array', items: item, 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'name' },
    listMapFallback: { type: 'array', items: item, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
    setFallback: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
  },
};

describe('strategic merge patch: kube patch_test.go cases (own inputs)', () => {
  const cases: Array<{ name: string; original: JSONObject; patch: unknown; want: unknown }> = [
    { name: 'nil patch leaves the object', original: { name: 'a' }, patch: null, want: { name: 'a' } },
    { name: 'add field / replace field / delete field with null', original: { name: 'a', value: 'b' }, patch: { value: null, other: 'x', name: 'z' }, want: { name: 'z', other: 'x' } },
    {
      name: 'nested map merges, null inside new value dropped',
      original: { simpleMap: { a: '1' } },
      patch: { simpleMap: { b: '2', a: null }, newMap: { x: null, y: 1 } },
      want: { simpleMap: { b: '2' }, newMap: { y: 1 } },
    },
    { name: '$patch: replace on a map', original: { simpleMap: { a: '1', b: '2' } }, patch: { simpleMap: { $patch: 'replace', c: '3' } }, want: { simpleMap: { c: '3' } } },
    { name: '$patch: delete on a map', original: { simpleMap: { a: '1' }, name: 'n' }, patch: { simpleMap: { $patch: 'delete' } }, want: { simpleMap: {}, name: 'n' } },
    { name: 'replace strategy on a map field', original: { replacingItem: { a: 1, b: 2 } }, patch: { replacingItem: { c: 3 } }, want: { replacingItem: { c: 3 } } },
    {
      name: 'merging list: merge item by key, append new',
      original: {
        mergingList: [
          { name: '1', value: 'a' },
          { name: '2', value: 'b' },
        ],
      },
      patch: {
        mergingList: [
          { name: '1', other: 'x' },
          { name: '3', value: 'c' },
        ],
      },
      want: {
        mergingList: [
          { name: '1', value: 'a', other: 'x' },
          { name: '2', value: 'b' },
          { name: '3', value: 'c' },
        ],
      },
    },
    {
      name: 'merging list: $patch delete item',
      original: { mergingList: [{ name: '1' }, { name: '2' }, { name: '1', value: 'dup' }] },
      patch: { mergingList: [{ name: '1', $patch: 'delete' }] },
      want: { mergingList: [{ name: '2' }] },
    },
    {
      name: 'merging list: $patch replace',
      original: { mergingList: [{ name: '1' }, { name: '2' }] },
      patch: { mergingList: [{ name: '3' }, { $patch: 'replace' }] },
      want: { mergingList: [{ name: '3' }] },
    },
    {
      name: 'merging list: null in an item deletes the field',
      original: { mergingList: [{ name: '1', value: 'a', other: 'b' }] },
      patch: { mergingList: [{ name: '1', value: null }] },
      want: { mergingList: [{ name: '1', other: 'b' }] },
    },
    {
      name: 'nested merging list inside merging list',
      original: { mergingList: [{ name: '1', mergeItemPtr: [{ name: 'a', value: '1' }] }] },
      patch: { mergingList: [{ name: '1', mergeItemPtr: [{ name: 'b', value: '2' }] }] },
      want: {
        mergingList: [
          {
            name: '1',
            mergeItemPtr: [
              { name: 'a', value: '1' },
              { name: 'b', value: '2' },
            ],
          },
        ],
      },
    },
    { name: 'non-merging list is replaced', original: { nonMergingList: [{ name: '1' }, { name: '2' }] }, patch: { nonMergingList: [{ name: '3' }] }, want: { nonMergingList: [{ name: '3' }] } },
    { name: 'merging int list: union, deduplicated, patch order first', original: { mergingIntList: [1, 2] }, patch: { mergingIntList: [2, 3] }, want: { mergingIntList: [1, 2, 3] } },
    { name: 'non-merging int list replaced', original: { nonMergingIntList: [1, 2] }, patch: { nonMergingIntList: [3] }, want: { nonMergingIntList: [3] } },
    { name: '$deleteFromPrimitiveList', original: { mergingIntList: [1, 2, 3] }, patch: { '$deleteFromPrimitiveList/mergingIntList': [2, 4] }, want: { mergingIntList: [1, 3] } },
    { name: '$deleteFromPrimitiveList on an absent list is a no-op', original: { name: 'a' }, patch: { '$deleteFromPrimitiveList/mergingIntList': [2] }, want: { name: 'a' } },
    {
      name: '$setElementOrder on a merging list',
      original: { mergingList: [{ name: '1' }, { name: '2' }, { name: '3' }] },
      patch: { '$setElementOrder/mergingList': [{ name: '3' }, { name: '2' }, { name: '1' }], mergingList: [{ name: '2', value: 'x' }] },
      want: { mergingList: [{ name: '3' }, { name: '2', value: 'x' }, { name: '1' }] },
    },
    {
      name: '$setElementOrder on a primitive list',
      original: { mergingIntList: [1, 2, 3] },
      patch: { '$setElementOrder/mergingIntList': [3, 1, 2, 4], mergingIntList: [4] },
      want: { mergingIntList: [3, 1, 2, 4] },
    },
    {
      name: '$setElementOrder with server-only items keeps them in place',
      original: { mergingList: [{ name: '1' }, { name: 'server' }, { name: '2' }] },
      patch: { '$setElementOrder/mergingList': [{ name: '2' }, { name: '1' }] },
      want: { mergingList: [{ name: 'server' }, { name: '2' }, { name: '1' }] },
    },
    {
      name: '$retainKeys clears unlisted fields',
      original: { retainKeysMap: { name: 'a', value: 'b', other: 'c' } },
      patch: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'x' } },
      want: { retainKeysMap: { name: 'a', value: 'x' } },
    },
    {
      name: 'merge,retainKeys list',
      original: { retainKeysMergingList: [{ name: '1', value: 'a', other: 'o' }] },
      patch: { retainKeysMergingList: [{ name: '1', $retainKeys: ['name', 'value'], value: 'b' }] },
      want: { retainKeysMergingList: [{ name: '1', value: 'b' }] },
    },
    {
      name: 'list-type map without patch markers is replaced',
      original: { listMapFallback: [{ name: '1', value: 'a' }] },
      patch: { listMapFallback: [{ name: '1', other: 'b' }] },
      want: { listMapFallback: [{ name: '1', other: 'b' }] },
    },
    { name: 'list-type set without patch markers is replaced (client-side apply can shrink it)', original: { setFallback: ['a', 'x'] }, patch: { setFallback: ['b'] }, want: { setFallback: ['b'] } },
    {
      name: 'directives removed from added values',
      original: {},
      patch: { mergingList: [{ name: '1', mergeItemPtr: [{ name: 'x', $patch: 'delete' }, { name: 'y' }] }] },
      want: { mergingList: [{ name: '1', mergeItemPtr: [{ name: 'y' }] }] },
    },
    { name: 'type change replaces', original: { name: { a: 1 } }, patch: { name: 'flat' }, want: { name: 'flat' } },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(smp(c.original, c.patch), c.want));

  test('original is not mutated', () => {
    const original = { mergingList: [{ name: '1', value: 'a' }] };
    smp(original, { mergingList: [{ name: '1', value: 'b' }] });
    assert.deepEqual(original, { mergingList: [{ name: '1', value: 'a' }] });
  });
});

describe('strategic merge patch errors', () => {
  test('undecodable and non-object patches are 400', () => {
    assert.deepEqual(
      statusOf(() => applyStrategicMergePatch({}, Buffer.from('{"a":'), undefined)),
      { code: 400, reason: 'BadRequest', message: 'unexpected end of JSON input' },
    );
    assert.deepEqual(
      statusOf(() => smp({}, [1])),
      { code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' },
    );
  });
  test('malformed directives', () => {
    assert.deepEqual(
      statusOf(() => smp({ retainKeysMap: {} }, { retainKeysMap: { $retainKeys: 'name' } })),
      { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
    );
    assert.deepEqual(
      statusOf(() => smp({ retainKeysMap: {} }, { retainKeysMap: { $retainKeys: ['name'], value: 'x' } })),
      { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
    );
    assert.deepEqual(
      statusOf(() => smp({}, { $deleteFromPrimitiveList: [1] })),
      { code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' },
    );
    const bad = statusOf(() => smp({ simpleMap: {} }, { simpleMap: { $patch: 'bogus' } }));
    assert.equal(bad.code, 500);
    assert.equal(bad.message, 'unknown patch type: bogus in map: map[$patch:bogus]');
    assert.equal(statusOf(() => smp({ mergingList: [{ name: '1' }] }, { mergingList: [{ value: 'x' }] })).message, 'map: map[value:x] does not contain declared merge key: name');
    assert.equal(statusOf(() => smp({ mergingList: [{ name: '1' }] }, { mergingList: [{ name: '1', $patch: 'merge' }] })).message, 'merging lists cannot yet be specified in the patch');
  });
  test('lists of lists are 422 with the generic message', () => {
    assert.deepEqual(
      statusOf(() => smp({ mergingIntList: [[1]] }, { mergingIntList: [[2]] })),
      { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
    );
  });
  test('$setElementOrder that does not cover the patch list', () => {
    const s = statusOf(() => smp({ mergingList: [{ name: '1' }] }, { '$setElementOrder/mergingList': [{ name: '1' }], mergingList: [{ name: '2' }] }));
    assert.equal(s.code, 500);
    assert.match(s.message, /^The order in patch list:\n/);
  });
  test('deep patches are a 400, not a crash', () => {
    const deep = `{"x":${'{"a":'.repeat(9999)}1${'}'.repeat(9999)}}`;
    const s = statusOf(() => applyStrategicMergePatch({}, Buffer.from(deep.replace('{"a":1}', '{"a":null}')), undefined));
    assert.equal(s.code, 400);
  });
});

describe('strategic merge patch on built-in kinds (kubectl client-side apply)', () => {
  const lastApplied = (o: unknown): string => `${JSON.stringify(o)}\n`;
  test('Namespace: labels and last-applied-configuration', () => {
    const live: JSONObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'team-a',
        uid: 'u',
        resourceVersion: '7',
        labels: { team: 'a', 'kubernetes.io/metadata.name': 'team-a' },
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied({ apiVersion: 'v1', kind: 'Namespace', metadata: { labels: { team: 'a' }, name: 'team-a' } }) },
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    };
    const modified = { apiVersion: 'v1', kind: 'Namespace', metadata: { labels: { tier: 'gold' }, name: 'team-a' } };
    // What kubectl 1.32 sends for this change (labels.team removed, labels.tier added).
    const patch = { metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied(modified) }, labels: { team: null, tier: 'gold' } } };
    assert.deepEqual(smp(live, patch, namespaceSchema), {
      ...live,
      metadata: {
        ...(live['metadata'] as object),
        labels: { 'kubernetes.io/metadata.name': 'team-a', tier: 'gold' },
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied(modified) },
      },
    });
  });

  test('metadata.finalizers merge as a set, ownerReferences by uid', () => {
    const live: JSONObject = { metadata: { name: 'x', finalizers: ['a', 'b'], ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'o1', uid: '1' }] } };
    const got = smp(
      live,
      {
        metadata: {
          finalizers: ['c'],
          '$deleteFromPrimitiveList/finalizers': ['a'],
          ownerReferences: [
            { uid: '1', controller: true },
            { apiVersion: 'v1', kind: 'K', name: 'o2', uid: '2' },
          ],
        },
      },
      namespaceSchema,
    );
    // kube puts patch items the live list does not order ahead of server-only items.
    assert.deepEqual(got, {
      metadata: {
        name: 'x',
        finalizers: ['c', 'b'],
        ownerReferences: [
          { apiVersion: 'v1', kind: 'K', name: 'o1', uid: '1', controller: true },
          { apiVersion: 'v1', kind: 'K', name: 'o2', uid: '2' },
        ],
      },
    });
  });

  test('Namespace spec.finalizers is atomic: replaced', () => {
    assert.deepEqual(smp({ spec: { finalizers: ['a', 'b'] } }, { spec: { finalizers: ['c'] } }, namespaceSchema), { spec: { finalizers: ['c'] } });
  });

  test('Namespace status.conditions merge by type', () => {
    const live: JSONObject = {
      status: {
        conditions: [
          { type: 'A', status: 'True' },
          { type: 'B', status: 'False' },
        ],
      },
    };
    assert.deepEqual(smp(live, { status: { conditions: [{ type: 'B', status: 'True' }] } }, namespaceSchema), {
      status: {
        conditions: [
          { type: 'A', status: 'True' },
          { type: 'B', status: 'True' },
        ],
      },
    });
  });

  test('Service ports merge by port, with $setElementOrder as kubectl sends it', () => {
    const live: JSONObject = {
      spec: {
        type: 'ClusterIP',
        ports: [
          { name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 },
          { name: 'metrics', port: 9090, protocol: 'TCP', targetPort: 9090 },
        ],
      },
    };
    const patch = {
      spec: {
        '$setElementOrder/ports': [{ port: 443 }, { port: 80 }],
        ports: [
          { name: 'https', port: 443, targetPort: 8443 },
          { port: 9090, $patch: 'delete' },
          { port: 80, targetPort: 8081 },
        ],
      },
    };
    assert.deepEqual(smp(live, patch, serviceSchema), {
      spec: {
        type: 'ClusterIP',
        ports: [
          { name: 'https', port: 443, targetPort: 8443 },
          { name: 'http', port: 80, protocol: 'TCP', targetPort: 8081 },
        ],
      },
    });
  });

  test('Endpoints subsets are atomic: replaced whole', () => {
    const live: JSONObject = { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] };
    const patch = { subsets: [{ addresses: [{ ip: '10.0.0.2' }] }] };
    assert.deepEqual(smp(live, patch, endpointsSchema), patch);
  });

  test('duplicate fields in the patch are reported', () => {
    const r = applyStrategicMergePatch({}, Buffer.from('{"metadata":{"labels":{"a":"1","a":"2"}}}'), namespaceSchema as JSONSchemaProps);
    assert.deepEqual(r.strictErrors, ['duplicate field "metadata.labels.a"']);
    assert.deepEqual(r.value, { metadata: { labels: { a: '2' } } });
  });
});
