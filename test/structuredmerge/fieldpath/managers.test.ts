/**
 * sigs.k8s.io/structured-merge-diff fieldpath/managers_test.go (the names
 * are SMD's: TestManagersEquals checks Difference, TestManagersDifference
 * checks Equals).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  copyManagedFields,
  managedFieldsDifference,
  managedFieldsEquals,
  managedFieldsString,
  VersionedSet,
  type ManagedFields,
} from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { _NS, _P } from './helpers.js';

const mf = (entries: Record<string, VersionedSet> = {}): ManagedFields => new Map(Object.entries(entries));
const nsb = (version: string): VersionedSet => new VersionedSet(_NS(_P('numeric'), _P('string'), _P('bool')), version, false);
const nsi = (version: string): VersionedSet => new VersionedSet(_NS(_P('numeric'), _P('string'), _P('integer')), version, false);

const sameManagedFields = (want: ManagedFields, got: ManagedFields): void => {
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
  assert.ok(managedFieldsEquals(want, got), `want ${managedFieldsString(want)}, got ${managedFieldsString(got)}`);
};

describe('TestManagersEquals', () => {
  const tests: Array<{ name: string; lhs?: ManagedFields; rhs?: ManagedFields; out: ManagedFields }> = [
    { name: 'Empty sets', out: mf() },
    { name: 'Empty RHS', lhs: mf({ default: nsb('v1') }), out: mf({ default: nsb('v1') }) },
    { name: 'Empty LHS', rhs: mf({ default: nsb('v1') }), out: mf({ default: nsb('v1') }) },
    { name: 'Different managers', lhs: mf({ one: nsb('v1') }), rhs: mf({ two: nsb('v1') }), out: mf({ one: nsb('v1'), two: nsb('v1') }) },
    { name: 'Same manager, different version', lhs: mf({ one: nsi('v1') }), rhs: mf({ one: nsb('v2') }), out: mf({ one: nsb('v2') }) },
    {
      name: 'Set difference',
      lhs: mf({ one: new VersionedSet(_NS(_P('numeric'), _P('string')), 'v1', false) }),
      rhs: mf({ one: new VersionedSet(_NS(_P('string'), _P('bool')), 'v1', false) }),
      out: mf({ one: new VersionedSet(_NS(_P('numeric'), _P('bool')), 'v1', false) }),
    },
  ];
  for (const tt of tests) test(tt.name, () => sameManagedFields(tt.out, managedFieldsDifference(tt.lhs ?? mf(), tt.rhs ?? mf())));
});

describe('TestManagersDifference', () => {
  const tests: Array<{ name: string; lhs?: ManagedFields; rhs?: ManagedFields; equal: boolean }> = [
    { name: 'Empty sets', equal: true },
    { name: 'Same everything', lhs: mf({ one: nsb('v1') }), rhs: mf({ one: nsb('v1') }), equal: true },
    { name: 'Empty RHS', lhs: mf({ default: nsb('v1') }), equal: false },
    { name: 'Empty LHS', rhs: mf({ default: nsb('v1') }), equal: false },
    { name: 'Different managers', lhs: mf({ one: nsb('v1') }), rhs: mf({ two: nsb('v1') }), equal: false },
    { name: 'Same manager, different version', lhs: mf({ one: nsi('v1') }), rhs: mf({ one: nsb('v2') }), equal: false },
    {
      name: 'Set difference',
      lhs: mf({ one: new VersionedSet(_NS(_P('numeric'), _P('string')), 'v1', false) }),
      rhs: mf({ one: new VersionedSet(_NS(_P('string'), _P('bool')), 'v1', false) }),
      equal: false,
    },
  ];
  for (const tt of tests) test(tt.name, () => assert.equal(managedFieldsEquals(tt.lhs ?? mf(), tt.rhs ?? mf()), tt.equal));
});

describe('managed fields helpers', () => {
  test('applied flags count in equality', () => {
    assert.ok(!managedFieldsEquals(mf({ one: new VersionedSet(_NS(_P('a')), 'v1', true) }), mf({ one: new VersionedSet(_NS(_P('a')), 'v1', false) })));
  });
  test('a copy is a new map of the same entries', () => {
    const m = mf({ one: nsb('v1') });
    const c = copyManagedFields(m);
    c.delete('one');
    assert.equal(m.size, 1);
  });
  test('String lists each manager as SMD does', () => {
    assert.equal(managedFieldsString(mf({ one: new VersionedSet(_NS(_P('a'), _P('b', 'c')), 'v1', true) })), 'one:\n- Applied: true\n- APIVersion: v1\n- Set: .a\n.b.c\n');
  });
  test('a manager named __proto__ is an ordinary key', () => {
    const m = mf();
    m.set('__proto__', nsb('v1'));
    sameManagedFields(managedFieldsDifference(m, mf()), m);
  });
});
