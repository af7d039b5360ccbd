/** sigs.k8s.io/structured-merge-diff fieldpath/set_test.go (set algebra; EnsureNamedFieldsAreMembers and filters are in set-schema.test.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexElement, keyByFields, pathString, SetNodeMap, type Path, type Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { _NS, _P } from './helpers.js';

const eq = (got: Set, want: Set): void => assert.ok(got.equals(want), `expected:\n${want.toString()}\ngot:\n${got.toString()}`);

test('TestSetInsertHas', () => {
  const s1 = _NS(
    _P('foo', 0, 'bar', 'baz'),
    _P('foo', 0, 'bar'),
    _P('foo', 0),
    _P('foo', 1, 'bar', 'baz'),
    _P('foo', 1, 'bar'),
    _P('qux', keyByFields('name', 'first')),
    _P('qux', keyByFields('name', 'first'), 'bar'),
    _P('qux', keyByFields('name', 'second'), 'bar'),
    _P('canonicalOrder', keyByFields('a', 'a', 'b', 'a', 'c', 'a', 'd', 'a', 'e', 'a', 'f', 'a')),
  );
  const table: Array<[Path, boolean]> = [
    [_P('qux', keyByFields('name', 'second')), false],
    [_P('qux', keyByFields('name', 'second'), 'bar'), true],
    [_P('qux', keyByFields('name', 'first')), true],
    [_P('xuq', keyByFields('name', 'first')), false],
    [_P('foo', 0), true],
    [_P('foo', 0, 'bar'), true],
    [_P('foo', 0, 'bar', 'baz'), true],
    [_P('foo', 1), false],
    [_P('foo', 1, 'bar'), true],
    [_P('foo', 1, 'bar', 'baz'), true],
    [_P('canonicalOrder', keyByFields('f', 'a', 'e', 'a', 'd', 'a', 'c', 'a', 'b', 'a', 'a', 'a')), true],
  ];
  for (const [check, expectMembership] of table) assert.equal(s1.has(check), expectMembership, pathString(check));
  assert.ok(!_NS().has([]), 'empty set should not include the empty path');
  assert.ok(!_NS([]).has([]), 'empty set should not include the empty path');
});

test('TestSetString', () => {
  const p = _P('foo', keyByFields('name', 'first'));
  assert.equal(_NS(p).toString(), pathString(p));
});

test('TestSetIterSize', () => {
  const s1 = _NS(
    _P('foo', 0, 'bar', 'baz'),
    _P('foo', 0, 'bar', 'zot'),
    _P('foo', 0, 'bar'),
    _P('foo', 0),
    _P('foo', 1, 'bar', 'baz'),
    _P('foo', 1, 'bar'),
    _P('qux', keyByFields('name', 'first')),
    _P('qux', keyByFields('name', 'first'), 'bar'),
    _P('qux', keyByFields('name', 'second'), 'bar'),
  );
  let s2 = _NS();
  let addedCount = 0;
  s1.iterate((p) => {
    assert.equal(s2.size(), addedCount);
    assert.equal(s2.empty(), addedCount === 0);
    s2.insert(p);
    addedCount++;
  });
  s2 = _NS();
  addedCount = 0;
  for (const p of s1) {
    assert.equal(s2.size(), addedCount);
    assert.equal(s2.empty(), addedCount === 0);
    s2.insert(p);
    addedCount++;
  }
  assert.ok(s1.equals(s2), 'Iterate missed something?');
});

test('TestSetEquals', () => {
  const table: Array<[Set, Set, boolean]> = [
    [_NS(_P('foo')), _NS(_P('bar')), false],
    [_NS(_P('foo')), _NS(_P('foo')), true],
    [_NS(), _NS(_P(0, 'foo')), false],
    [_NS(_P(1, 'foo')), _NS(_P(0, 'foo')), false],
    [_NS(_P(1, 'foo')), _NS(_P(1, 'foo', 'bar')), false],
    [_NS(_P(0), _P(1)), _NS(_P(1), _P(0)), true],
    [_NS(_P('foo', 0), _P('foo', 1)), _NS(_P('foo', 1), _P('foo', 0)), true],
    [_NS(_P('foo', 0), _P('foo'), _P('bar', 'baz'), _P('qux', keyByFields('name', 'first'))), _NS(_P('foo', 1), _P('bar', 'baz'), _P('bar'), _P('qux', keyByFields('name', 'second'))), false],
  ];
  for (const [a, b, equal] of table) assert.equal(a.equals(b), equal, `a=\n${a.toString()}\nb=\n${b.toString()}`);
});

test('TestSetUnion', () => {
  const s1 = _NS(_P('foo', 0), _P('foo'), _P('bar', 'baz'), _P('qux', keyByFields('name', 'first')), _P('parent', 'child', 'grandchild'));
  const s2 = _NS(_P('foo', 1), _P('bar', 'baz'), _P('bar'), _P('qux', keyByFields('name', 'second')), _P('parent', 'child'));
  const u = _NS(
    _P('foo', 0),
    _P('foo', 1),
    _P('foo'),
    _P('bar', 'baz'),
    _P('bar'),
    _P('qux', keyByFields('name', 'first')),
    _P('qux', keyByFields('name', 'second')),
    _P('parent', 'child'),
    _P('parent', 'child', 'grandchild'),
  );
  eq(s1.union(s2), u);
});

describe('TestSetIntersectionDifference', () => {
  const nameFirst = keyByFields('name', 'first');
  const s1 = _NS(_P('a0'), _P('a1'), _P('foo', 0), _P('foo', 1), _P('b0', nameFirst), _P('b1', nameFirst), _P('bar', 'c0'), _P('cp', nameFirst, 'child'));
  const s2 = _NS(_P('a1'), _P('a2'), _P('foo', 1), _P('foo', 2), _P('b1', nameFirst), _P('b2', nameFirst), _P('bar', 'c2'), _P('cp', nameFirst));
  const i = _NS(_P('a1'), _P('foo', 1), _P('b1', nameFirst));
  test('intersection', () => eq(s1.intersection(s2), i));
  test('s1 - s2', () => eq(s1.difference(s2), _NS(_P('a0'), _P('foo', 0), _P('b0', nameFirst), _P('bar', 'c0'), _P('cp', nameFirst, 'child'))));
  test('s2 - s1', () => eq(s2.difference(s1), _NS(_P('a2'), _P('foo', 2), _P('b2', nameFirst), _P('bar', 'c2'), _P('cp', nameFirst))));
  test('intersection (the hard way)', () => {
    const u = s1.union(s2);
    const notIntersection = s2.difference(s1).union(s1.difference(s2));
    eq(u.difference(notIntersection), i);
  });
});

describe('TestSetLeaves', () => {
  const a = keyByFields('name', 'a');
  const p = keyByFields('name', 'p');
  const table: Array<{ name: string; input: Set; expected: Set }> = [
    { name: 'empty set', input: _NS(), expected: _NS() },
    { name: 'all leaves', input: _NS(_P('path1'), _P('path2'), _P('path3')), expected: _NS(_P('path1'), _P('path2'), _P('path3')) },
    { name: 'only one leaf', input: _NS(_P('root'), _P('root', 'l1'), _P('root', 'l1', 'l2'), _P('root', 'l1', 'l2', 'l3')), expected: _NS(_P('root', 'l1', 'l2', 'l3')) },
    {
      name: 'multiple values, check for overwrite',
      input: _NS(_P('root', a), _P('root', a, 'name'), _P('root', a, 'value', 'b'), _P('root', a, 'value', 'c')),
      expected: _NS(_P('root', a, 'name'), _P('root', a, 'value', 'b'), _P('root', a, 'value', 'c')),
    },
    {
      name: 'multiple values and nested',
      input: _NS(_P('root', a), _P('root', a, 'name'), _P('root', a, 'value', 'b'), _P('root', a, 'value', 'b', 'd'), _P('root', a, 'value', 'c')),
      expected: _NS(_P('root', a, 'name'), _P('root', a, 'value', 'b', 'd'), _P('root', a, 'value', 'c')),
    },
    {
      name: 'all-in-one',
      input: _NS(
        _P('root'),
        _P('root', a),
        _P('root', a, 'name'),
        _P('root', a, 'value', 'b'),
        _P('root', a, 'value', 'b', 'c'),
        _P('root', a, 'value', 'd'),
        _P('root', a, 'value', 'e'),
        _P('root', 'x'),
        _P('root', 'x', 'y'),
        _P('root', 'x', 'z'),
        _P('root', p),
        _P('root', p, 'name'),
        _P('root', p, 'value', 'q'),
      ),
      expected: _NS(
        _P('root', a, 'name'),
        _P('root', a, 'value', 'b', 'c'),
        _P('root', a, 'value', 'd'),
        _P('root', a, 'value', 'e'),
        _P('root', 'x', 'y'),
        _P('root', 'x', 'z'),
        _P('root', p, 'name'),
        _P('root', p, 'value', 'q'),
      ),
    },
  ];
  for (const tt of table) test(tt.name, () => eq(tt.input.leaves(), tt.expected));
});

describe('TestSetDifference', () => {
  const table: Array<{ name: string; a: Set; b: Set; expectDifference: Set; expectRecursiveDifference: Set }> = [
    { name: 'removes simple path', a: _NS(_P('a')), b: _NS(_P('a')), expectDifference: _NS(), expectRecursiveDifference: _NS() },
    { name: 'removes direct path', a: _NS(_P('a', 'b', 'c')), b: _NS(_P('a', 'b', 'c')), expectDifference: _NS(), expectRecursiveDifference: _NS() },
    {
      name: 'only removes matching child',
      a: _NS(_P('a', 'b', 'c'), _P('b', 'b', 'c')),
      b: _NS(_P('a', 'b', 'c')),
      expectDifference: _NS(_P('b', 'b', 'c')),
      expectRecursiveDifference: _NS(_P('b', 'b', 'c')),
    },
    { name: 'does not remove parent of specific path', a: _NS(_P('a')), b: _NS(_P('a', 'aa')), expectDifference: _NS(_P('a')), expectRecursiveDifference: _NS(_P('a')) },
    { name: 'RecursiveDifference removes nested path', a: _NS(_P('a', 'b', 'c')), b: _NS(_P('a')), expectDifference: _NS(_P('a', 'b', 'c')), expectRecursiveDifference: _NS() },
    {
      name: 'RecursiveDifference only removes nested path for matching children',
      a: _NS(_P('a', 'aa', 'aab'), _P('a', 'ab', 'aba')),
      b: _NS(_P('a', 'aa')),
      expectDifference: _NS(_P('a', 'aa', 'aab'), _P('a', 'ab', 'aba')),
      expectRecursiveDifference: _NS(_P('a', 'ab', 'aba')),
    },
    {
      name: 'RecursiveDifference removes all matching children',
      a: _NS(_P('a', 'aa', 'aab'), _P('a', 'ab', 'aba')),
      b: _NS(_P('a')),
      expectDifference: _NS(_P('a', 'aa', 'aab'), _P('a', 'ab', 'aba')),
      expectRecursiveDifference: _NS(),
    },
  ];
  for (const c of table) {
    test(c.name, () => {
      eq(c.a.difference(c.b), c.expectDifference);
      eq(c.a.recursiveDifference(c.b), c.expectRecursiveDifference);
    });
  }
});

test('TestSetNodeMapIterate', () => {
  const set = new SetNodeMap();
  const toAdd = 5;
  const added: string[] = [];
  for (let i = 0; i < toAdd; i++) {
    const pe = indexElement(i);
    added.push(pathString([pe]));
    set.descend(pe);
  }
  const iterated = new globalThis.Set<string>();
  set.iterate((pe) => iterated.add(pathString([pe])));
  assert.equal(iterated.size, toAdd);
  for (const pe of added) assert.ok(iterated.has(pe), `expected to have iterated over ${pe}`);
});
