// kube's lease endpoint reconciler across replicas (--advertise-address): three replicas of the
// control plane on one etcd, each on an address of its own (127.0.0.11-13 with --bind-address and
// --advertise-address: loopback addresses standing in for three machines) and one port, as kube's
// replicas share one. Each keeps a lease under /masterleases, and the `default/kubernetes`
// Endpoints list every replica whose lease lives: a replica that stops takes its address out at
// once (it removes its lease); one killed with -9 drops out once its lease has expired (15 s) and
// another replica reconciles (every 10 s). Before this flag every replica on one machine
// advertised the same host address, so the Endpoints could not tell them apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { etcdUnavailable } from '../harness.js';
import { HttpsClient } from '../https.js';
import { freePort, startEtcd, type EtcdCluster } from '../../storage/etcdServer.js';
import { eventually } from '../../controlplane/leader-election-helpers.js';
import { ReplicaSet } from './lib/replicas.js';

const address = (i: number): string => `127.0.0.${11 + i}`;

interface EndpointsJSON {
  subsets?: Array<{ addresses?: Array<{ ip: string }>; ports?: Array<{ name?: string; port: number; protocol?: string }> }>;
}

describe('the kubernetes Endpoints of three replicas on one etcd', { skip: etcdUnavailable() ?? false, timeout: 300_000 }, () => {
  let etcd: EtcdCluster;
  let set: ReplicaSet;
  let port: number;
  before(async () => {
    etcd = await startEtcd(1);
    port = await freePort();
    set = await ReplicaSet.start(etcd, 3, [], (i) => ['--secure-port', String(port), '--bind-address', address(i), '--advertise-address', address(i)]);
  });
  after(async () => {
    await set?.close();
    await etcd?.close();
  });

  /** The addresses the Endpoints list, read through replica `via`, once they equal `want`. */
  const listed = (via: number, want: readonly string[], timeoutMs?: number): Promise<string[]> =>
    eventually(
      `the kubernetes Endpoints to list ${want.join(', ')}`,
      async () => {
        const client = new HttpsClient(set.replicas[via]!.credentials);
        try {
          const r = await client.json('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
          const subsets = (r.body as EndpointsJSON).subsets ?? [];
          const ips = subsets.flatMap((s) => (s.addresses ?? []).map((a) => a.ip));
          assert.deepEqual(
            subsets.map((s) => s.ports),
            [[{ name: 'https', port, protocol: 'TCP' }]],
          );
          return JSON.stringify(ips) === JSON.stringify(want) ? ips : undefined;
        } finally {
          client.close();
        }
      },
      timeoutMs,
    );

  test('every replica is listed by its advertise address, sorted, on the shared port', async () => {
    const all = [address(0), address(1), address(2)];
    assert.deepEqual(await listed(0, all), all);
    assert.deepEqual(await listed(2, all), all);
    // Each serving certificate names its own address, which the clients above verified.
    assert.equal(new URL(set.replicas[1]!.credentials.server).hostname, address(1));
  });

  test('a replica that stops is taken out at once; one killed with -9 once its lease has expired', async () => {
    await set.replicas[2]!.terminate();
    assert.deepEqual(await listed(0, [address(0), address(1)], 10_000), [address(0), address(1)]);
    await set.kill(1);
    // The lease lives 15 s after its last renewal; replica 0 reconciles every 10 s.
    assert.deepEqual(await listed(0, [address(0)], 60_000), [address(0)]);
  });
});
