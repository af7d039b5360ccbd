// kube's pkg/registry/rbac/reconciliation/reconcile_rolebindings_test.go, case by case.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClusterRoleBinding, RoleRef, Subject } from '../../../apis/rbac/v1/types.js';
import { semanticDeepEqual } from '../../../runtime/apimachinery/serializer/semantic.js';
import { computeReconciledRoleBinding, diffSubjectLists } from '../../../runtime/authorization/rbac/bootstrap/reconcile.js';

const binding = (roleRef: RoleRef, subjects: Subject[]): ClusterRoleBinding => ({ roleRef, subjects });
const ref = (name: string): RoleRef => ({ apiGroup: '', kind: '', name });
const subjects = (...names: string[]): Subject[] => names.map((name) => ({ kind: '', name }));

describe('TestDiffObjectReferenceLists', () => {
  const tests: Record<string, { A?: Subject[]; B?: Subject[]; ExpectedOnlyA?: Subject[]; ExpectedOnlyB?: Subject[] }> = {
    empty: {},
    'matching, order-independent': { A: subjects('foo', 'bar'), B: subjects('bar', 'foo') },
    'partial match': { A: subjects('foo', 'bar'), B: subjects('foo', 'baz'), ExpectedOnlyA: subjects('bar'), ExpectedOnlyB: subjects('baz') },
    missing: { A: subjects('foo'), B: subjects('bar'), ExpectedOnlyA: subjects('foo'), ExpectedOnlyB: subjects('bar') },
    'remove duplicates': { A: subjects('foo', 'foo'), B: subjects('bar', 'bar'), ExpectedOnlyA: subjects('foo'), ExpectedOnlyB: subjects('bar') },
  };
  for (const [name, tc] of Object.entries(tests)) {
    test(name, () => {
      const { list1Only, list2Only } = diffSubjectLists(tc.A ?? [], tc.B ?? []);
      assert.ok(semanticDeepEqual(list1Only, tc.ExpectedOnlyA), `onlyA ${JSON.stringify(list1Only)}`);
      assert.ok(semanticDeepEqual(list2Only, tc.ExpectedOnlyB), `onlyB ${JSON.stringify(list2Only)}`);
    });
  }
});

describe('TestComputeUpdate', () => {
  const tests: Record<string, { expected: ClusterRoleBinding; actual: ClusterRoleBinding; removeExtraSubjects: boolean; updated?: ClusterRoleBinding; updateNeeded: boolean }> = {
    'match without union': { expected: binding(ref('role'), subjects('a')), actual: binding(ref('role'), subjects('a')), removeExtraSubjects: true, updateNeeded: false },
    'match with union': { expected: binding(ref('role'), subjects('a')), actual: binding(ref('role'), subjects('a')), removeExtraSubjects: false, updateNeeded: false },
    'different roleref with identical subjects': {
      expected: binding(ref('role'), subjects('a')),
      actual: binding(ref('differentRole'), subjects('a')),
      removeExtraSubjects: false,
      updated: binding(ref('role'), subjects('a')),
      updateNeeded: true,
    },
    'extra subjects without union': {
      expected: binding(ref('role'), subjects('a')),
      actual: binding(ref('role'), subjects('a', 'b')),
      removeExtraSubjects: true,
      updated: binding(ref('role'), subjects('a')),
      updateNeeded: true,
    },
    'extra subjects with union': { expected: binding(ref('role'), subjects('a')), actual: binding(ref('role'), subjects('a', 'b')), removeExtraSubjects: false, updateNeeded: false },
    'missing subjects without union': {
      expected: binding(ref('role'), subjects('a', 'c')),
      actual: binding(ref('role'), subjects('a', 'b')),
      removeExtraSubjects: true,
      updated: binding(ref('role'), subjects('a', 'c')),
      updateNeeded: true,
    },
    'missing subjects with union': {
      expected: binding(ref('role'), subjects('a', 'c')),
      actual: binding(ref('role'), subjects('a', 'b')),
      removeExtraSubjects: false,
      updated: binding(ref('role'), subjects('a', 'b', 'c')),
      updateNeeded: true,
    },
  };
  for (const [name, tc] of Object.entries(tests)) {
    test(name, () => {
      const result = computeReconciledRoleBinding(tc.actual, tc.expected, tc.removeExtraSubjects);
      const needed = result.operation !== 'none';
      assert.equal(needed, tc.updateNeeded, `operation ${result.operation}`);
      if (needed) assert.ok(semanticDeepEqual(result.roleBinding, tc.updated), `got ${JSON.stringify(result.roleBinding)}`);
    });
  }

  test('a different roleRef is a recreate (roleRef cannot be updated)', () => {
    assert.equal(computeReconciledRoleBinding(binding(ref('other'), subjects('a')), binding(ref('role'), subjects('a')), false).operation, 'recreate');
  });
});
