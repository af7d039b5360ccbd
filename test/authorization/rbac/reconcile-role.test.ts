// kube's pkg/registry/rbac/reconciliation/reconcile_role_test.go, case by case: what
// computeReconciledRole makes of an existing role given the expected one (union or not).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClusterRole, PolicyRule } from '../../../apis/rbac/v1/types.js';
import { semanticDeepEqual } from '../../../runtime/apimachinery/serializer/semantic.js';
import { computeReconciledRole } from '../../../runtime/authorization/rbac/bootstrap/reconcile.js';

type SS = Record<string, string>;

function role(rules: PolicyRule[], labels?: SS, annotations?: SS): ClusterRole {
  return { rules, metadata: { ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) } };
}

function rules(...resources: string[]): PolicyRule[] {
  return resources.map((r) => ({ apiGroups: [''], verbs: ['get'], resources: [r] }));
}

function aggregatedRole(aggregationRule: ClusterRole['aggregationRule']): ClusterRole {
  return aggregationRule === undefined ? {} : { aggregationRule };
}

function aggregationrule(selectors: SS[]): NonNullable<ClusterRole['aggregationRule']> {
  return { clusterRoleSelectors: selectors.map((matchLabels) => ({ matchLabels })) };
}

interface Case {
  expectedRole: ClusterRole;
  actualRole: ClusterRole;
  removeExtraPermissions: boolean;
  expectedReconciledRole: ClusterRole | undefined;
  expectedReconciliationNeeded: boolean;
}

function run(tests: Record<string, Case>): void {
  for (const [name, tc] of Object.entries(tests)) {
    test(name, () => {
      const result = computeReconciledRole(tc.actualRole, tc.expectedRole, tc.removeExtraPermissions);
      const needed = result.operation !== 'none';
      assert.equal(needed, tc.expectedReconciliationNeeded, `operation ${result.operation}`);
      if (needed) assert.ok(semanticDeepEqual(result.role, tc.expectedReconciledRole), `got ${JSON.stringify(result.role)}\nwant ${JSON.stringify(tc.expectedReconciledRole)}`);
    });
  }
}

const c = (expectedRole: ClusterRole, actualRole: ClusterRole, removeExtraPermissions: boolean, expectedReconciledRole: ClusterRole | undefined, expectedReconciliationNeeded: boolean): Case => ({
  expectedRole,
  actualRole,
  removeExtraPermissions,
  expectedReconciledRole,
  expectedReconciliationNeeded,
});

describe('TestComputeReconciledRoleRules', () => {
  run({
    empty: c(role(rules()), role(rules()), true, undefined, false),
    'match without union': c(role(rules('a')), role(rules('a')), true, undefined, false),
    'match with union': c(role(rules('a')), role(rules('a')), false, undefined, false),
    'different rules without union': c(role(rules('a')), role(rules('b')), true, role(rules('a')), true),
    'different rules with union': c(role(rules('a')), role(rules('b')), false, role(rules('b', 'a')), true),
    'match labels without union': c(role(rules('a'), { 1: 'a' }), role(rules('a'), { 1: 'a' }), true, undefined, false),
    'match labels with union': c(role(rules('a'), { 1: 'a' }), role(rules('a'), { 1: 'a' }), false, undefined, false),
    'different labels without union': c(role(rules('a'), { 1: 'a' }), role(rules('a'), { 2: 'b' }), true, role(rules('a'), { 1: 'a', 2: 'b' }), true),
    'different labels with union': c(role(rules('a'), { 1: 'a' }), role(rules('a'), { 2: 'b' }), false, role(rules('a'), { 1: 'a', 2: 'b' }), true),
    'different labels and rules without union': c(role(rules('a'), { 1: 'a' }), role(rules('b'), { 2: 'b' }), true, role(rules('a'), { 1: 'a', 2: 'b' }), true),
    'different labels and rules with union': c(role(rules('a'), { 1: 'a' }), role(rules('b'), { 2: 'b' }), false, role(rules('b', 'a'), { 1: 'a', 2: 'b' }), true),
    'conflicting labels and rules without union': c(role(rules('a'), { 1: 'a' }), role(rules('b'), { 1: 'b' }), true, role(rules('a'), { 1: 'b' }), true),
    'conflicting labels and rules with union': c(role(rules('a'), { 1: 'a' }), role(rules('b'), { 1: 'b' }), false, role(rules('b', 'a'), { 1: 'b' }), true),
    'match annotations without union': c(role(rules('a'), undefined, { 1: 'a' }), role(rules('a'), undefined, { 1: 'a' }), true, undefined, false),
    'match annotations with union': c(role(rules('a'), undefined, { 1: 'a' }), role(rules('a'), undefined, { 1: 'a' }), false, undefined, false),
    'different annotations without union': c(role(rules('a'), undefined, { 1: 'a' }), role(rules('a'), undefined, { 2: 'b' }), true, role(rules('a'), undefined, { 1: 'a', 2: 'b' }), true),
    'different annotations with union': c(role(rules('a'), undefined, { 1: 'a' }), role(rules('a'), undefined, { 2: 'b' }), false, role(rules('a'), undefined, { 1: 'a', 2: 'b' }), true),
    'different annotations and rules without union': c(role(rules('a'), undefined, { 1: 'a' }), role(rules('b'), undefined, { 2: 'b' }), true, role(rules('a'), undefined, { 1: 'a', 2: 'b' }), true),
    'different annotations and rules with union': c(
      role(rules('a'), undefined, { 1: 'a' }),
      role(rules('b'), undefined, { 2: 'b' }),
      false,
      role(rules('b', 'a'), undefined, { 1: 'a', 2: 'b' }),
      true,
    ),
    'conflicting annotations and rules without union': c(role(rules('a'), undefined, { 1: 'a' }), role(rules('b'), undefined, { 1: 'b' }), true, role(rules('a'), undefined, { 1: 'b' }), true),
    'conflicting annotations and rules with union': c(role(rules('a'), undefined, { 1: 'a' }), role(rules('b'), undefined, { 1: 'b' }), false, role(rules('b', 'a'), undefined, { 1: 'b' }), true),
    'conflicting labels/annotations and rules without union': c(
      role(rules('a'), { 3: 'd' }, { 1: 'a' }),
      role(rules('b'), { 4: 'e' }, { 1: 'b' }),
      true,
      role(rules('a'), { 3: 'd', 4: 'e' }, { 1: 'b' }),
      true,
    ),
    'conflicting labels/annotations and rules with union': c(
      role(rules('a'), { 3: 'd' }, { 1: 'a' }),
      role(rules('b'), { 4: 'e' }, { 1: 'b' }),
      false,
      role(rules('b', 'a'), { 3: 'd', 4: 'e' }, { 1: 'b' }),
      true,
    ),
    'complex labels/annotations and rules without union': c(
      role(rules('pods', 'nodes', 'secrets'), { env: 'prod', color: 'blue' }, { description: 'fancy', system: 'true' }),
      role(rules('nodes', 'images', 'projects'), { color: 'red', team: 'pm' }, { system: 'false', owner: 'admin', vip: 'yes' }),
      true,
      role(rules('pods', 'nodes', 'secrets'), { env: 'prod', color: 'red', team: 'pm' }, { description: 'fancy', system: 'false', owner: 'admin', vip: 'yes' }),
      true,
    ),
    'complex labels/annotations and rules with union': c(
      role(rules('pods', 'nodes', 'secrets'), { env: 'prod', color: 'blue', manager: 'randy' }, { description: 'fancy', system: 'true', up: 'true' }),
      role(rules('nodes', 'images', 'projects'), { color: 'red', team: 'pm' }, { system: 'false', owner: 'admin', vip: 'yes', rate: 'down' }),
      false,
      role(
        rules('nodes', 'images', 'projects', 'pods', 'secrets'),
        { env: 'prod', manager: 'randy', color: 'red', team: 'pm' },
        { description: 'fancy', system: 'false', owner: 'admin', vip: 'yes', rate: 'down', up: 'true' },
      ),
      true,
    ),
  });
});

describe('TestComputeReconciledRoleAggregationRules', () => {
  run({
    empty: c(aggregatedRole({}), aggregatedRole(undefined), true, undefined, false),
    'empty-2': c(aggregatedRole({}), aggregatedRole({}), true, undefined, false),
    'match without union': c(aggregatedRole(aggregationrule([{ foo: 'bar' }])), aggregatedRole(aggregationrule([{ foo: 'bar' }])), true, undefined, false),
    'match with union': c(aggregatedRole(aggregationrule([{ foo: 'bar' }])), aggregatedRole(aggregationrule([{ foo: 'bar' }])), false, undefined, false),
    'different rules without union': c(
      aggregatedRole(aggregationrule([{ foo: 'bar' }])),
      aggregatedRole(aggregationrule([{ alpha: 'bravo' }])),
      true,
      aggregatedRole(aggregationrule([{ foo: 'bar' }])),
      true,
    ),
    'different rules with union': c(
      aggregatedRole(aggregationrule([{ foo: 'bar' }])),
      aggregatedRole(aggregationrule([{ alpha: 'bravo' }])),
      false,
      aggregatedRole(aggregationrule([{ alpha: 'bravo' }, { foo: 'bar' }])),
      true,
    ),
    // desired role is not aggregated, existing role is: the reconciled one has the desired permissions and no aggregation
    'unexpected aggregation': c(role(rules('pods', 'nodes', 'secrets')), aggregatedRole(aggregationrule([{ alpha: 'bravo' }])), false, role(rules('pods', 'nodes', 'secrets')), true),
    // … and keeps the permissions it had beside the desired ones
    'unexpected aggregation with differing permissions': c(
      role(rules('pods', 'nodes', 'secrets')),
      { ...aggregatedRole(aggregationrule([{ alpha: 'bravo' }])), rules: rules('deployments') },
      false,
      role(rules('deployments', 'pods', 'nodes', 'secrets')),
      true,
    ),
  });
});

describe('computeReconciledRole: autoupdate', () => {
  test('an existing role annotated autoupdate "false" is protected; the result still says what is missing', () => {
    const existing = role(rules('a'), undefined, { 'rbac.authorization.kubernetes.io/autoupdate': 'false' });
    const result = computeReconciledRole(existing, role(rules('a', 'b')), false);
    assert.equal(result.protected, true);
    assert.equal(result.operation, 'update');
    assert.deepEqual(result.missingRules, rules('b'));
  });

  test('label keys such as __proto__ are data', () => {
    const expected = role(rules('a'), JSON.parse('{"__proto__":"x"}') as SS);
    const result = computeReconciledRole(role(rules('a')), expected, false);
    assert.equal(result.operation, 'update');
    assert.equal(Object.getPrototypeOf(result.role.metadata?.labels), Object.prototype);
    assert.deepEqual(Object.entries(result.role.metadata?.labels ?? {}), [['__proto__', 'x']]);
  });
});
