import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { StatusError } from '../errors/index.js';
import { decodeBody } from './decode.js';
import { byteLengthJSON, deepCopyJSON, deepEqualJSON, hasField, ownField, setField } from './jsonvalue.js';
import { MAX_OBJECT_DEPTH } from './json-scan.js';
import { MAX_YAML_DEPTH } from './yaml.js';
import { parseContentType, patchTypeOf } from './mediatype.js';

const b = (s: string): Buffer => Buffer.from(s);

function statusOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected an error');
}

describe('decoded values keep __proto__ and constructor as own fields', () => {
  afterEach(() => assert.deepEqual(Object.keys(Object.prototype), []));
  const body = '{"metadata":{"name":"a","__proto__":{"isAdmin":true},"labels":{"constructor":"c"}},"__proto__":{"isAdmin":true}}';

  for (const contentType of ['application/json', 'application/yaml']) {
    test(`${contentType}: own properties, plain prototypes`, () => {
      const v = decodeBody(b(body), contentType).value as Record<string, Record<string, unknown>>;
      assert.equal(Object.getPrototypeOf(v), Object.prototype);
      assert.deepEqual(ownField(v, '__proto__'), { isAdmin: true });
      assert.deepEqual(ownField(v['metadata'] ?? {}, '__proto__'), { isAdmin: true });
      assert.equal(ownField(v['metadata']?.['labels'] as object, 'constructor'), 'c');
      assert.equal(JSON.stringify(v), body);
    });
  }

  test('deepCopyJSON, deepEqualJSON and byteLengthJSON see __proto__ as a field', () => {
    const v = JSON.parse(body) as Record<string, unknown>;
    const c = deepCopyJSON(v);
    assert.equal(JSON.stringify(c), body);
    assert.ok(deepEqualJSON(v, c));
    assert.ok(!deepEqualJSON(v, JSON.parse('{"metadata":{"name":"a","labels":{"constructor":"c"}}}')));
    assert.equal(byteLengthJSON(v), Buffer.byteLength(body));
    assert.equal(byteLengthJSON({ s: '<a&b>\u2028é', n: [1, 2.5, null, true] }), Buffer.byteLength('{"s":"\\u003ca\\u0026b\\u003e\\u2028é","n":[1,2.5,null,true]}'));
  });

  test('ownField/hasField/setField never reach Object', () => {
    const o: Record<string, unknown> = {};
    for (const k of ['__proto__', 'constructor', 'prototype', 'toString']) {
      assert.equal(hasField(o, k), false);
      assert.equal(ownField(o, k), undefined);
      setField(o, k, { isAdmin: true });
      assert.deepEqual(ownField(o, k), { isAdmin: true });
    }
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.deepEqual(Object.keys(o), ['__proto__', 'constructor', 'prototype', 'toString']);
  });
});

describe('YAML tags end as go-yaml v2 and encoding/json leave them (sigs.k8s.io/yaml.YAMLToJSON)', () => {
  const decode = (s: string): unknown => decodeBody(b(s), 'application/yaml').value;
  test('!!binary, !!timestamp, !!set, !!omap, !!pairs and custom tags are JSON values', () => {
    assert.deepEqual(decode('a: !!binary aGVsbG8='), { a: 'hello' });
    assert.deepEqual(decode('a: !!binary |\n  aGVs\n  bG8=\n'), { a: 'hello' });
    // Decoded into interface{}, go-yaml keeps a timestamp's text (its backward compatibility).
    assert.deepEqual(decode('a: !!timestamp 2001-12-14'), { a: '2001-12-14' });
    assert.deepEqual(decode('a: !!timestamp 2001-12-14T21:59:43.10Z'), { a: '2001-12-14T21:59:43.10Z' });
    assert.deepEqual(decode('a: 2001-12-14'), { a: '2001-12-14' });
    // `y` is YAML 1.1's true, as a key too.
    assert.deepEqual(decode('a: !!set {x, y}'), { a: { x: null, true: null } });
    assert.deepEqual(decode('a: !!omap [x: 1, z: 2]'), { a: [{ x: 1 }, { z: 2 }] });
    assert.deepEqual(decode('a: !!pairs [x: 1]'), { a: [{ x: 1 }] });
    assert.deepEqual(decode('a: !foo bar\nb: !foo {c: 1}'), { a: 'bar', b: { c: 1 } });
  });
  test("bad base64 in !!binary is 400 with go-yaml's message", () => {
    for (const v of ['"!!!"', 'aGVsbG8', 'a b']) {
      const s = statusOf(() => decodeBody(b(`a: !!binary ${v}`), 'application/yaml', { kind: 'ConfigMap' }));
      assert.equal(s.code, 400);
      assert.equal(s.reason, 'BadRequest');
      assert.match(s.message, /^the object provided is unrecognized \(must be of type ConfigMap\): yaml: !!binary value contains invalid base64 data \(/);
    }
  });
});

describe("Content-Type is parsed as Go's mime.ParseMediaType", () => {
  test('well-formed types and parameters', () => {
    assert.deepEqual(parseContentType('application/json'), { type: 'application', subtype: 'json', params: {} });
    assert.deepEqual(parseContentType('Application/JSON ; charset="utf-8";'), { type: 'application', subtype: 'json', params: { charset: 'utf-8' } });
    assert.deepEqual(parseContentType('application/yaml;a=b; c = "d;e"'), { type: 'application', subtype: 'yaml', params: { a: 'b', c: 'd;e' } });
  });
  test('malformed values are undefined (a 415)', () => {
    for (const v of [
      '',
      'json',
      '/json',
      'application/',
      'application/json/x',
      'application/json;;;',
      'application/json;charset',
      'application/json;charset=',
      'application/json;a="b',
      'application/json;a=1;a=2',
      'application json',
      ';;;',
    ]) {
      assert.equal(parseContentType(v), undefined, v);
    }
  });
  test('a patch type is the text before the first ";", case and all (kube\'s PatchResource)', () => {
    assert.equal(patchTypeOf('application/merge-patch+json'), 'application/merge-patch+json');
    assert.equal(patchTypeOf('application/merge-patch+json;;;'), 'application/merge-patch+json');
    assert.equal(patchTypeOf('application/json-patch+json; charset=utf-8'), 'application/json-patch+json');
    assert.equal(patchTypeOf('APPLICATION/JSON-PATCH+JSON'), 'APPLICATION/JSON-PATCH+JSON');
    assert.equal(patchTypeOf('application/merge-patch+json ;x=1'), 'application/merge-patch+json ');
  });
  test('decodeBody answers 415 listing the accepted types', () => {
    for (const ct of ['application/json;;;', 'foo', 'application/json;charset']) {
      const s = statusOf(() => decodeBody(b('{}'), ct));
      assert.equal(s.code, 415, ct);
      assert.equal(s.reason, 'UnsupportedMediaType');
      assert.equal(s.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
    }
    assert.deepEqual(decodeBody(b('{}'), 'application/json; charset=utf-8;').value, {});
  });
});

describe('object bodies nest at most MAX_OBJECT_DEPTH levels (what structuredClone and JSON.stringify can process)', () => {
  const deepJSON = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  test("JSON: 1000 levels decode, 1001 are a 400 with the scanner's message", () => {
    assert.equal(MAX_OBJECT_DEPTH, 1000);
    assert.ok(decodeBody(b(deepJSON(1000)), 'application/json').value);
    const s = statusOf(() => decodeBody(b(deepJSON(1001)), 'application/json'));
    assert.equal(s.code, 400);
    assert.equal(s.message, "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth");
    assert.equal(statusOf(() => decodeBody(b(deepJSON(9999)), 'application/json')).code, 400);
  });
  test('YAML: past the limit, or past what the parser can follow, is a 400', () => {
    for (const n of [1001, 5000, 20000]) {
      const s = statusOf(() => decodeBody(b(`a: ${'['.repeat(n)}${']'.repeat(n)}`), 'application/yaml'));
      assert.equal(s.code, 400);
      assert.equal(s.message, 'yaml: exceeded max depth');
    }
    const block = Array.from({ length: 1100 }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1\n';
    assert.equal(statusOf(() => decodeBody(b(block), 'application/yaml')).message, 'yaml: exceeded max depth');
  });
});

describe('YAML nesting is bounded before the YAML library recurses', () => {
  test('deep flow, block and compact nesting are refused in linear time; JSON in a YAML body decodes as JSON', () => {
    const yaml = (s: string): StatusError => statusOf(() => decodeBody(b(s), 'application/yaml'));
    for (const n of [MAX_YAML_DEPTH, 5000, 200_000]) {
      assert.equal(yaml(`a: ${'['.repeat(n)}${']'.repeat(n)}`).message, 'yaml: exceeded max depth');
      assert.equal(yaml(`a: ${'{a: '.repeat(n)}1${'}'.repeat(n)}`).message, 'yaml: exceeded max depth');
    }
    assert.equal(yaml('- '.repeat(600) + 'x').message, 'yaml: exceeded max depth');
    assert.deepEqual(decodeBody(b(`a: ${'['.repeat(400)}${']'.repeat(400)}`), 'application/yaml').duplicateFields, []);
    assert.deepEqual(decodeBody(b('a: |\n  {{{{[[[[\n'), 'application/yaml').value, { a: '{{{{[[[[\n' });
    const json = decodeBody(b(' {"a":1,"a":2,"__proto__":{"x":1}}'), 'application/yaml');
    assert.equal(JSON.stringify(json.value), '{"a":2,"__proto__":{"x":1}}');
    assert.deepEqual(json.duplicateFields, ['a']);
    assert.deepEqual(decodeBody(b('{a: 1, b: [x]}'), 'application/yaml').value, { a: 1, b: ['x'] }, 'flow YAML that is not JSON');
    // go-yaml reads a number out of float64's range as a string.
    assert.deepEqual(decodeBody(b('{"a": 1e400}'), 'application/yaml').value, { a: '1e400' });
    assert.equal(yaml('{"a": .inf}').message, 'json: unsupported value: +Inf');
  });
});

describe("strings decode as Go's encoding/json decodes them", () => {
  test('unpaired surrogate escapes become U+FFFD, in values and keys, in JSON and JSON-in-YAML bodies; pairs stay', () => {
    for (const ct of ['application/json', 'application/yaml']) {
      const v = decodeBody(b('{"a":"\\ud800","b":["x\\udfffy",{"\\udc00k":"\\ud83d\\ude00"}],"__proto__":{"c":"\\udc00\\ud800"}}'), ct).value;
      assert.equal(JSON.stringify(v), '{"a":"\ufffd","b":["x\ufffdy",{"\ufffdk":"\ud83d\ude00"}],"__proto__":{"c":"\ufffd\ufffd"}}', ct);
    }
    assert.equal(decodeBody(b('"\\ud800"'), 'application/json').value, '\ufffd');
  });
});
