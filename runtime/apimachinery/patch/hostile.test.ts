import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { StatusError } from '../errors/index.js';
import { applyJSONPatch, applyMergePatch, applyStrategicMergePatch, JSON_PATCH_MAX_COPY_BYTES } from './index.js';

// Keys a client sends are data: patches must neither pollute Object.prototype nor lose such keys.

const b = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const probe = (): unknown => (({}) as Record<string, unknown>)['isAdmin'];

function assertClean(): void {
  assert.equal(probe(), undefined, 'Object.prototype polluted');
  assert.deepEqual(Object.keys(Object.prototype), []);
  assert.equal((Object as unknown as Record<string, unknown>)['isAdmin'], undefined, 'Object polluted');
}

function statusOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected an error');
}

const own = (o: unknown, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? (o as Record<string, unknown>)[k] : 'absent');

describe('patches treat __proto__, constructor and prototype as field names', () => {
  afterEach(assertClean);
  const doc = { metadata: { name: 'a' }, data: { constructor: 'c' } };

  test('merge patch: {"__proto__":{"isAdmin":true}} is an own field, the prototype is untouched', () => {
    const r = applyMergePatch(doc, b('{"__proto__":{"isAdmin":true}}'));
    assert.equal(Object.getPrototypeOf(r.value), Object.prototype);
    assert.deepEqual(own(r.value, '__proto__'), { isAdmin: true });
    assert.equal(JSON.stringify(r.value), '{"metadata":{"name":"a"},"data":{"constructor":"c"},"__proto__":{"isAdmin":true}}');
  });
  test('merge patch: constructor.prototype and nested __proto__ merge into data', () => {
    const r = applyMergePatch(doc, b('{"constructor":{"prototype":{"isAdmin":true}},"data":{"constructor":{"x":1},"__proto__":"p"},"metadata":{"__proto__":{"isAdmin":1}}}'));
    const v = r.value as Record<string, Record<string, unknown>>;
    assert.deepEqual(own(v, 'constructor'), { prototype: { isAdmin: true } });
    assert.deepEqual(own(v['data'], 'constructor'), { x: 1 });
    assert.equal(own(v['data'], '__proto__'), 'p');
    assert.deepEqual(own(v['metadata'], '__proto__'), { isAdmin: 1 });
  });
  test('merge patch: null deletes a __proto__ field; deleting an absent one is a no-op', () => {
    const withProto = JSON.parse('{"a":1,"__proto__":{"x":1}}') as Record<string, unknown>;
    assert.deepEqual(applyMergePatch(withProto, b('{"__proto__":null}')).value, { a: 1 });
    assert.deepEqual(applyMergePatch({ a: 1 }, b('{"__proto__":null,"constructor":null}')).value, { a: 1 });
  });
  test('strategic merge patch: the same keys, with and without a schema', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { data: { type: 'object', additionalProperties: { type: 'string' } } } };
    for (const s of [undefined, schema]) {
      const r = applyStrategicMergePatch(doc, b('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},"data":{"__proto__":"p","constructor":"d"}}'), s);
      const v = r.value as Record<string, Record<string, unknown>>;
      assert.deepEqual(own(v, '__proto__'), { isAdmin: true });
      assert.deepEqual(own(v, 'constructor'), { prototype: { isAdmin: true } });
      assert.equal(own(v['data'], '__proto__'), 'p');
      assert.equal(own(v['data'], 'constructor'), 'd');
    }
  });
  test('JSON patch: paths through an absent __proto__ or constructor do not apply (422), as in Go', () => {
    for (const path of ['/__proto__/isAdmin', '/constructor/prototype/isAdmin', '/metadata/__proto__/isAdmin', '/data/toString/x']) {
      const s = statusOf(() => applyJSONPatch(doc, b([{ op: 'add', path, value: true }])));
      assert.equal(s.code, 422);
      assert.equal(s.message, 'the server rejected our request due to an error in our request');
    }
    assert.equal(statusOf(() => applyJSONPatch(doc, b([{ op: 'test', path: '/constructor', value: {} }]))).code, 422, 'an absent constructor is not Object');
  });
  test('JSON patch: add/replace/copy/move/remove of a __proto__ field is data', () => {
    const r = applyJSONPatch(
      doc,
      b([
        { op: 'add', path: '/__proto__', value: { isAdmin: true } },
        { op: 'add', path: '/__proto__/y', value: 1 },
        { op: 'replace', path: '/data/constructor', value: 'x' },
        { op: 'copy', from: '/__proto__', path: '/metadata/__proto__' },
        { op: 'move', from: '/data/constructor', path: '/data/prototype' },
        { op: 'test', path: '/metadata/__proto__', value: { isAdmin: true, y: 1 } },
        { op: 'remove', path: '/__proto__' },
      ]),
    );
    assert.equal(JSON.stringify(r.value), '{"metadata":{"name":"a","__proto__":{"isAdmin":true,"y":1}},"data":{"prototype":"x"}}');
    assert.equal(Object.getPrototypeOf(r.value), Object.prototype);
  });
  test('the original document is never modified', () => {
    const orig = JSON.parse('{"__proto__":{"a":1},"b":{"constructor":2}}') as Record<string, unknown>;
    const before = JSON.stringify(orig);
    applyMergePatch(orig, b('{"__proto__":{"a":2},"b":{"constructor":3}}'));
    applyStrategicMergePatch(orig, b('{"__proto__":{"a":2},"b":{"constructor":3}}'), undefined);
    applyJSONPatch(orig, b([{ op: 'replace', path: '/__proto__/a', value: 3 }]));
    assert.equal(JSON.stringify(orig), before);
  });
});

describe('JSON patch copy and operation limits (kube: JSONPatchMaxCopyBytes, maxJSONPatchOperations)', () => {
  test('22 doubling copies (a 2.8 KB patch) stop at the copy limit with a 422', () => {
    const ops = [{ op: 'add', path: '/spec', value: { s: 'x'.repeat(100) } }];
    for (let i = 0; i < 22; i++) ops.push({ op: 'copy', from: '/spec', path: `/spec/c${i}` } as never);
    assert.ok(b(ops).length < 3000);
    const s = statusOf(() => applyJSONPatch({ metadata: { name: 'a' } }, b(ops)));
    assert.equal(s.code, 422);
    assert.equal(s.reason, 'Invalid');
    assert.equal(s.message, 'the server rejected our request due to an error in our request');
    assert.deepEqual(s.status.details, {});
  });
  test('copies up to the limit apply; one byte more does not', () => {
    const value = 'y'.repeat(98); // 100 bytes of JSON with its quotes
    const doc = { v: value, list: [] as string[] };
    const copies = (n: number): Buffer => b(Array.from({ length: n }, () => ({ op: 'copy', from: '/v', path: '/list/-' })));
    assert.equal((applyJSONPatch(doc, copies(3), 300).value as typeof doc).list.length, 3);
    assert.equal(statusOf(() => applyJSONPatch(doc, copies(3), 299)).code, 422);
    assert.equal(JSON_PATCH_MAX_COPY_BYTES, 3 * 1024 * 1024);
  });
  test('10000 operations apply; 10001 are 413', () => {
    const ops = (n: number): Buffer => b(Array.from({ length: n }, (_, i) => ({ op: 'add', path: '/list/-', value: i })));
    assert.equal((applyJSONPatch({ list: [] }, ops(10000)).value as { list: number[] }).list.length, 10000);
    const s = statusOf(() => applyJSONPatch({ list: [] }, ops(10001)));
    assert.equal(s.code, 413);
    assert.equal(s.reason, 'RequestEntityTooLarge');
  });
});

describe('JSON patch semantics of evanphx/json-patch v4', () => {
  const apply = (doc: unknown, ops: unknown[]): unknown => applyJSONPatch(doc, b(ops)).value;
  test('negative indices, "-", replace of a missing key, copy of a missing key, whole-document replace and test', () => {
    assert.deepEqual(
      apply({ l: [1, 2, 3] }, [
        { op: 'remove', path: '/l/-1' },
        { op: 'add', path: '/l/-1', value: 9 },
      ]),
      { l: [1, 2, 9] },
    );
    assert.deepEqual(apply({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]), { a: 1, b: 2 });
    assert.deepEqual(apply({ a: 1 }, [{ op: 'copy', from: '/nope', path: '/b' }]), { a: 1, b: null });
    assert.deepEqual(
      apply({ a: 1 }, [
        { op: 'replace', path: '', value: { b: 2 } },
        { op: 'test', path: '', value: { b: 2 } },
      ]),
      { b: 2 },
    );
    assert.deepEqual(apply({ a: { b: 1 } }, [{ op: 'add', path: '/a/x~1y~0z', value: 1 }]), { a: { b: 1, 'x/y~z': 1 } });
  });
  test('operations that do not apply are 422', () => {
    for (const ops of [
      [{ op: 'add', path: '', value: 1 }],
      [{ op: 'add', path: '/l/5', value: 1 }],
      [{ op: 'add', path: '/l/x', value: 1 }],
      [{ op: 'remove', path: '/l/-3' }],
      [{ op: 'replace', path: '/l/2', value: 1 }],
      [{ op: 'move', from: '/nope', path: '/x' }],
      [{ op: 'test', path: '/l/0', value: 2 }],
      [{ op: 'add', path: '/n/x', value: 1 }],
      [{ op: 'bogus', path: '/l' }],
      [{ path: '/l' }],
    ]) {
      assert.equal(statusOf(() => applyJSONPatch({ l: [1, 2], n: null }, b(ops))).code, 422, JSON.stringify(ops));
    }
  });
});

describe('patches and patched objects nest at most MAX_OBJECT_DEPTH levels', () => {
  const deep = (n: number): unknown => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n));
  const doc = { metadata: { name: 'a' }, spec: {} };
  test('patch documents nesting deeper are a 400 from the decoder', () => {
    assert.equal(statusOf(() => applyMergePatch(doc, b({ spec: { x: deep(999) } }))).message, "error decoding patch: invalid character '{' exceeded max depth");
    assert.equal(statusOf(() => applyStrategicMergePatch(doc, b({ spec: { x: deep(999) } }), undefined)).message, "invalid character '{' exceeded max depth");
    assert.equal(statusOf(() => applyJSONPatch(doc, b([{ op: 'add', path: '/spec/x', value: deep(999) }]))).message, "error decoding patch: invalid character '{' exceeded max depth");
    assert.equal(statusOf(() => applyMergePatch({}, b('{"a":'.repeat(9000) + '1' + '}'.repeat(9000)))).code, 400);
    assert.ok(applyMergePatch(doc, b({ spec: { x: deep(997) } })).value, '1000 levels in all are fine');
  });
  test('JSON patches whose result nests deeper are 422 on patch, as kube answers a patched object its decoder refuses', () => {
    const below = `/spec/x${'/a'.repeat(450)}/y`;
    for (const ops of [
      [
        { op: 'add', path: '/spec/x', value: deep(600) },
        { op: 'add', path: below, value: deep(600) },
      ],
      [
        { op: 'add', path: '/spec/x', value: deep(600) },
        { op: 'copy', from: '/spec/x', path: below },
      ],
    ]) {
      const s = statusOf(() => applyJSONPatch(doc, b(ops)));
      assert.equal(s.code, 422);
      assert.match(s.message, /^ "" is invalid: patch: Invalid value: "\{\\"metadata\\":\{\\"name\\":\\"a\\"\},\\"spec\\":/);
      assert.match(s.message, /: invalid character '\{' exceeded max depth$/);
    }
  });
});
