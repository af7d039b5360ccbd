import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { everything, InvalidSelectorError, labelsFromSet, parse, selectorFromSet, validatedSelectorFromSet } from './index.js';
import { Requirement } from './requirement.js';
import { isQualifiedName, isValidLabelValue } from './validation.js';

// Cases from k8s.io/apimachinery/pkg/labels/selector_test.go.
describe('labels', () => {
  test('TestSelectorParse: canonical strings round-trip, bad strings fail', () => {
    for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5']) {
      assert.equal(parse(s).toString(), s.replaceAll(' ', ''), s);
    }
    for (const s of ['x=a||y=b', 'x==a==b', '!x=a', 'x<a']) assert.throws(() => parse(s), InvalidSelectorError, s);
  });

  test('TestSelectorMatches', () => {
    const match = (sel: string, set: Record<string, string>): boolean => parse(sel).matches(labelsFromSet(set));
    for (const [s, set] of [
      ['', { x: 'y' }],
      ['x=y', { x: 'y' }],
      ['x=y,z=w', { x: 'y', z: 'w' }],
      ['x!=y,z!=w', { x: 'z', z: 'a' }],
      ['notin=in', { notin: 'in' }],
      ['x', { x: 'z' }],
      ['!x', { y: 'z' }],
      ['x>1', { x: '2' }],
      ['x<1', { x: '0' }],
      ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
      ['x in (a,b)', { x: 'b' }],
      ['x notin (a,b)', { y: 'a' }],
    ] as const) {
      assert.ok(match(s, set), `${s} should match ${JSON.stringify(set)}`);
    }
    for (const [s, set] of [
      ['x=z', {}],
      ['x=y', { x: 'z' }],
      ['x=y,z=w', { x: 'w', z: 'w' }],
      ['x!=y,z!=w', { x: 'z', z: 'w' }],
      ['x', { y: 'z' }],
      ['!x', { x: 'z' }],
      ['x>1', { x: '0' }],
      ['x<1', { x: '2' }],
      ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
      ['x in (a,b)', { x: 'c' }],
      ['x notin (a,b)', { x: 'a' }],
      ['x>1', { x: 'notanumber' }],
    ] as const) {
      assert.ok(!match(s, set), `${s} should not match ${JSON.stringify(set)}`);
    }
  });

  test('set-based requirements print sorted and deduplicated; keys sort', () => {
    assert.equal(parse('z in (c,a,b,a), a notin (y,x)').toString(), 'a notin (x,y),z in (a,b,c)');
    assert.equal(parse('x in ()').toString(), 'x in ()');
    assert.equal(parse('example.com/tier=frontend').requiresExactMatch('example.com/tier'), 'frontend');
    assert.equal(parse('x in (a)').requiresExactMatch('x'), 'a');
    assert.equal(parse('x in (a,b)').requiresExactMatch('x'), undefined);
  });

  test('keys and values are validated', () => {
    assert.throws(() => parse('-x=a'), InvalidSelectorError);
    assert.throws(() => parse(`x=${'a'.repeat(64)}`), InvalidSelectorError);
    assert.throws(() => parse('Example.com/x=a'), InvalidSelectorError);
    assert.throws(() => validatedSelectorFromSet({ x: 'a b' }), InvalidSelectorError);
    assert.doesNotThrow(() => parse(`example.com/${'a'.repeat(63)}=${'b'.repeat(63)}`));
  });

  test('TestEverything, TestSetMatches, TestNilMapIsValid', () => {
    assert.ok(everything().matches(labelsFromSet({ x: 'y' })));
    assert.ok(everything().empty());
    const set = { foo: 'bar', baz: 'blah' };
    for (const sel of [{}, { foo: 'bar' }, { baz: 'blah' }, { foo: 'bar', baz: 'blah' }] as Array<Record<string, string>>) assert.ok(selectorFromSet(sel).matchesSet(set));
    assert.ok(selectorFromSet(undefined).empty());
    assert.equal(selectorFromSet({ b: '2', a: '1' }).toString(), 'a=1,b=2');
  });
});

describe('label selector errors, as v0.32 words them', () => {
  const message = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  };
  test('a bad key in a parsed selector is a field.Error with a nil path (<nil>: …)', () => {
    const k = 'k'.repeat(64);
    assert.equal(
      message(() => parse(k)),
      `unable to parse requirement: <nil>: Invalid value: "${k}": name part must be no more than 63 characters`,
    );
    assert.equal(
      message(() => parse('a\x01b')),
      `unable to parse requirement: <nil>: Invalid value: "a\\x01b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  });
  test('an empty name part fails both the emptiness and the pattern (IsQualifiedName)', () => {
    assert.deepEqual(isQualifiedName(''), [
      'name part must be non-empty',
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });
  test('lengths count UTF-8 bytes, as Go len()', () => {
    assert.equal(isValidLabelValue('é'.repeat(32))[0], 'must be no more than 63 characters');
  });
  test('a value list prints as []string{…}', () => {
    assert.equal(
      message(() => Requirement.create('x', 'in', [])),
      "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    );
    assert.equal(
      message(() => Requirement.create('x', '=', ['a', 'b'])),
      'values: Invalid value: []string{"a", "b"}: exact-match compatibility requires one single value',
    );
  });
});
