import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StatusError } from '../errors/index.js';
import { bodyStrictErrors, decodeBody, deepCopyJSON, deepEqualJSON, parseMediaType, scanJSON, strictDecodingErrorMessage, duplicateFieldErrors } from './index.js';

const b = (s: string): Buffer => Buffer.from(s, 'utf8');

function badRequest(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    return err.message;
  }
  assert.fail('expected a 400');
}

describe('scanJSON: Go encoding/json syntax errors', () => {
  const cases: Array<[string, string]> = [
    ['', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":1', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['{,}', "invalid character ',' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['-', "invalid character ' ' in numeric literal"],
    ['[1.]', "invalid character ']' after decimal point in numeric literal"],
    ['[1e+]', "invalid character ']' in exponent of numeric literal"],
    ['["a\\x"]', "invalid character 'x' in string escape code"],
    ['["\\u12g4"]', "invalid character 'g' in \\u hexadecimal character escape"],
    ['["a\tb"]', "invalid character '\\t' in string literal"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['[01]', "invalid character '1' after array element"],
  ];
  for (const [input, message] of cases) {
    test(JSON.stringify(input), () => assert.throws(() => scanJSON(b(input)), { message }));
  }

  test('nesting: 10000 levels parse, 10001 fail, 1e6 fail without blowing the stack', () => {
    assert.deepEqual(scanJSON(b('['.repeat(10000) + ']'.repeat(10000))), []);
    assert.throws(() => scanJSON(b('['.repeat(10001) + ']'.repeat(10001))), { message: "invalid character '[' exceeded max depth" });
    assert.throws(() => scanJSON(b('{"a":'.repeat(1_000_000))), { message: "invalid character '{' exceeded max depth" });
  });

  test('duplicate fields with strict-decoder paths', () => {
    const dups = scanJSON(b('{"metadata":{"name":"a","name":"b","labels":{"x":"1","\\u0078":"2"}},"spec":{"ports":[{"port":1,"port":2}]},"kind":"A","kind":"B"}'));
    assert.deepEqual(dups, ['metadata.name', 'metadata.labels.x', 'spec.ports[0].port', 'kind']);
    assert.deepEqual(scanJSON(b('[{"op":"add","op":"x"}]')), ['[0].op']);
  });
});

describe('decodeBody', () => {
  test('JSON value and duplicates (last wins)', () => {
    const r = decodeBody(b('{"metadata":{"name":"a","name":"b"}}'), 'application/json; charset=utf-8');
    assert.deepEqual(r.value, { metadata: { name: 'b' } });
    assert.deepEqual(r.duplicateFields, ['metadata.name']);
    assert.equal(strictDecodingErrorMessage(duplicateFieldErrors(r.duplicateFields)), 'strict decoding error: duplicate field "metadata.name"');
  });

  test('malformed JSON: bare and create wording', () => {
    assert.equal(
      badRequest(() => decodeBody(b('{"a":}'), 'application/json')),
      "couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value",
    );
    assert.equal(
      badRequest(() => decodeBody(b('{"apiVersion":"v1","kind":"Namespace",}'), 'application/json', { kind: 'Namespace' })),
      `the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string ({"apiVersion":"v1","kind":"Nam ...)`,
    );
    assert.equal(
      badRequest(() => decodeBody(b('[1]'), 'application/json', { kind: 'Namespace' })),
      `the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b315d)`,
    );
    assert.match(
      badRequest(() => decodeBody(b('{"kind":1}'), 'application/json', { kind: 'Namespace' })),
      /cannot unmarshal number into Go struct field \.kind of type string/,
    );
    assert.match(
      badRequest(() => decodeBody(b(''), 'application/json', { kind: 'Namespace' })),
      /unexpected end of JSON input \(<empty>\)$/,
    );
  });

  test('deep JSON is a 400, not a crash', () => {
    assert.match(
      badRequest(() => decodeBody(b('['.repeat(200_000)), 'application/json')),
      /exceeded max depth/,
    );
  });

  test('YAML: value, duplicates, merge keys, errors', () => {
    const r = decodeBody(b('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  name: b\n  labels: {x: "1"}\n'), 'application/yaml');
    assert.deepEqual(r.value, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b', labels: { x: '1' } } });
    assert.deepEqual(r.duplicateFields, ['metadata.name']);
    assert.deepEqual(decodeBody(b('base: &b {a: 1}\nx:\n  <<: *b\n  c: 2\n'), 'application/yaml').value, { base: { a: 1 }, x: { a: 1, c: 2 } });
    // sigs.k8s.io/yaml's YAMLToJSON error, bare, at go-yaml's line; only the first document is read.
    assert.equal(
      badRequest(() => decodeBody(b('a: [1\n'), 'application/yaml')),
      "yaml: line 1: did not find expected ',' or ']'",
    );
    assert.deepEqual(decodeBody(b('a: 1\n---\nb: 2\n'), 'application/yaml').value, { a: 1 });
    assert.match(
      badRequest(() => decodeBody(b('a: .inf\n'), 'application/yaml')),
      /unsupported value: \+Inf/,
    );
    assert.match(
      badRequest(() => decodeBody(b('? [1, 2]\n: x\n'), 'application/yaml')),
      /^yaml: invalid map key: \[\]interface \{\}\{1, 2\}$/,
    );
  });

  test('YAML alias bomb fails fast with 400', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const started = Date.now();
    assert.match(
      badRequest(() => decodeBody(b(lines.join('\n')), 'application/yaml')),
      /alias/i,
    );
    assert.ok(Date.now() - started < 5000);
  });

  test('deep YAML is a 400', () => {
    assert.match(
      badRequest(() => decodeBody(b('a: ' + '['.repeat(20000) + ']'.repeat(20000)), 'application/yaml')),
      /yaml/,
    );
  });

  test('unsupported media type is 415', () => {
    assert.throws(
      () => decodeBody(b('{}'), 'application/vnd.kubernetes.protobuf'),
      (err: unknown) => err instanceof StatusError && err.code === 415,
    );
  });
});

describe('parseMediaType', () => {
  test('types and params', () => {
    assert.deepEqual(parseMediaType('application/json;as=Table;v=v1;g=meta.k8s.io'), { type: 'application', subtype: 'json', params: { as: 'Table', v: 'v1', g: 'meta.k8s.io' } });
    assert.deepEqual(parseMediaType(' Application/JSON ; charset="utf-8"'), { type: 'application', subtype: 'json', params: { charset: 'utf-8' } });
    assert.deepEqual(parseMediaType('*'), { type: '*', subtype: '*', params: {} });
    assert.equal(parseMediaType('json'), undefined);
    assert.equal(parseMediaType('a/b/c'), undefined);
  });
});

describe('JSON values', () => {
  test('deep copy and equality survive deep nesting and __proto__ keys', () => {
    const deep = JSON.parse('{"a":'.repeat(9000) + '1' + '}'.repeat(9000)) as unknown;
    const copy = deepCopyJSON(deep);
    assert.ok(deepEqualJSON(deep, copy));
    const proto = JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>;
    const c = deepCopyJSON(proto);
    assert.deepEqual(Object.keys(c), ['__proto__']);
    assert.equal(Object.getPrototypeOf(c), Object.prototype);
    assert.ok(!deepEqualJSON({ a: [1, 2] }, { a: [2, 1] }));
    assert.ok(deepEqualJSON({ a: 1, b: 2 }, { b: 2, a: 1 }));
  });
});

describe('strict decoding errors of a body (1.32 wording)', () => {
  test('JSON: duplicate field errors; YAML: go-yaml\'s "key already set in map" lines, one error or one warning per line', () => {
    const json = decodeBody(b('{"spec":{"image":"a","image":"b"}}'), 'application/json');
    assert.deepEqual(bodyStrictErrors(json), { errors: ['duplicate field "spec.image"'], warnings: ['duplicate field "spec.image"'] });
    const yaml = decodeBody(b('apiVersion: probe.example.com/v1\nkind: Widget\nmetadata:\n  name: ydup1\nspec:\n  image: a\n  image: b\n'), 'application/yaml');
    assert.deepEqual(bodyStrictErrors(yaml), {
      errors: ['yaml: unmarshal errors:\n  line 7: key "image" already set in map'],
      warnings: ['line 7: key "image" already set in map'],
    });
    assert.equal(strictDecodingErrorMessage(bodyStrictErrors(yaml).errors), 'strict decoding error: yaml: unmarshal errors:\n  line 7: key "image" already set in map');
    assert.deepEqual(bodyStrictErrors(decodeBody(b('a: 1\n'), 'application/yaml')), { errors: [], warnings: [] });
  });

  test('JSON numbers out of float64 range fail an unstructured decode as sigs.k8s.io/json does (400, the literal quoted)', () => {
    const body = b('{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"n"},"spec":{"replicas":1e400,"ratio":-2e999}}');
    const opts = { kind: 'Widget', unstructured: true, defaultAPIVersion: 'probe.example.com/v1' };
    assert.equal(
      badRequest(() => decodeBody(body, 'application/json', opts)),
      'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number 1e400 into Go value of type float64',
    );
    // A typed decode fails per field type elsewhere; 1e308 is in range.
    assert.doesNotThrow(() => decodeBody(body, 'application/json', { kind: 'Widget' }));
    assert.doesNotThrow(() => decodeBody(b('{"kind":"Widget","a":1e308,"b":-1.7976931348623157e308}'), 'application/json', opts));
    assert.match(
      badRequest(() => decodeBody(b(`{"kind":"Widget","a":${'9'.repeat(309)}}`), 'application/json', opts)),
      /cannot unmarshal number 9{309} into Go value of type float64$/,
    );
    // In YAML go-yaml reads 1e400 as a string.
    assert.deepEqual(decodeBody(b('kind: Widget\nspec:\n  replicas: 1e400\n'), 'application/yaml', opts).value, { kind: 'Widget', spec: { replicas: '1e400' } });
  });
});

describe('numbers Go decodes as float64 although they are integers here', () => {
  test('JSON: 1.0, 1e0, -0.0 and integers beyond int64 are reported by path; 1.5, 1 and int64 bounds are not; YAML has none', () => {
    const body = b('{"spec":{"replicas":1.0,"n":1,"r":1.5,"e":1e0,"z":-0.0,"l":[2.00,{"x":9223372036854775808}],"max":9223372036854775807,"min":-9223372036854775808}}');
    assert.deepEqual(decodeBody(body, 'application/json').integralFloats, [
      ['spec', 'replicas'],
      ['spec', 'e'],
      ['spec', 'z'],
      ['spec', 'l', 0],
      ['spec', 'l', 1, 'x'],
    ]);
    assert.equal(decodeBody(b('spec:\n  replicas: 1.0\n'), 'application/yaml').integralFloats, undefined);
  });
});
