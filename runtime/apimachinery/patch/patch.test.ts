import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StatusError } from '../errors/index.js';
import { applyJSONPatch, applyMergePatch } from './index.js';

const b = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

function statusOf(fn: () => unknown): { code: number; reason: string; message: string; details: unknown } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return { code: err.code, reason: err.reason, message: err.message, details: err.status.details };
  }
  assert.fail('expected an error');
}

describe('applyJSONPatch', () => {
  const doc = { metadata: { name: 'a', labels: { x: '1' } }, spec: { replicas: 1, list: ['a', 'b'] } };
  test('operations', () => {
    const ops = [
      { op: 'replace', path: '/spec/replicas', value: 4 },
      { op: 'add', path: '/metadata/labels/y', value: '2' },
      { op: 'remove', path: '/metadata/labels/x' },
      { op: 'add', path: '/spec/list/-', value: 'c' },
      { op: 'move', from: '/spec/list/0', path: '/spec/first' },
      { op: 'copy', from: '/spec/first', path: '/spec/copy' },
      { op: 'test', path: '/spec/replicas', value: 4 },
    ];
    const r = applyJSONPatch(doc, b(ops));
    assert.deepEqual(r.value, { metadata: { name: 'a', labels: { y: '2' } }, spec: { replicas: 4, list: ['b', 'c'], first: 'a', copy: 'a' } });
    assert.deepEqual(r.strictErrors, []);
    assert.deepEqual(doc.spec.list, ['a', 'b'], 'original untouched');
  });
  test('failing operations are 422 with the generic message and empty details', () => {
    for (const ops of [
      [{ op: 'test', path: '/spec/replicas', value: 2 }],
      [{ op: 'remove', path: '/nope' }],
      [{ op: 'replace', path: '/a/b', value: 1 }],
      [{ op: 'bogus', path: '/a' }],
      [{ op: 'add', path: '/__proto__/x', value: 1 }],
    ]) {
      assert.deepEqual(
        statusOf(() => applyJSONPatch(doc, b(ops))),
        { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} },
      );
    }
  });
  test('undecodable patches are 400 error decoding patch', () => {
    assert.equal(statusOf(() => applyJSONPatch(doc, b('[{"op":'))).message, 'error decoding patch: unexpected end of JSON input');
    assert.equal(statusOf(() => applyJSONPatch(doc, b({ op: 'add' }))).message, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    assert.equal(statusOf(() => applyJSONPatch(doc, b(['x']))).message, 'error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp');
    assert.equal(statusOf(() => applyJSONPatch(doc, b([{ op: 1 }]))).message, 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string');
  });
  test('strict problems: unknown and duplicate fields', () => {
    const r = applyJSONPatch(doc, b('[{"op":"replace","op":"replace","path":"/spec/replicas","value":2,"extra":1}]'));
    assert.deepEqual(r.strictErrors, ['json patch unknown field "[0].extra"', 'json patch duplicate field "[0].op"']);
  });
  test('too many operations is 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/spec/replicas', value: 1 }));
    const s = statusOf(() => applyJSONPatch(doc, b(ops)));
    assert.equal(s.code, 413);
    assert.equal(s.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
  });
});

describe('applyMergePatch', () => {
  const doc = { metadata: { name: 'a', labels: { x: '1', y: '2' } }, spec: { list: [1, 2], obj: { a: 1 }, s: 'v' } };
  const cases: Array<{ name: string; patch: unknown; want: unknown }> = [
    { name: 'null deletes', patch: { metadata: { labels: { x: null } } }, want: { metadata: { name: 'a', labels: { y: '2' } }, spec: doc.spec } },
    { name: 'arrays replaced', patch: { spec: { list: [3] } }, want: { metadata: doc.metadata, spec: { list: [3], obj: { a: 1 }, s: 'v' } } },
    {
      name: 'new objects lose their nulls, arrays keep null items',
      patch: { spec: { n: { a: null, b: 1, c: [null, { d: null }] } } },
      want: { metadata: doc.metadata, spec: { ...doc.spec, n: { b: 1, c: [null, {}] } } },
    },
    { name: 'object replaces scalar', patch: { spec: { s: { a: 1, b: null } } }, want: { metadata: doc.metadata, spec: { ...doc.spec, s: { a: 1 } } } },
    { name: 'scalar replaces object', patch: { spec: { obj: 'x' } }, want: { metadata: doc.metadata, spec: { ...doc.spec, obj: 'x' } } },
    { name: 'empty patch', patch: {}, want: doc },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(applyMergePatch(doc, b(c.patch)).value, c.want));
  test('original untouched', () => {
    applyMergePatch(doc, b({ metadata: { labels: null } }));
    assert.deepEqual(doc.metadata.labels, { x: '1', y: '2' });
  });
  test('errors', () => {
    assert.deepEqual(
      statusOf(() => applyMergePatch(doc, b('null'))),
      { code: 400, reason: 'BadRequest', message: 'Invalid JSON Patch', details: undefined },
    );
    assert.equal(statusOf(() => applyMergePatch(doc, b([1]))).message, 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
    assert.equal(statusOf(() => applyMergePatch(doc, b('{x'))).message, "error decoding patch: invalid character 'x' looking for beginning of object key string");
  });
  test('duplicates reported', () => {
    assert.deepEqual(applyMergePatch(doc, b('{"spec":{"s":"a","s":"b"}}')).strictErrors, ['duplicate field "spec.s"']);
  });
  test('deeply nested patch is a 400 or applies, never a crash', () => {
    const deep = `{"spec":{"n":${'{"a":'.repeat(9990)}null${'}'.repeat(9990)}}}`;
    try {
      applyMergePatch(doc, b(deep));
    } catch (err) {
      assert.ok(err instanceof StatusError && err.code === 400);
    }
  });
});
