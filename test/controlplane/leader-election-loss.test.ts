// Losing kube-controller-manager's Lease inside the control plane (SQLite). kube-controller-manager
// exits on "leaderelection lost"; here the API server keeps serving, the term's controllers stop,
// and the process campaigns again (runtime/controlplane/leaderelection/elected.ts). Another holder
// is written into the Lease as a second replica would: the leader's renewals fail, it reports
// leader_election_master_status 0 and its namespace controller no longer finalizes; once the
// Lease is released the process leads again and the deleted namespace is finalized.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { eventually, identityOf, LEASE_PATH, leaseSpec, masterStatus } from './leader-election-helpers.js';

const SHORT_LEASE = ['--leader-elect-lease-duration', '4s', '--leader-elect-renew-deadline', '3s', '--leader-elect-retry-period', '500ms'];

describe('losing the Lease stops the controllers, keeps serving, and campaigns again (SQLite)', () => {
  let cp: ControlPlane;
  let client: HttpsClient;
  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite', extraArgs: SHORT_LEASE });
    client = new HttpsClient(cp.credentials);
  });
  after(async () => {
    client?.close();
    await cp?.stop();
  });

  /** Writes `holder` into the Lease (an empty one releases it), retrying on conflict with the leader's renewals. */
  const writeHolder = async (holder: string, leaseDurationSeconds: number): Promise<void> => {
    await eventually(`the Lease to be written with holder ${JSON.stringify(holder)}`, async () => {
      const lease = (await client.json('GET', LEASE_PATH)).body;
      const now = new Date().toISOString().replace('Z', '000Z');
      lease['spec'] = { ...(lease['spec'] as object), holderIdentity: holder, leaseDurationSeconds, renewTime: now, acquireTime: now };
      const r = await client.json('PUT', LEASE_PATH, lease);
      if (r.status === 409) return undefined;
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return true;
    });
  };

  test('another holder: gauge 0, no finalizing; released: leads again and finalizes', async () => {
    const id = identityOf(cp);
    await eventually('the process to lead', async () => ((await leaseSpec(client))?.holderIdentity === id && (await masterStatus(client)) === 1 ? true : undefined));

    await writeHolder('intruder', 600);
    await eventually('the gauge to drop to 0 after the renew deadline', async () => ((await masterStatus(client)) === 0 ? true : undefined));
    assert.equal((await leaseSpec(client))?.holderIdentity, 'intruder', 'the process does not take a valid lease back');

    const name = `loss-${randomUUID().slice(0, 8)}`;
    let r = await client.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    r = await client.json('DELETE', `/api/v1/namespaces/${name}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // A running namespace controller finalizes an empty namespace within milliseconds; 3 s of
    // Terminating says it is stopped (the server answers meanwhile: it is serving).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    r = await client.json('GET', `/api/v1/namespaces/${name}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((r.body['status'] as { phase?: string }).phase, 'Terminating');

    await writeHolder('', 1);
    await eventually('the process to lead again', async () => ((await leaseSpec(client))?.holderIdentity === id && (await masterStatus(client)) === 1 ? true : undefined));
    await eventually(`namespace ${name} to be finalized`, async () => ((await client.json('GET', `/api/v1/namespaces/${name}`)).status === 404 ? true : undefined));
  });
});
