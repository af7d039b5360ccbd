// Port of structured-merge-diff typed/comparison_test.go, and the Comparison's other operations.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { newExcludeSetFilter } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Comparison } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { _NS, _P } from '../fixture/index.js';

const abc = (): Comparison => new Comparison(_NS(_P('c')), _NS(_P('b')), _NS(_P('a')));

describe('TestComparisonExcludeFields', () => {
  const cases: ReadonlyArray<{ name: string; comparison: Comparison; remove: Set | undefined; expect: Comparison }> = [
    { name: 'works on nil set', comparison: abc(), remove: undefined, expect: abc() },
    { name: 'works on empty set', comparison: abc(), remove: _NS(), expect: abc() },
    {
      name: 'removes from entire object',
      comparison: new Comparison(_NS(_P('c', 'ca')), _NS(_P('b', 'ba')), _NS(_P('a', 'aa'))),
      remove: _NS(_P('a'), _P('b'), _P('c')),
      expect: new Comparison(_NS(), _NS(), _NS()),
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      c.comparison.excludeFields(c.remove);
      assert.ok(c.comparison.added.equals(c.expect.added), c.comparison.toString());
      assert.ok(c.comparison.modified.equals(c.expect.modified), c.comparison.toString());
      assert.ok(c.comparison.removed.equals(c.expect.removed), c.comparison.toString());
    });
  }
});

describe('Comparison', () => {
  test('isSame only when all three sets are empty', () => {
    assert.equal(new Comparison().isSame(), true);
    assert.equal(abc().isSame(), false);
  });

  test('filterFields passes each set through the filter; no filter leaves it as it is', () => {
    const c = abc().filterFields(newExcludeSetFilter(_NS(_P('a'), _P('c'))));
    assert.ok(c.added.empty() && c.removed.empty());
    assert.ok(c.modified.equals(_NS(_P('b'))));
    assert.ok(
      abc()
        .filterFields(undefined)
        .added.equals(_NS(_P('a'))),
    );
  });

  test('toString lists the non-empty sets, modified then added then removed', () => {
    assert.equal(abc().toString(), '- Modified Fields:\n.b\n- Added Fields:\n.a\n- Removed Fields:\n.c\n');
    assert.equal(new Comparison().toString(), '');
  });
});
