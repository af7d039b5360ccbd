// The RBAC authorizer's informers and the `rbac/bootstrap-roles` hook: /readyz must not pass
// before the authorizer sees the bootstrap policy the hook wrote. The informers' first list can
// predate those writes (it is served from the watch cache) and on etcd the watch events carrying
// them come later, so "synced" is not enough: caughtUp() waits until the informers hold what a
// consistent list returns. A held watch stands in for a slow etcd watch, deterministically.
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { test } from 'node:test';
import type { ClusterRoleBinding } from '../../apis/rbac/v1/types.js';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { PolicyStore } from '../../runtime/authorization/rbac/index.js';
import { WatchChannel } from '../../runtime/client/fake/index.js';
import { PolicyInformers } from '../../runtime/controlplane/rbac/policy-informers.js';

const binding: ClusterRoleBinding = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: 'authenticated-discovery' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:discovery' },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }],
};

test('caughtUp waits for a binding written after the informers synced until its watch event arrives', async (t) => {
  const cs = newSimpleClientset();
  const held = new WatchChannel<unknown>();
  let watches = 0;
  cs.fake.prependWatchReactor('clusterrolebindings', () => (++watches === 1 ? { handled: true, watch: held } : { handled: false }));
  const store = new PolicyStore();
  const informers = new PolicyInformers(store, cs.fake);
  t.after(() => informers.stop());
  informers.start();
  const stop = new AbortController();
  t.after(() => stop.abort());
  assert.equal(await informers.synced(stop.signal), true);

  const created = await cs.rbacV1().clusterrolebindings().create(binding);
  let caughtUp: boolean | undefined;
  const waiting = informers.caughtUp(stop.signal).then((v) => (caughtUp = v));
  for (let i = 0; i < 50; i++) await tick();
  assert.equal(caughtUp, undefined, 'synced informers without the binding are not caught up');
  assert.deepEqual(store.listClusterRoleBindings(), []);

  held.push({ type: 'ADDED', object: created });
  assert.equal(await waiting, true);
  assert.deepEqual(
    store.listClusterRoleBindings().map((b) => b.metadata?.name),
    ['authenticated-discovery'],
  );
});

test('caughtUp resolves false when stopped before the informers catch up', async (t) => {
  const cs = newSimpleClientset();
  cs.fake.prependWatchReactor('clusterrolebindings', () => ({ handled: true, watch: new WatchChannel<unknown>() }));
  const informers = new PolicyInformers(new PolicyStore(), cs.fake);
  t.after(() => informers.stop());
  informers.start();
  const stop = new AbortController();
  assert.equal(await informers.synced(stop.signal), true);
  await cs.rbacV1().clusterrolebindings().create(binding);
  const waiting = informers.caughtUp(stop.signal);
  stop.abort();
  assert.equal(await waiting, false);
});
