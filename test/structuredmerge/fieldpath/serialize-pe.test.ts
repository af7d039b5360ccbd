/** sigs.k8s.io/structured-merge-diff fieldpath/serialize-pe_test.go. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  deserializePathElement,
  errUnknownPathElementType,
  fieldNameElement,
  indexElement,
  keyElement,
  serializePathElement,
  valueElement,
  type PathElement,
} from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';

const key = (name: string, value: unknown): PathElement => keyElement({ name, value });

describe('TestPathElementRoundTrip', () => {
  const tests: Array<[string, PathElement]> = [
    ['i:0', indexElement(0)],
    ['i:1234', indexElement(1234)],
    ['f:', fieldNameElement('')],
    ['f:spec', fieldNameElement('spec')],
    ['f:more-complicated-string', fieldNameElement('more-complicated-string')],
    ['f: string-with-spaces   ', fieldNameElement(' string-with-spaces   ')],
    ['f:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', fieldNameElement('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')],
    ['k:{"name":"my-container"}', key('name', 'my-container')],
    ['k:{"name":"   name with spaces   "}', key('name', '   name with spaces   ')],
    ['k:{"port":"8080","protocol":"TCP"}', keyElement({ name: 'port', value: '8080' }, { name: 'protocol', value: 'TCP' })],
    ['k:{"optionalField":null}', key('optionalField', null)],
    ['k:{"jsonField":{"A":1,"B":null,"C":"D","E":{"F":"G"}}}', key('jsonField', { A: 1, B: null, C: 'D', E: { F: 'G' } })],
    ['k:{"listField":["1","2","3"]}', key('listField', ['1', '2', '3'])],
    ['v:null', valueElement(null)],
    ['v:"some-string"', valueElement('some-string')],
    ['v:1234', valueElement(1234)],
    ['v:{"some":"json"}', valueElement({ some: 'json' })],
    ['v:{"some":" some  with spaces  "}', valueElement({ some: ' some  with spaces  ' })],
    ['k:{"name":"app-🚀"}', key('name', 'app-🚀')],
    ['k:{"name":"app-💻"}', key('name', 'app-💻')],
    ['k:{"name":"app with-unicøde"}', key('name', 'app with-unicøde')],
    ['k:{"name":"你好世界"}', key('name', '你好世界')],
    ['k:{"name":"Привет, мир"}', key('name', 'Привет, мир')],
    ['k:{"name":"नमस्ते दुनिया"}', key('name', 'नमस्ते दुनिया')],
    ['k:{"name":"👋"}', key('name', '👋')],
    ['f:spec-🚀', fieldNameElement('spec-🚀')],
    ['f:spec-\\n', fieldNameElement('spec-\\n')],
  ];
  for (const [stringValue, pathElement] of tests) {
    test(stringValue, () => {
      const pe = deserializePathElement(stringValue);
      assert.deepEqual(pe, pathElement);
      assert.equal(serializePathElement(pe), stringValue);
    });
  }
});

test('TestPathElementIgnoreUnknown', () => {
  assert.throws(
    () => deserializePathElement('r:Hello'),
    (err) => err === errUnknownPathElementType,
  );
});

describe('TestDeserializePathElementError', () => {
  const tests = [
    '',
    'no-colon',
    'i:index is not a number',
    'i:1.23',
    'i:',
    'v:invalid json',
    'v:',
    'k:invalid json',
    'k:{"name":invalid}',
    'v:{"some":" \\x41"}',
    'v',
    'k',
    'f',
    'i',
    'v:{"a":"b"',
    'k:{"a":"b"',
    'i: 0',
    'i:0 ',
    'v:{"some":"json"} {"other":"json"}',
    'k:{"name":"my-container"} {"other":"my-container"}',
    'v:{"some":"json"} {"other":"json"',
    'k:{"name":"my-container"} {"other":"my-container"',
    'v:{"some":"json"} garbage',
    'k:{"name":"my-container"} garbage',
  ];
  for (const input of tests) {
    test(input, () => assert.throws(() => deserializePathElement(input)));
  }
});

describe('TestDeserializePathElementSuccess', () => {
  const tests: Array<[string, PathElement]> = [
    // Leading whitespace
    ['v: {"some":"json"}', valueElement({ some: 'json' })],
    ['k: {"name":"my-container"}', key('name', 'my-container')],
    // Trailing whitespace
    ['v:{"some":"json"} ', valueElement({ some: 'json' })],
    ['k:{"name":"my-container"} ', key('name', 'my-container')],
    // Single-byte escapes in map key of key element (`k`)
    ['k:{"name\\u002dcontainer":"my-container"}', key('name-container', 'my-container')],
    ['k:{"name\\nwith\\nnewlines":"my-container"}', key('name\nwith\nnewlines', 'my-container')],
    ['k:{"name\\"quoted\\"":"my-container"}', key('name"quoted"', 'my-container')],
    // Multi-byte escapes in map key of key element (`k`)
    ['k:{"name-\\ud83d\\ude80":"my-container"}', key('name-🚀', 'my-container')],
    ['k:{"\\u4f60\\u597d":"\\u4e16\\u754c"}', key('你好', '世界')],
    // Single-byte escapes in value element (`v`)
    ['v:"value\\u002dcontainer"', valueElement('value-container')],
    ['v:"value\\nwith\\nnewlines"', valueElement('value\nwith\nnewlines')],
    ['v:"value\\"quoted\\""', valueElement('value"quoted"')],
    // Multi-byte escapes in value element (`v`)
    ['v:"value-\\ud83d\\ude80"', valueElement('value-🚀')],
    ['v:"\\u4f60\\u597d"', valueElement('你好')],
    // Unescaped UTF-8 in key/value
    ['k:{"name-🚀":"my-container"}', key('name-🚀', 'my-container')],
    ['v:"value-🚀"', valueElement('value-🚀')],
  ];
  for (const [stringValue, pathElement] of tests) {
    test(stringValue, () => assert.deepEqual(deserializePathElement(stringValue), pathElement));
  }
});

describe('path element wording and hostile keys', () => {
  test("errors are worded as SMD's and Go's", () => {
    assert.throws(() => deserializePathElement(''), { message: 'key must be 2 characters long:' });
    assert.throws(() => deserializePathElement('no-colon'), { message: 'missing colon: no-colon' });
    assert.throws(() => deserializePathElement('i:1.23'), { message: 'strconv.Atoi: parsing "1.23": invalid syntax' });
    assert.throws(() => deserializePathElement('i:'), { message: 'strconv.Atoi: parsing "": invalid syntax' });
    assert.throws(() => deserializePathElement('i:99999999999999999999'), { message: 'strconv.Atoi: parsing "99999999999999999999": value out of range' });
    assert.throws(() => deserializePathElement('v:invalid json'), { message: "invalid character 'i' looking for beginning of value" });
    assert.throws(() => deserializePathElement('v:{"a":"b"'), { message: 'unexpected end of JSON input' });
    assert.throws(() => deserializePathElement('k:{"a":1} garbage'), { message: "invalid character 'g' after top-level value" });
    assert.throws(() => deserializePathElement('k:[1]'), { message: 'ReadObjectCB: expect { or n, but found [' });
  });
  test('Atoi accepts a sign and leading zeros as Go does', () => {
    assert.deepEqual(deserializePathElement('i:+007'), indexElement(7));
    assert.deepEqual(deserializePathElement('i:-1'), indexElement(-1));
  });
  test('__proto__ is data in field names and key fields', () => {
    assert.deepEqual(deserializePathElement('f:__proto__'), fieldNameElement('__proto__'));
    const pe = deserializePathElement('k:{"__proto__":"x","constructor":1}');
    assert.deepEqual(pe, keyElement({ name: '__proto__', value: 'x' }, { name: 'constructor', value: 1 }));
    assert.equal(serializePathElement(pe), 'k:{"__proto__":"x","constructor":1}');
    assert.equal(serializePathElement(valueElement(JSON.parse('{"__proto__":{"b":1,"a":2}}'))), 'v:{"__proto__":{"a":2,"b":1}}');
  });
  test('values are written as Go writes JSON: sorted keys, HTML characters escaped', () => {
    assert.equal(serializePathElement(valueElement({ b: 1, a: '<&>\u2028', c: [1.5, true, null] })), 'v:{"a":"\\u003c\\u0026\\u003e\\u2028","b":1,"c":[1.5,true,null]}');
    assert.equal(serializePathElement(key('n', 'tab\t\u0001')), 'k:{"n":"tab\\t\\u0001"}');
  });
  test('a huge key is read or refused without trouble', () => {
    const big = 'x'.repeat(1 << 20);
    assert.deepEqual(deserializePathElement(`v:"${big}"`), valueElement(big));
    assert.throws(() => deserializePathElement(`i:${'9'.repeat(1 << 20)}`), /value out of range/);
    assert.throws(() => deserializePathElement(`v:${'['.repeat(20_000)}`), /exceeded max depth/);
  });
});

test('keys read again are the same frozen element, never to be changed by a reader', () => {
  const a = deserializePathElement('k:{"name":"shared","port":80}');
  const b = deserializePathElement('k:{"name":"shared","port":80}');
  assert.equal(a, b);
  assert.ok(Object.isFrozen(a) && 'key' in a && Object.isFrozen(a.key) && a.key.every((f) => Object.isFrozen(f)));
  // Keys holding objects are not shared: their values could be changed in place.
  const c = deserializePathElement('k:{"o":{"x":1}}');
  assert.notEqual(c, deserializePathElement('k:{"o":{"x":1}}'));
});
