// What the leader election tests of the control plane read and do over HTTPS as an admin: the
// Lease of kube-controller-manager, the gauge on /metrics, the election's events, and the two
// controllers that must run somewhere (the namespace controller finalizes a deleted namespace,
// the garbage collector deletes an owner's dependents). Every wait polls for a state.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlane } from '../integration/harness.js';
import type { HttpsClient } from '../integration/https.js';

export const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** The identity a control plane campaigns with: kept in its data dir. */
export function identityOf(cp: ControlPlane): string {
  return readFileSync(join(cp.dataDir, 'leader-election-identity'), 'utf8').trim();
}

export async function leaseSpec(client: HttpsClient): Promise<LeaseSpec | undefined> {
  const r = await client.json('GET', LEASE_PATH);
  if (r.status === 404) return undefined;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body['spec'] ?? {}) as LeaseSpec;
}

/** leader_election_master_status{name="kube-controller-manager"} on /metrics; undefined when absent. */
export async function masterStatus(client: HttpsClient, name = 'kube-controller-manager'): Promise<number | undefined> {
  const r = await client.request({ path: '/metrics' });
  assert.equal(r.status, 200, r.text.slice(0, 500));
  const line = r.text.split('\n').find((l) => l.startsWith(`leader_election_master_status{name="${name}"}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

/** The messages of the LeaderElection events on the Lease. */
export async function leaderElectionEvents(client: HttpsClient): Promise<string[]> {
  const r = await client.json('GET', '/api/v1/namespaces/kube-system/events');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const items = (r.body['items'] ?? []) as Array<{ reason?: string; message?: string; involvedObject?: { kind?: string; name?: string }; source?: { component?: string } }>;
  return items
    .filter((e) => e.reason === 'LeaderElection' && e.involvedObject?.kind === 'Lease' && e.involvedObject.name === 'kube-controller-manager' && e.source?.component === 'kube-controller-manager')
    .map((e) => e.message ?? '');
}

/** Polls `check` until it returns a value other than undefined; fails with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last !== undefined ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Creates a namespace with a ConfigMap in it, deletes it through `client`, waits until it is gone (the namespace controller finalized it). */
export async function namespaceIsFinalized(client: HttpsClient, timeoutMs?: number): Promise<void> {
  const name = `le-${randomUUID().slice(0, 8)}`;
  let r = await client.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  r = await client.json('POST', `/api/v1/namespaces/${name}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'content' }, data: { a: 'b' } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  r = await client.json('DELETE', `/api/v1/namespaces/${name}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await eventually(`namespace ${name} to be finalized`, async () => ((await client.json('GET', `/api/v1/namespaces/${name}`)).status === 404 ? true : undefined), timeoutMs);
}

/** Creates an owner ConfigMap and a dependent, deletes the owner through `client`, waits until the garbage collector deleted the dependent. */
export async function dependentIsCollected(client: HttpsClient, timeoutMs?: number): Promise<void> {
  const suffix = randomUUID().slice(0, 8);
  const cms = '/api/v1/namespaces/default/configmaps';
  const owner = await client.json('POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `owner-${suffix}` } });
  assert.equal(owner.status, 201, JSON.stringify(owner.body));
  const uid = (owner.body['metadata'] as { uid: string }).uid;
  const dependent = await client.json('POST', cms, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `dependent-${suffix}`, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: `owner-${suffix}`, uid }] },
  });
  assert.equal(dependent.status, 201, JSON.stringify(dependent.body));
  const del = await client.json('DELETE', `${cms}/owner-${suffix}`);
  assert.equal(del.status, 200, JSON.stringify(del.body));
  await eventually(`dependent-${suffix} to be collected`, async () => ((await client.json('GET', `${cms}/dependent-${suffix}`)).status === 404 ? true : undefined), timeoutMs);
}

export const APISERVER_LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-apiserver-singleton-controllers';

/** The holder of the API servers' singleton controllers' Lease. */
export async function apiserverLeaseHolder(client: HttpsClient): Promise<string | undefined> {
  const r = await client.json('GET', APISERVER_LEASE_PATH);
  if (r.status === 404) return undefined;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body['spec'] as LeaseSpec | undefined)?.holderIdentity;
}

/**
 * The API servers' singletons act: a CRD created through `client` is Established (establishing
 * controller), its group version gets an Available APIService (CRD registration, autoregister,
 * availability), and once deleted with a custom resource in it, it is gone (finalizer controller).
 */
export async function crdLifecycleCompletes(client: HttpsClient, timeoutMs?: number): Promise<void> {
  const group = `le${randomUUID().slice(0, 8)}.example.com`;
  const name = `widgets.${group}`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
  const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  let r = await client.json('POST', crds, crd);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const condition = (obj: Record<string, unknown>, type: string): string | undefined =>
    ((obj['status'] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).find((c) => c.type === type)?.status;
  await eventually(`${name} to be Established`, async () => (condition((await client.json('GET', `${crds}/${name}`)).body, 'Established') === 'True' ? true : undefined), timeoutMs);
  await eventually(
    `APIService v1.${group} to be Available`,
    async () => (condition((await client.json('GET', `/apis/apiregistration.k8s.io/v1/apiservices/v1.${group}`)).body, 'Available') === 'True' ? true : undefined),
    timeoutMs,
  );
  await eventually('a Widget to be created', async () => {
    const c = await client.json('POST', `/apis/${group}/v1/namespaces/default/widgets`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w' } });
    return c.status === 201 ? c : undefined;
  });
  r = await client.json('DELETE', `${crds}/${name}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await eventually(`${name} to be finalized`, async () => ((await client.json('GET', `${crds}/${name}`)).status === 404 ? true : undefined), timeoutMs);
}
