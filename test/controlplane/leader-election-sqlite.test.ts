// kube-controller-manager's election in a single control plane on SQLite (no kube test ports
// this: kube runs the election in a separate process). The Lease kube-system/kube-controller-manager
// is taken at start by the identity kept in the data dir, reported by
// leader_election_master_status and a "<identity> became leader" event, and the garbage collector
// and namespace controller act. A process killed with -9 and restarted on the same data dir
// renews its own Lease at once: the test runs with a 10-minute lease, which a new identity would
// have to wait out. The API servers' singleton controllers (CRD establishing and finalizer,
// APIService availability and autoregistration) do the same under kube-system/
// kube-apiserver-singleton-controllers. With --leader-elect=false no Lease is taken and the
// controllers still act.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import {
  apiserverLeaseHolder,
  crdLifecycleCompletes,
  dependentIsCollected,
  eventually,
  identityOf,
  leaderElectionEvents,
  leaseSpec,
  masterStatus,
  namespaceIsFinalized,
} from './leader-election-helpers.js';

/** A lease no test waits out: acquiring it from another identity would take 10 minutes. */
const LONG_LEASE = ['--leader-elect-lease-duration', '10m', '--leader-elect-renew-deadline', '5m', '--leader-elect-retry-period', '1s'];

describe('singleton controllers under leader election (one control plane, SQLite)', () => {
  const cleanup: Array<() => Promise<unknown> | void> = [];
  after(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  test('the Lease is taken at start; restarted after kill -9 on the same data dir, it is renewed at once', async () => {
    const first = await ControlPlane.start({ backend: 'sqlite', extraArgs: LONG_LEASE });
    const dataDir = first.dataDir;
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    cleanup.push(() => first.stop());
    const client = new HttpsClient(first.credentials);
    cleanup.push(() => client.close());
    const id = identityOf(first);
    assert.match(id, /^[^_]+_[0-9a-f-]{36}$/, 'client-go identity form <hostname>_<uuid>');

    const spec = await eventually('the lease to be held', async () => {
      const s = await leaseSpec(client);
      return s?.holderIdentity === id ? s : undefined;
    });
    assert.equal(spec.leaseDurationSeconds, 600);
    assert.equal(await eventually('the gauge at 1', async () => ((await masterStatus(client)) === 1 ? 1 : undefined)), 1);
    // kube-controller-manager's election health check, on /livez.
    const livez = await client.request({ path: '/livez?verbose' });
    assert.equal(livez.status, 200, livez.text);
    assert.match(livez.text, /^\[\+\]leaderElection ok$/m);
    await eventually('the became-leader event', async () => ((await leaderElectionEvents(client)).includes(`${id} became leader`) ? true : undefined));
    await namespaceIsFinalized(client);
    await dependentIsCollected(client);
    // The API servers' singletons, under their own Lease, held by the same identity.
    assert.equal(await apiserverLeaseHolder(client), id);
    assert.equal(await masterStatus(client, 'kube-apiserver-singleton-controllers'), 1);
    await crdLifecycleCompletes(client);

    process.kill(first.pid, 'SIGKILL');
    await eventually('the first process to exit', async () => first.exited());
    const second = await ControlPlane.start({ backend: 'sqlite', dataDir, extraArgs: LONG_LEASE });
    cleanup.push(() => second.stop());
    const client2 = new HttpsClient(second.credentials);
    cleanup.push(() => client2.close());
    assert.equal(identityOf(second), id, 'the identity is kept in the data dir');
    // Within the test's timeout, far below the 10-minute lease: the successor renewed its own lease.
    await eventually('the restarted process to lead', async () => ((await masterStatus(client2)) === 1 ? 1 : undefined));
    const renewed = await leaseSpec(client2);
    assert.equal(renewed?.holderIdentity, id);
    assert.equal(renewed?.leaseTransitions, spec.leaseTransitions, 'renewed by the same holder, not a new acquisition');
    assert.equal(renewed?.acquireTime, spec.acquireTime);
    await namespaceIsFinalized(client2);
    await dependentIsCollected(client2);
    await eventually("the restarted process to lead the API servers' singletons", async () => ((await apiserverLeaseHolder(client2)) === id ? true : undefined));
    await crdLifecycleCompletes(client2);
  });

  test('--leader-elect=false: no Lease, the controllers run anyway', async () => {
    const cp = await ControlPlane.start({ backend: 'sqlite', extraArgs: ['--leader-elect=false'] });
    cleanup.push(() => cp.stop());
    const client = new HttpsClient(cp.credentials);
    cleanup.push(() => client.close());
    await namespaceIsFinalized(client);
    await dependentIsCollected(client);
    assert.equal(await leaseSpec(client), undefined);
    assert.equal(await masterStatus(client), undefined, 'no election, no gauge');
    await crdLifecycleCompletes(client);
    assert.equal(await apiserverLeaseHolder(client), undefined);
  });
});
