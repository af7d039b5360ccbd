// The storage encoding of metadata.managedFields (runtime/storage/kvstore/managedfields-frame.ts):
// objects read back exactly as written (values, key order, the entries' place among metadata's
// keys), plain JSON of older writes still reads, corrupt frames fail as corrupt data without
// unbounded memory, and resources whose transformer encrypts keep plain JSON.
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { test } from 'node:test';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { CorruptObjError } from '../../runtime/storage/errors.js';
import { Codec } from '../../runtime/storage/kvstore/codec.js';
import { InflatedFieldsCache, encodeManagedFieldsFrame, isManagedFieldsFrame, parseStoredObject } from '../../runtime/storage/kvstore/managedfields-frame.js';
import { identityTransformer } from '../../runtime/storage/transformer.js';
import { newResourceTransformers } from '../../runtime/storage/value/resources.js';
import { apiObjectVersioner } from '../../runtime/storage/versioner.js';

const entries = [
  {
    manager: 'kubectl',
    operation: 'Apply',
    apiVersion: 'v1',
    time: '2026-11-26T07:26:28Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:data': { 'f:LOG_LEVEL': {}, 'f:PORT': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } },
  },
  { manager: 'kubectl-label', operation: 'Update', apiVersion: 'v1', time: '2026-11-26T07:26:29Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:edited': {} } } } },
];

const configMap = (metadata: Record<string, unknown>): StoredObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { LOG_LEVEL: 'info', PORT: '8080' } }) as StoredObject;

const encodeJSON = (o: StoredObject): string => apiObjectVersioner.encodeForStorage(o);

test('an object with managedFields is stored as a frame and reads back byte for byte, the entries at their place', () => {
  for (const at of ['first', 'middle', 'last'] as const) {
    const meta: Record<string, unknown> = {};
    if (at === 'first') meta['managedFields'] = entries;
    meta['name'] = 'cm';
    meta['namespace'] = 'default';
    if (at === 'middle') meta['managedFields'] = entries;
    meta['labels'] = { app: 'bench', edited: 'yes' };
    if (at === 'last') meta['managedFields'] = entries;
    const obj = configMap(meta);
    const frame = encodeManagedFieldsFrame(obj, encodeJSON);
    assert.ok(isManagedFieldsFrame(frame), at);
    assert.equal(JSON.stringify(parseStoredObject(frame)), encodeJSON(obj), at);
    assert.ok(frame.length < Buffer.byteLength(encodeJSON(obj)), `${at}: the frame is smaller than the JSON`);
    assert.deepEqual(encodeManagedFieldsFrame(obj, encodeJSON), frame, `${at}: the encoding is deterministic (no-op writes compare bytes)`);
  }
});

test('objects without managedFields, and older values stored as JSON, are plain JSON', () => {
  const plain = configMap({ name: 'cm', namespace: 'default' });
  const bytes = encodeManagedFieldsFrame(plain, encodeJSON);
  assert.equal(bytes.toString(), encodeJSON(plain));
  assert.equal(encodeManagedFieldsFrame(configMap({ name: 'cm', managedFields: [] }), encodeJSON).toString(), encodeJSON(configMap({ name: 'cm', managedFields: [] })));
  const legacy = Buffer.from(encodeJSON(configMap({ name: 'cm', managedFields: entries })));
  assert.deepEqual(parseStoredObject(legacy), JSON.parse(legacy.toString()));
});

test('keys named __proto__ and constructor in metadata and in the entries stay data', () => {
  const meta = JSON.parse('{"name":"cm","__proto__":{"polluted":true},"constructor":"x","managedFields":[{"manager":"__proto__","fieldsV1":{"f:__proto__":{}}}]}') as Record<string, unknown>;
  const obj = configMap(meta);
  const back = parseStoredObject(encodeManagedFieldsFrame(obj, encodeJSON)) as { metadata: Record<string, unknown> };
  assert.equal(JSON.stringify(back), encodeJSON(obj));
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.equal(Object.getPrototypeOf(back.metadata), Object.prototype);
});

test('a corrupt frame is corrupt data (CorruptObjError), and a deflate bomb does not inflate without bound', () => {
  const codec = new Codec<StoredObject>(apiObjectVersioner, () => identityTransformer);
  const frame = codec.encode(configMap({ name: 'cm', managedFields: entries }));
  const corrupt = [
    frame.subarray(0, 3),
    Buffer.concat([frame.subarray(0, 1), Buffer.from([9]), frame.subarray(2)]),
    Buffer.concat([frame.subarray(0, frame.length - 4), Buffer.from([0xff, 0xff, 0xff, 0xff])]),
  ];
  for (const data of corrupt) assert.throws(() => codec.decode(data, 5, '/registry/configmaps/default/cm'), CorruptObjError);
  const body = Buffer.from('{"metadata":{"name":"b"}}');
  const bomb = deflateRawSync(Buffer.alloc(20 * 1024 * 1024, 0x20), { level: 9 });
  const frameOfBomb = Buffer.concat([Buffer.from([0, 1, body.length, 1]), body, bomb]);
  assert.throws(() => codec.decode(frameOfBomb, 5, '/registry/configmaps/default/b'), CorruptObjError);
});

test('the codec stores plain JSON for resources whose transformer encrypts', () => {
  const obj = configMap({ name: 'cm', managedFields: entries });
  const transformers = newResourceTransformers([{ resources: [{ group: '', resource: 'configmaps' }], providers: [{ type: 'aesgcm', keys: [{ name: 'k', secret: Buffer.alloc(32, 1) }] }] }]);
  const encrypted = new Codec<StoredObject>(apiObjectVersioner, () => transformers.transformerForResource({ group: '', resource: 'configmaps' }));
  assert.equal(encrypted.encode(obj).toString(), encodeJSON(obj));
  const identityFirst = newResourceTransformers([
    { resources: [{ group: '', resource: 'configmaps' }], providers: [{ type: 'identity' }, { type: 'aesgcm', keys: [{ name: 'k', secret: Buffer.alloc(32, 1) }] }] },
  ]);
  const plain = new Codec<StoredObject>(apiObjectVersioner, () => identityFirst.transformerForResource({ group: '', resource: 'configmaps' }));
  assert.ok(isManagedFieldsFrame(plain.encode(obj)));
});

test('the inflated entries of frames met lately are kept by their bytes, in two generations bounded in bytes', () => {
  // 30 bytes an entry (20 of key, 2 × 5 of text); a generation holds 100 / 2 = 50: one entry
  const cache = new InflatedFieldsCache(100, 40);
  const frame = (c: string): Buffer => Buffer.from(c.repeat(20));
  const read = (c: string): string | undefined => cache.get(cache.keyOf(Buffer.from(frame(c)))!);
  cache.set(frame('a'), 'aaaaa');
  // The same bytes in another buffer (a watch event, a read from etcd) find the entry.
  assert.equal(read('a'), 'aaaaa');
  cache.set(frame('b'), 'bbbbb'); // a turns previous
  assert.equal(read('a'), 'aaaaa', 'an entry of the previous generation is still found, and moves to the current one');
  cache.set(frame('c'), 'ccccc');
  assert.equal(read('b'), undefined, 'an entry not read for two generations is gone');
  assert.equal(read('c'), 'ccccc');
  // Above a generation's bytes, or above the frame size limit, nothing is kept.
  cache.set(frame('d'), 'd'.repeat(20));
  assert.equal(read('d'), undefined);
  assert.equal(cache.keyOf(Buffer.alloc(41)), undefined);
});

test('the bytes of a frame in another buffer (a watch event, a read from etcd) read back the same, every time', () => {
  const obj = configMap({ name: 'cached', namespace: 'default', managedFields: entries });
  const stored = encodeManagedFieldsFrame(obj, encodeJSON);
  for (let i = 0; i < 2; i++) assert.equal(JSON.stringify(parseStoredObject(Buffer.from(stored))), encodeJSON(obj));
  // Each read is a fresh object: changing one does not change the next.
  const first = parseStoredObject(Buffer.from(stored)) as StoredObject;
  (first.metadata!.managedFields as unknown[]).length = 0;
  assert.equal(JSON.stringify(parseStoredObject(Buffer.from(stored))), encodeJSON(obj));
});
