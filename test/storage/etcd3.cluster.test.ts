import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/factory.js';
import type { Interface } from '../../runtime/storage/interfaces.js';
import { startEtcd, type EtcdCluster, type EtcdMember } from './etcdServer.js';
import { LoadGenerator, waitFor } from './loadgen.js';

let cluster: EtcdCluster;
let factory: StorageFactory;
let store: Interface;
before(async () => {
  cluster = await startEtcd(3);
  factory = newStorageFactory({ backend: { backend: 'etcd3', endpoints: cluster.endpoints, requestTimeoutMs: 3000, compactionIntervalMs: 0 }, watchCache: false });
  store = await factory.forResource({ resourcePrefix: '/configmaps/' });
});
after(async () => {
  await factory?.close();
  await cluster?.close();
});

async function findLeader(members: EtcdMember[]): Promise<EtcdMember> {
  for (const m of members) {
    const c = new Etcd3({ hosts: m.endpoint });
    try {
      const st = await c.maintenance.status({});
      if (st.leader === st.header.member_id) return m;
    } finally {
      c.close();
    }
  }
  throw new Error('no leader found');
}

test('a 3-member etcd cluster loses its leader under load without losing an acknowledged write', async (t) => {
  const load = new LoadGenerator(store, { workers: 16, namePrefix: 'leader' });
  load.start();
  await waitFor(() => load.acked.size > 300, 30_000, 'load to start');
  const leader = await findLeader(cluster.members);
  const before = load.acked.size;
  await leader.kill();
  const killedAt = Date.now();
  // The two survivors elect a new leader; writes continue.
  await waitFor(() => load.ops.some((o) => o.ok && o.start > killedAt + 100), 20_000, 'writes to resume after the leader was killed');
  await new Promise((r) => setTimeout(r, 3000));
  await load.stop();
  const failed = load.ops.filter((o) => !o.ok).length;
  t.diagnostic(`acknowledged ${before} writes before and ${load.acked.size - before} after killing the leader (${leader.spec.name}); ${failed} requests failed`);

  const survivors = cluster.members.filter((m) => m !== leader);
  const check = newStorageFactory({ backend: { backend: 'etcd3', endpoints: survivors.map((m) => m.endpoint), compactionIntervalMs: 0 }, watchCache: false });
  try {
    const s = await check.forResource({ resourcePrefix: '/configmaps/' });
    const list = await s.getList('/configmaps/', { recursive: true });
    const stored = new Map(list.items.map((o) => [String(o.metadata?.name), Number(o.metadata?.resourceVersion)]));
    for (const [name, rv] of load.acked) {
      assert.equal(stored.get(name), rv, `acknowledged write ${name}@${rv} lost`);
    }
    assert.ok(load.acked.size > before, 'writes were acknowledged after the leader loss');
  } finally {
    await check.close();
  }
});
