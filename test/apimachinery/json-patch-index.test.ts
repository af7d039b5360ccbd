// Array indices of a JSON patch path, read by strconv.Atoi as evanphx/json-patch v4 reads them
// (kube-apiserver's JSON patch): any decimal int64 with an optional sign and leading zeros; a key
// Atoi refuses fails with Atoi's error, an index past the array with v4's, printed exactly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyOperations, JSONPatchError } from '../../runtime/apimachinery/patch/json-patch-ops.js';

const apply = (doc: unknown, ...ops: object[]): unknown => applyOperations(doc, ops as never, { accumulatedCopySizeLimit: 0 });
const fails = (op: object, message: string): void =>
  assert.throws(
    () => apply({ a: [1, 2, 3] }, op),
    (e: unknown) => e instanceof JSONPatchError && e.message === message,
    JSON.stringify(op),
  );

describe('JSON patch array indices (strconv.Atoi)', () => {
  it('takes a sign and leading zeros, however long', () => {
    assert.deepEqual(apply({ a: [1, 2, 3] }, { op: 'replace', path: '/a/+1', value: 'x' }), { a: [1, 'x', 3] });
    assert.deepEqual(apply({ a: [1, 2, 3] }, { op: 'remove', path: '/a/0000000000000000000000002' }), { a: [1, 2] });
    assert.deepEqual(apply({ a: [1, 2, 3] }, { op: 'add', path: '/a/-0000000000000000000000001', value: 'x' }), { a: [1, 2, 3, 'x'] });
    assert.deepEqual(apply({ a: [1, 2, 3] }, { op: 'test', path: '/a/-1', value: 3 }), { a: [1, 2, 3] });
  });

  it("refuses a key Atoi refuses with Atoi's error (quoted as Go's %q); add words it as v4", () => {
    fails({ op: 'replace', path: '/a/x', value: 0 }, 'strconv.Atoi: parsing "x": invalid syntax');
    fails({ op: 'remove', path: '/a/1_0' }, 'strconv.Atoi: parsing "1_0": invalid syntax');
    fails({ op: 'remove', path: '/a/\u00a01' }, 'strconv.Atoi: parsing "\\u00a01": invalid syntax');
    fails({ op: 'remove', path: '/a/99999999999999999999' }, 'strconv.Atoi: parsing "99999999999999999999": value out of range');
    fails({ op: 'add', path: '/a/x', value: 0 }, "value was not a proper array index: 'x'");
  });

  it('an index past the array, printed exactly even beyond 2^53', () => {
    fails({ op: 'remove', path: '/a/3' }, 'Unable to access invalid index: 3');
    fails({ op: 'remove', path: '/a/-4' }, 'Unable to access invalid index: -4');
    fails({ op: 'remove', path: '/a/9223372036854775807' }, 'Unable to access invalid index: 9223372036854775807');
    fails({ op: 'add', path: '/a/-9223372036854775808', value: 0 }, 'Unable to access invalid index: -9223372036854775808');
    fails({ op: 'add', path: '/a/5', value: 0 }, 'Unable to access invalid index: 5');
  });
});
