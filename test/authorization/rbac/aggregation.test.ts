// kube's pkg/controller/clusterroleaggregation/clusterroleaggregation_controller_test.go
// (TestSyncClusterRole) over a real control plane: the controller runs against the server's
// loopback client, each case in its own label key so the cases do not see each other. kube's
// rules name no apiGroups (its fake client does not validate); a real server requires them for
// resource rules, so each rule here names `tools.example.com`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClusterRole, PolicyRule } from '../../../apis/rbac/v1/types.js';
import { RbacV1Client } from '../../../generated/clientset/rbac/v1/index.js';
import { labelSelectorAsSelector } from '../../../runtime/apimachinery/labels/index.js';
import { semanticDeepEqual } from '../../../runtime/apimachinery/serializer/semantic.js';
import { getCached } from '../../../runtime/aggregator/controllers/lookup.js';
import { ClusterRoleAggregationController } from '../../../runtime/controllers/clusterroleaggregation/index.js';
import { startControlPlane, type ControlPlane } from '../../../runtime/controlplane/controlplane.js';
import { until } from '../../integration/assertions.js';

const g = ['tools.example.com'];
const hammerRules = (): PolicyRule[] => [
  { verbs: ['hammer'], apiGroups: g, resources: ['nails'] },
  { verbs: ['hammer'], apiGroups: g, resources: ['wedges'] },
];
const chiselRules = (): PolicyRule[] => [{ verbs: ['chisel'], apiGroups: g, resources: ['mortises'] }];
const sawRules = (): PolicyRule[] => [{ verbs: ['saw'], apiGroups: g, resources: ['boards'] }];

interface Case {
  readonly name: string;
  /** [name, foo label value, rules] of the plain roles; the combined role last. */
  readonly roles: readonly [string, string, PolicyRule[]][];
  readonly combinedSelectors: readonly string[];
  readonly combinedRules: PolicyRule[];
  /** undefined: no update expected ("no diff skip"). */
  readonly expected: PolicyRule[] | undefined;
}

const cases: Case[] = [
  { name: 'remove dead rules', roles: [['hammer', 'bar', hammerRules()]], combinedSelectors: ['bar'], combinedRules: sawRules(), expected: hammerRules() },
  { name: 'strip rules', roles: [['hammer', 'not-bar', hammerRules()]], combinedSelectors: ['bar'], combinedRules: hammerRules(), expected: [] },
  {
    name: 'select properly and put in order',
    roles: [
      ['hammer', 'bar', hammerRules()],
      ['chisel', 'bar', chiselRules()],
      ['saw', 'not-bar', sawRules()],
    ],
    combinedSelectors: ['bar'],
    combinedRules: [],
    expected: [...chiselRules(), ...hammerRules()],
  },
  {
    name: 'select properly with multiple selectors',
    roles: [
      ['hammer', 'bar', hammerRules()],
      ['chisel', 'bar', chiselRules()],
      ['saw', 'not-bar', sawRules()],
    ],
    combinedSelectors: ['bar', 'not-bar'],
    combinedRules: [],
    expected: [...chiselRules(), ...hammerRules(), ...sawRules()],
  },
  {
    name: 'select properly remove duplicates',
    roles: [
      ['hammer', 'bar', hammerRules()],
      ['chisel', 'bar', chiselRules()],
      ['saw', 'bar', sawRules()],
      ['other-saw', 'not-bar', sawRules()],
    ],
    combinedSelectors: ['bar', 'not-bar'],
    combinedRules: [],
    expected: [...chiselRules(), ...hammerRules(), ...sawRules()],
  },
  { name: 'no diff skip', roles: [['hammer', 'bar', hammerRules()]], combinedSelectors: ['bar'], combinedRules: hammerRules(), expected: undefined },
];

describe('ClusterRoleAggregationController over the control plane', () => {
  let dataDir = '';
  let plane: ControlPlane;
  let rbac: RbacV1Client;
  let controller: ClusterRoleAggregationController;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rbac-aggregation-'));
    plane = await startControlPlane({ dataDir, securePort: 0, bindAddress: '127.0.0.1', storageBackend: 'sqlite' });
    rbac = new RbacV1Client(plane.loopback);
    controller = new ClusterRoleAggregationController({ rest: plane.loopback, onError: () => {} });
    controller.start();
  });

  after(async () => {
    await controller?.stop();
    await plane?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('TestSyncClusterRole', () => {
    cases.forEach((tc, i) => {
      test(tc.name, async () => {
        const key = `tools.example.com/case-${i}`;
        for (const [name, value, rules] of tc.roles) await rbac.clusterroles().create({ metadata: { name: `case${i}-${name}`, labels: { [key]: value } }, rules });
        const combinedName = `case${i}-combined`;
        const created = await rbac.clusterroles().create({
          metadata: { name: combinedName },
          aggregationRule: { clusterRoleSelectors: tc.combinedSelectors.map((v) => ({ matchLabels: { [key]: v } })) },
          rules: tc.combinedRules,
        });
        if (tc.expected !== undefined) {
          const want = tc.expected;
          await until(`${combinedName} aggregated`, async () => ((await isAggregated(rbac, combinedName, want)) ? true : undefined));
          return;
        }
        // kube: the sync makes no call at all; here: the cached role is synced and left at its resourceVersion
        const lister = controller.clusterRoleInformer().lister();
        await until(`${combinedName} cached`, () => (tc.roles.every(([n]) => getCached(lister, `case${i}-${n}`) !== undefined) && getCached(lister, combinedName) !== undefined ? true : undefined));
        await controller.syncClusterRole(combinedName);
        const now = await rbac.clusterroles().get(combinedName);
        assert.equal(now.metadata?.resourceVersion, created.metadata?.resourceVersion);
        assert.ok(semanticDeepEqual(now.rules, tc.combinedRules));
      });
    });
  });

  test('aggregation picks up a new labelled ClusterRole (time to pick up printed)', async () => {
    const key = 'tools.example.com/pickup';
    await rbac.clusterroles().create({ metadata: { name: 'pickup-aggregate' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [key]: 'true' } }] } });
    await until('the empty aggregate cached', () => getCached(controller.clusterRoleInformer().lister(), 'pickup-aggregate'));
    const started = process.hrtime.bigint();
    await rbac.clusterroles().create({ metadata: { name: 'pickup-new', labels: { [key]: 'true' } }, rules: chiselRules() });
    await until('the new role aggregated', async () => ((await isAggregated(rbac, 'pickup-aggregate', chiselRules())) ? true : undefined));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    process.stdout.write(`# aggregation picked up a new labelled ClusterRole in ${ms.toFixed(1)} ms (create to a GET showing the rule)\n`);
    // a change of a selected role's rules, and a role losing its label, are followed too
    await rbac.clusterroles().update({ ...(await rbac.clusterroles().get('pickup-new')), rules: sawRules() });
    await until('the changed rules aggregated', async () => ((await isAggregated(rbac, 'pickup-aggregate', sawRules())) ? true : undefined));
    const current = await rbac.clusterroles().get('pickup-new');
    await rbac.clusterroles().update({ ...current, metadata: { ...current.metadata, labels: {} } });
    await until('the unlabelled role dropped', async () => ((await isAggregated(rbac, 'pickup-aggregate', [])) ? true : undefined));
  });

  test('an aggregated role aggregated into another (view into edit into admin) follows both', async () => {
    const mk = (name: string, labels: Record<string, string>, aggregateFrom?: string): ClusterRole => ({
      metadata: { name, labels },
      ...(aggregateFrom !== undefined ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateFrom]: 'true' } }] } } : {}),
    });
    await rbac.clusterroles().create(mk('chain-admin', {}, 'chain/to-admin'));
    await rbac.clusterroles().create(mk('chain-edit', { 'chain/to-admin': 'true' }, 'chain/to-edit'));
    await rbac.clusterroles().create({ ...mk('chain-view-rules', { 'chain/to-edit': 'true' }), rules: sawRules() });
    await until('admin holds what edit aggregates', async () => ((await isAggregated(rbac, 'chain-admin', sawRules())) ? true : undefined));
  });

  test('labelSelectorAsSelector: absent selects nothing, empty everything, expressions as kube', () => {
    const labels = new Map([['a', 'x']]);
    assert.equal(labelSelectorAsSelector(undefined).matches(labels), false);
    assert.equal(labelSelectorAsSelector({}).matches(labels), true);
    assert.equal(labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x', 'y'] }] }).matches(labels), true);
    assert.equal(labelSelectorAsSelector({ matchExpressions: [{ key: 'b', operator: 'DoesNotExist' }] }).matches(labels), true);
    assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Bogus' as 'In' }] }), /"Bogus" is not a valid label selector operator/);
  });
});

async function isAggregated(rbac: RbacV1Client, name: string, want: PolicyRule[]): Promise<boolean> {
  const role = await rbac.clusterroles().get(name);
  return semanticDeepEqual(role.rules ?? [], want);
}

describe("the control plane's own aggregation (bootstrap policy + controller as its own user)", () => {
  let dataDir = '';
  let plane: ControlPlane;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rbac-aggregation-server-'));
    plane = await startControlPlane({ dataDir, securePort: 0, bindAddress: '127.0.0.1', storageBackend: 'sqlite' });
  });

  after(async () => {
    await plane?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('admin, edit and view hold the aggregated rules, and a role labelled aggregate-to-view reaches all three', async () => {
    const rbac = new RbacV1Client(plane.loopback);
    const covering = async (name: string, rule: PolicyRule): Promise<boolean> => ((await rbac.clusterroles().get(name)).rules ?? []).some((r) => semanticDeepEqual(r, rule));
    const viewRule: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'] };
    for (const name of ['view', 'edit', 'admin']) await until(`${name} aggregated at start`, async () => ((await covering(name, viewRule)) ? true : undefined));
    // kube's rules over the core kinds served here: view reads events; edit reads and writes Secrets (view does not).
    const events: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['events', 'namespaces/status'] };
    const readSecrets: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['secrets'] };
    for (const name of ['view', 'edit', 'admin']) assert.ok(await covering(name, events), `${name} reads events`);
    for (const name of ['edit', 'admin']) assert.ok(await covering(name, readSecrets), `${name} reads secrets`);
    assert.ok(!(await covering('view', readSecrets)), 'view reads no secrets');
    const crontabs: PolicyRule = { verbs: ['get'], apiGroups: ['stable.example.com'], resources: ['crontabs'] };
    await rbac.clusterroles().create({ metadata: { name: 'crontab-viewer', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [crontabs] });
    for (const name of ['view', 'edit', 'admin']) await until(`${name} picks up crontab-viewer`, async () => ((await covering(name, crontabs)) ? true : undefined));
  });
});
