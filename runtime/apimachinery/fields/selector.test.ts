import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { andSelectors, escapeValue, everything, InvalidFieldSelectorError, oneTermEqualSelector, parseSelector, selectorFromSet, unescapeValue } from './index.js';

// Cases from k8s.io/apimachinery/pkg/fields/selector_test.go.
describe('fields', () => {
  test('TestSelectorParse', () => {
    for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=a||y\\=b', 'x=a\\=\\=b']) assert.equal(parseSelector(s).toString(), s, s);
    for (const s of ['x=a||y=b', 'x==a==b', 'x=a,b', 'x in (a)', 'x in (a,b,c)', 'x']) assert.throws(() => parseSelector(s), InvalidFieldSelectorError, s);
  });

  test('TestSelectorMatches', () => {
    const m = (s: string, set: Record<string, string>): boolean => parseSelector(s).matchesSet(set);
    assert.ok(m('', { x: 'y' }));
    assert.ok(m('x=y', { x: 'y' }));
    assert.ok(m('x==y', { x: 'y' }));
    assert.ok(m('x=y,z=w', { x: 'y', z: 'w' }));
    assert.ok(m('x!=y,z!=w', { x: 'z', z: 'a' }));
    assert.ok(!m('x=y', { x: 'z' }));
    assert.ok(!m('x=y,z=w', { x: 'w', z: 'w' }));
    assert.ok(!m('x!=y,z!=w', { x: 'z', z: 'w' }));
    assert.ok(m('metadata.name!=foo', {}), 'a missing field reads as ""');
    assert.ok(m('x=a\\,b', { x: 'a,b' }));
  });

  test('escaping and exact matches', () => {
    assert.equal(escapeValue('a,b=c\\d'), 'a\\,b\\=c\\\\d');
    assert.equal(unescapeValue('a\\,b\\=c\\\\d'), 'a,b=c\\d');
    assert.throws(() => unescapeValue('a\\b'), InvalidFieldSelectorError);
    assert.throws(() => unescapeValue('a,b'), InvalidFieldSelectorError);
    assert.equal(parseSelector('metadata.name=foo,spec.nodeName!=bar').requiresExactMatch('metadata.name'), 'foo');
    assert.equal(andSelectors(everything(), oneTermEqualSelector('a', 'b')).requiresExactMatch('a'), 'b');
    assert.ok(everything().empty());
    assert.equal(
      parseSelector('a=b')
        .transform((f, v) => (f === 'a' ? { field: '', value: '' } : { field: f, value: v }))
        .empty(),
      true,
    );
    assert.deepEqual(selectorFromSet({ a: 'b' }).requirements(), [{ field: 'a', operator: '=', value: 'b' }]);
  });
});
