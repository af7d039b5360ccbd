// The rbac/bootstrap-roles post-start hook (ensureBootstrapPolicy) against a real control plane,
// through the loopback client: it creates the policy, leaves a reconciled cluster alone, restores
// what was taken away while keeping what was added, leaves protected objects alone, recreates a
// binding whose roleRef changed, and migrates non-aggregated admin/edit/view rules first (kube's
// PolicyData.EnsureRBACPolicy and primeAggregatedClusterRoles).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PolicyRule } from '../../../apis/rbac/v1/types.js';
import { RbacV1Client } from '../../../generated/clientset/rbac/v1/index.js';
import { covers } from '../../../runtime/authorization/rbac/escalation.js';
import { bootstrapPolicy } from '../../../runtime/authorization/rbac/bootstrap/index.js';
import { ensureBootstrapPolicy } from '../../../runtime/controllers/rbacbootstrap/index.js';
import { startControlPlane, type ControlPlane } from '../../../runtime/controlplane/controlplane.js';

describe('ensureBootstrapPolicy (rbac/bootstrap-roles) over the control plane', () => {
  let dataDir = '';
  let plane: ControlPlane;
  let rbac: RbacV1Client;
  const lines: string[] = [];
  const ensure = (): Promise<void> => ensureBootstrapPolicy(plane.loopback, new AbortController().signal, { log: (l) => lines.push(l), pollIntervalMs: 100, timeoutMs: 60_000 });
  const policy = bootstrapPolicy();

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rbac-bootstrap-'));
    plane = await startControlPlane({ dataDir, securePort: 0, bindAddress: '127.0.0.1', storageBackend: 'sqlite' });
    rbac = new RbacV1Client(plane.loopback);
  });

  after(async () => {
    await plane?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('creates every object of the policy', async () => {
    await ensure();
    for (const r of policy.clusterRoles) {
      const got = await rbac.clusterroles().get(r.metadata?.name ?? '');
      assert.equal(got.metadata?.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults');
      if (r.aggregationRule === undefined) assert.ok(covers(got.rules ?? [], r.rules ?? []).covered, r.metadata?.name);
    }
    for (const b of policy.clusterRoleBindings) assert.deepEqual((await rbac.clusterrolebindings().get(b.metadata?.name ?? '')).roleRef, b.roleRef);
    for (const [ns, roles] of policy.roles) for (const r of roles) await rbac.roles(ns).get(r.metadata?.name ?? '');
    for (const [ns, bindings] of policy.roleBindings) for (const b of bindings) await rbac.rolebindings(ns).get(b.metadata?.name ?? '');
  });

  test('a second run changes nothing', async () => {
    const before = (await rbac.clusterroles().list()).items.map((r) => `${r.metadata?.name}@${r.metadata?.resourceVersion}`);
    const bindingsBefore = (await rbac.clusterrolebindings().list()).items.map((r) => `${r.metadata?.name}@${r.metadata?.resourceVersion}`);
    lines.length = 0;
    await ensure();
    // the aggregation controller may write admin/edit/view meanwhile; the bootstrap does not
    const changed = (await rbac.clusterroles().list()).items.map((r) => `${r.metadata?.name}@${r.metadata?.resourceVersion}`).filter((x) => !before.includes(x) && !/^(admin|edit|view)@/.test(x));
    assert.deepEqual(changed, []);
    assert.deepEqual((await rbac.clusterrolebindings().list()).items.map((r) => `${r.metadata?.name}@${r.metadata?.resourceVersion}`).sort(), [...bindingsBefore].sort());
    assert.deepEqual(
      lines.filter((l) => /^(created|updated|recreated)/.test(l)),
      [],
    );
  });

  test('missing rules and subjects come back, added ones stay', async () => {
    const extra: PolicyRule = { verbs: ['get'], apiGroups: ['tools.example.com'], resources: ['nails'] };
    const basic = await rbac.clusterroles().get('system:basic-user');
    await rbac.clusterroles().update({ ...basic, rules: [extra] });
    const discovery = await rbac.clusterrolebindings().get('system:discovery');
    await rbac.clusterrolebindings().update({ ...discovery, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }] });
    await ensure();
    const rules = (await rbac.clusterroles().get('system:basic-user')).rules ?? [];
    assert.deepEqual(rules[0], extra);
    assert.ok(covers(rules, policy.clusterRoles.find((r) => r.metadata?.name === 'system:basic-user')?.rules ?? []).covered);
    assert.deepEqual(
      ((await rbac.clusterrolebindings().get('system:discovery')).subjects ?? []).map((s) => s.name),
      ['alice', 'system:authenticated'],
    );
    assert.ok(lines.some((l) => l.startsWith('updated clusterrole.rbac.authorization.k8s.io/system:basic-user with additional permissions')));
  });

  test('an object annotated autoupdate "false" is left alone', async () => {
    const role = await rbac.clusterroles().get('system:public-info-viewer');
    await rbac.clusterroles().update({ ...role, metadata: { ...role.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] });
    lines.length = 0;
    await ensure();
    const after = await rbac.clusterroles().get('system:public-info-viewer');
    assert.deepEqual(after.rules ?? [], []);
    assert.ok(lines.some((l) => l.startsWith('skipped reconcile-protected clusterrole.rbac.authorization.k8s.io/system:public-info-viewer with missing permissions')));
  });

  test('a binding whose roleRef differs is recreated with the expected one', async () => {
    await rbac.clusterrolebindings().delete('system:basic-user');
    await rbac.clusterrolebindings().create({
      metadata: { name: 'system:basic-user' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'mallory' }],
    });
    await ensure();
    const got = await rbac.clusterrolebindings().get('system:basic-user');
    assert.equal(got.roleRef.name, 'system:basic-user');
    assert.deepEqual(
      (got.subjects ?? []).map((s) => s.name),
      ['system:authenticated'],
    );
  });

  test('the rules of a non-aggregated admin move to system:aggregate-to-admin before admin is aggregated', async () => {
    const custom: PolicyRule = { verbs: ['create'], apiGroups: ['tools.example.com'], resources: ['hammers'] };
    await rbac.clusterroles().delete('admin');
    await rbac.clusterroles().delete('system:aggregate-to-admin');
    await rbac.clusterroles().create({ metadata: { name: 'admin' }, rules: [custom] });
    await ensure();
    const moved = await rbac.clusterroles().get('system:aggregate-to-admin');
    assert.deepEqual(moved.rules?.[0], custom);
    assert.equal(moved.metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
    assert.ok((await rbac.clusterroles().get('admin')).aggregationRule !== undefined);
  });

  test('stops quietly when its signal aborts', async () => {
    const stop = new AbortController();
    stop.abort();
    await ensureBootstrapPolicy(plane.loopback, stop.signal);
  });
});
