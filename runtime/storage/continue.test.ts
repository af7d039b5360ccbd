// Continue tokens decoded as k8s.io/apiserver/pkg/storage's DecodeContinue: a hostile token gets
// the text kube's base64 and encoding/json give, never V8's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeContinue, encodeContinue, InvalidContinueError } from './continue.js';

const token = (json: string): string => Buffer.from(json).toString('base64url');

test('a token the server encoded decodes to the key after the prefix and its revision', () => {
  const t = encodeContinue('/pods/ns/b\u0000', '/pods/', 42);
  assert.deepEqual(decodeContinue(t, '/pods/'), { fromKey: '/pods/ns/b\u0000', rv: 42 });
});

const refused: [string, string, string][] = [
  ['a character outside base64url', 'ab=c', 'illegal base64 data at input byte 2'],
  ['a lone trailing symbol', 'AAAAA', 'illegal base64 data at input byte 4'],
  ['not JSON', 'AAAA', "invalid character '\\x00' looking for beginning of value"],
  ['truncated JSON', token('{"v":'), 'unexpected end of JSON input'],
  ['an array', token('[]'), 'json: cannot unmarshal array into Go value of type storage.continueToken'],
  ['a string', token('"x"'), 'json: cannot unmarshal string into Go value of type storage.continueToken'],
  ['a number for the version', token('{"v":1,"rv":2,"start":"a"}'), 'json: cannot unmarshal number into Go struct field continueToken.v of type string'],
  ['a string for the revision', token('{"v":"meta.k8s.io/v1","rv":"2","start":"a"}'), 'json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
  ['a fraction for the revision', token('{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"}'), 'json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64'],
  ['an object for the start key', token('{"v":"meta.k8s.io/v1","rv":2,"start":{}}'), 'json: cannot unmarshal object into Go struct field continueToken.start of type string'],
  [
    'a revision beyond int64',
    token('{"v":"meta.k8s.io/v1","rv":10000000000000000000,"start":"a"}'),
    'json: cannot unmarshal number 10000000000000000000 into Go struct field continueToken.rv of type int64',
  ],
  ['another version', token('{"v":"v2","rv":2,"start":"a"}'), 'server does not recognize this encoded version v2'],
  ['null', token('null'), 'server does not recognize this encoded version '],
  ['no revision', token('{"v":"meta.k8s.io/v1","start":"a"}'), 'incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
  ['no start key', token('{"v":"meta.k8s.io/v1","rv":2}'), 'encoded start key empty (version meta.k8s.io/v1)'],
  ['a traversal', token('{"v":"meta.k8s.io/v1","rv":2,"start":"../secrets/x"}'), '../secrets/x'],
];
for (const [what, value, message] of refused) {
  test(`a token with ${what} is refused with kube's text`, () => {
    assert.throws(
      () => decodeContinue(value, '/pods/'),
      (e: unknown) => {
        assert.ok(e instanceof InvalidContinueError);
        assert.equal(e.message, `continue key is not valid: ${message}`);
        return true;
      },
    );
  });
}

test('field names match case-insensitively and the last duplicate wins, as encoding/json; __proto__ is data', () => {
  const t = token('{"V":"meta.k8s.io/v1","rv":1,"RV":7,"Start":"ns/a","__proto__":{"start":"x"},"constructor":1}');
  assert.deepEqual(decodeContinue(t, '/pods/'), { fromKey: '/pods/ns/a', rv: 7 });
});

test('CR and LF inside a token are skipped, as Go does', () => {
  const t = encodeContinue('/pods/ns/a', '/pods/', 3);
  assert.deepEqual(decodeContinue(`${t.slice(0, 5)}\r\n${t.slice(5)}`, '/pods/'), { fromKey: '/pods/ns/a', rv: 3 });
});

test('a revision beyond 2^53 but within int64 is accepted, as Go decodes it', () => {
  assert.equal(decodeContinue(token('{"v":"meta.k8s.io/v1","rv":1152921504606846976,"start":"a"}'), '/pods/').rv, 2 ** 60);
});
