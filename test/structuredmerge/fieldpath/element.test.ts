/** sigs.k8s.io/structured-merge-diff fieldpath/element_test.go. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  comparePathElements,
  fieldNameElement,
  indexElement,
  keyElementByFields,
  pathElementEquals,
  pathElementLess,
  PathElementSet,
  valueElement,
  type PathElement,
} from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';

test('TestPathElementSet', () => {
  // SMD starts from the zero PathElement; every TS path element has a kind, so the empty field name stands in.
  const zero = fieldNameElement('');
  const s = new PathElementSet();
  assert.ok(!s.has(zero));
  const s2 = new PathElementSet();
  s2.insert(zero);
  assert.ok(!s2.equals(s), 'unequal sets should not equal');
  assert.ok(s2.has(zero), 'expected to have something');
  const c2 = s2.copy();
  assert.ok(c2.equals(s2), 'expected copy to equal original');

  s2.insert(fieldNameElement('aoeu'));
  assert.ok(s2.has(fieldNameElement('aoeu')));
  assert.ok(!s2.has(fieldNameElement('asdf')));
  s2.insert(fieldNameElement('asdf'));
  const names: string[] = [];
  s2.iterate((pe) => names.push('fieldName' in pe ? pe.fieldName : '?'));
  assert.deepEqual(names, ['', 'aoeu', 'asdf']);
  assert.deepEqual(
    [...s2].map((pe) => ('fieldName' in pe ? pe.fieldName : '?')),
    ['', 'aoeu', 'asdf'],
  );
  assert.ok(!c2.has(fieldNameElement('aoeu')), 'a copy does not see later inserts');
});

describe('TestPathElementLess', () => {
  const val = (v: unknown): PathElement => valueElement(v);
  const table: Array<{ name: string; a: PathElement; b: PathElement; eq?: boolean }> = [
    // SMD's zero PathElement has no TS form; two equal empty field names keep the case.
    { name: 'FieldName-0', a: fieldNameElement(''), b: fieldNameElement(''), eq: true },
    { name: 'FieldName-1', a: fieldNameElement('anteater'), b: fieldNameElement('zebra') },
    { name: 'FieldName-2', a: fieldNameElement('bee'), b: fieldNameElement('bee'), eq: true },
    { name: 'FieldName-3', a: fieldNameElement('capybara'), b: keyElementByFields('dog', 3) },
    { name: 'FieldName-4', a: fieldNameElement('elephant'), b: val(4) },
    { name: 'FieldName-5', a: fieldNameElement('falcon'), b: indexElement(5) },
    { name: 'Key-1', a: keyElementByFields('goat', 1), b: keyElementByFields('goat', 1), eq: true },
    { name: 'Key-2', a: keyElementByFields('horse', 1), b: keyElementByFields('horse', 2) },
    { name: 'Key-3', a: keyElementByFields('ibex', 1), b: keyElementByFields('jay', 1) },
    { name: 'Key-4', a: keyElementByFields('kite', 1), b: keyElementByFields('kite', 1, 'kite-2', 1) },
    { name: 'Key-5', a: keyElementByFields('kite', 1), b: val(1) },
    { name: 'Key-6', a: keyElementByFields('kite', 1), b: indexElement(5) },
    { name: 'Value-1', a: val(1), b: val(2) },
    { name: 'Value-2', a: val(1), b: val(1), eq: true },
    { name: 'Value-3', a: val(1), b: indexElement(1) },
    { name: 'Index-1', a: indexElement(1), b: indexElement(2) },
    { name: 'Index-2', a: indexElement(1), b: indexElement(1), eq: true },
  ];
  for (const tt of table) {
    test(tt.name, () => {
      if (tt.eq) {
        assert.ok(!pathElementLess(tt.a, tt.b), 'a < b');
        assert.ok(pathElementEquals(tt.a, tt.b));
        assert.equal(comparePathElements(tt.a, tt.b), 0);
      } else {
        assert.ok(pathElementLess(tt.a, tt.b), 'a >= b');
        assert.ok(!pathElementEquals(tt.a, tt.b));
        assert.ok(comparePathElements(tt.b, tt.a) > 0);
      }
      assert.ok(!pathElementLess(tt.b, tt.b), 'b < b');
    });
  }
});
