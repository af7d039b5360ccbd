// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/conflict_test.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newConflictError } from '../../runtime/apimachinery/managedfields/index.js';
import { makePath } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict, Conflicts } from '../../runtime/apimachinery/structuredmerge/merge/index.js';

function status(causes: Array<{ message: string; field: string }>, message: string): unknown {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Conflict',
    code: 409,
    details: { causes: causes.map((c) => ({ reason: 'FieldManagerConflict', ...c })) },
  };
}

test('TestNewConflictError', () => {
  const foo = '{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}';
  const cases: Array<{ conflict: Conflicts; expected: unknown }> = [
    {
      conflict: new Conflicts([new Conflict(foo, makePath('spec', 'replicas'))]),
      expected: status(
        [{ message: 'conflict with "foo" using v1 at 2001-02-03T04:05:06Z', field: '.spec.replicas' }],
        'Apply failed with 1 conflict: conflict with "foo" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
      ),
    },
    {
      conflict: new Conflicts([new Conflict(foo, makePath('spec', 'replicas')), new Conflict('{"manager":"bar","operation":"Apply"}', makePath('metadata', 'labels', 'app'))]),
      expected: status(
        [
          { message: 'conflict with "foo" using v1 at 2001-02-03T04:05:06Z', field: '.spec.replicas' },
          { message: 'conflict with "bar"', field: '.metadata.labels.app' },
        ],
        'Apply failed with 2 conflicts: conflicts with "bar":\n- .metadata.labels.app\nconflicts with "foo" using v1 at 2001-02-03T04:05:06Z:\n- .spec.replicas',
      ),
    },
    {
      conflict: new Conflicts([new Conflict('{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}', makePath('spec', 'replicas'))]),
      expected: status(
        [{ message: 'conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z', field: '.spec.replicas' }],
        'Apply failed with 1 conflict: conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
      ),
    },
  ];
  for (const tc of cases) {
    const err = newConflictError(tc.conflict);
    assert.equal(err.code, 409);
    assert.deepEqual(err.status, tc.expected);
  }
});

test('a manager key that is not an entry is quoted as it is', () => {
  const err = newConflictError(new Conflicts([new Conflict('not json', makePath('spec'))]));
  assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "not json": .spec');
});
