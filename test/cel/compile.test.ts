import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { compileRule } from '../../runtime/apimachinery/cel/index.js';
import { normalizeFieldPath } from '../../runtime/apimachinery/cel/fieldpath.js';
import { evaluate, int, object, str } from './helpers.js';

const schema = object({
  size: int,
  name: str,
  tags: { type: 'array', items: str },
  labels: { type: 'object', additionalProperties: str },
  namespace: str,
  ios: { 'x-kubernetes-int-or-string': true },
});
const problems = (rule: string, extra: { messageExpression?: string; isResourceRoot?: boolean; on?: JSONSchemaProps } = {}): string[] =>
  compileRule({ rule, ...(extra.messageExpression !== undefined ? { messageExpression: extra.messageExpression } : {}) }, extra.on ?? schema, { isResourceRoot: extra.isResourceRoot ?? false }).map(
    (p) => `${p.field}: ${p.message}`,
  );

describe('compileRule: the codegen check shares the request-time environment', () => {
  test('rules that compile', () => {
    for (const rule of [
      'self.size > 0 && self.name.startsWith("a")',
      'self.tags.all(t, t.matches("^[a-z]+$")) && self.tags.isSorted()',
      "self.labels.exists(k, k == 'app') && self.labels['app'].lowerAscii() == 'x'",
      'self.__namespace__.size() < 64',
      "type(self.ios) == string ? self.ios.endsWith('%') : self.ios > 0",
      "quantity('1Gi').isGreaterThan(quantity('1G')) && isURL('/x') && sets.contains([1], [1])",
      'self == oldSelf',
      "self.?name.orValue('') != 'x'",
    ])
      assert.deepEqual(problems(rule), [], rule);
  });

  test('rules that do not', () => {
    assert.deepEqual(problems('self.nope > 0'), ["rule: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 0\n | ....^"]);
    assert.match(problems('self.size >')[0]!, /^rule: /);
    assert.match(problems("self.size + 'a' == 1")[0]!, /^rule: ERROR: <input>:1:11: found no matching overload for '_\+_' applied to '\(int, string\)'/);
    assert.deepEqual(problems('self.size'), ['rule: must evaluate to bool, not int']);
    assert.deepEqual(problems('self.namespace == "x"'), ['rule: ERROR: <input>:1:5: undefined field \'namespace\'\n | self.namespace == "x"\n | ....^']);
    assert.deepEqual(problems("self.name.matches('[')"), ["rule: ERROR: <input>:1:19: invalid matches argument\n | self.name.matches('[')\n | ..................^"]);
    assert.match(problems("self.name.find('[') == ''")[0]!, /^rule: invalid regular expression "\[": error parsing regexp: missing closing \]/);
    assert.deepEqual(problems('true', { messageExpression: 'self.size' }), ['messageExpression: must evaluate to string, not int']);
  });

  test('the root of a kind reads apiVersion, kind and metadata.name; nothing else of metadata', () => {
    const root = object({ apiVersion: str, kind: str, metadata: { type: 'object' }, spec: object({ a: int }) });
    assert.deepEqual(problems("self.metadata.name.size() < 10 && self.kind == 'X' && has(self.metadata.generateName)", { on: root, isResourceRoot: true }), []);
    assert.match(problems('self.metadata.labels.size() > 0', { on: root, isResourceRoot: true })[0]!, /undefined field 'labels'/);
    assert.match(problems('self.metadata.name == "x"', { on: root })[0]!, /undefined field 'name'/);
  });

  test('a schema CEL cannot type has no environment', () => {
    assert.deepEqual(problems('true', { on: { 'x-kubernetes-preserve-unknown-fields': true } }), ['rule: failed to convert to declType for CEL validation rules']);
  });
});

describe('ValidFieldPath', () => {
  const s = object({ a: object({ 'b.c': str, d: str }), m: { type: 'object', additionalProperties: object({ x: str }) } });
  const rows: ReadonlyArray<readonly [string, string | undefined]> = [
    ['.a', 'a'],
    ['.a.d', 'a.d'],
    [".a['b.c']", 'a.b.c'],
    [".m['k.1'].x", 'm[k.1].x'],
    ['.m.k', 'm[k]'],
    ['.nope', undefined],
    ['a', undefined],
    [".a['d'", undefined],
    [".a['\\q']", undefined],
  ];
  for (const [path, want] of rows) test(`${path} → ${want}`, () => assert.equal(normalizeFieldPath(path, s), want));
});

describe('has() of any operand, as CEL allows it', () => {
  // Gateway API's HTTPRoute: has(self.matches[0].path); cel-js checks has() only on a chain of
  // selections from a variable, so the rule is compiled in an equivalent form (cel/has.ts).
  const item = object({ name: str, path: object({ type: str }) });
  const routes = object({ matches: { type: 'array', items: item }, byName: { type: 'object', additionalProperties: item } });

  test('a selection after an index, a call or parentheses compiles', () => {
    for (const rule of [
      'has(self.matches[0].path)',
      "has(self.byName['a'].path.type)",
      'self.matches.all(m, has(m.path)) || has(self.matches[size(self.matches) - 1].name)',
      'has((self.matches[0]).path) && !has(self.matches[has(self.matches[0].name) ? 0 : 0].path)',
    ])
      assert.deepEqual(problems(rule, { on: routes }), [], rule);
  });

  test('it tests presence exactly as has() does', () => {
    const self = { matches: [{ name: 'a', path: { type: 'Exact' } }, { name: 'b' }] };
    assert.equal(evaluate('has(self.matches[0].path)', { schema: routes, self }), true);
    assert.equal(evaluate('has(self.matches[1].path)', { schema: routes, self }), false);
    assert.equal(evaluate('has(self.matches[0].path.type) && !has(self.matches[1].path)', { schema: routes, self }), true);
    assert.equal(evaluate("has(self.byName['x'].name)", { schema: routes, self: { byName: { x: { name: 'n' } } } }), true);
  });

  test('an expression wrong in another way reports its error on the text as written', () => {
    assert.deepEqual(problems('has(self.matches[0].nope)', { on: routes }), ["rule: ERROR: <input>:1:20: undefined field 'nope'\n | has(self.matches[0].nope)\n | ...................^"]);
  });
});
