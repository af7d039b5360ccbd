import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newEtcdClient } from '../../runtime/storage/etcd3/client.js';
import { EtcdKV, progressRequestsOrdered } from '../../runtime/storage/etcd3/kv.js';
import { Store } from '../../runtime/storage/kvstore/store.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';

let etcd: EtcdCluster;
let kv: EtcdKV;
before(async () => {
  etcd = await startEtcd();
  kv = new EtcdKV(newEtcdClient({ endpoints: etcd.endpoints }));
});
after(async () => {
  await kv?.close();
  await etcd?.close();
});

describe('etcd3 backend', () => {
  test('a list larger than the 4 MiB gRPC receive limit is paged', async () => {
    const store = new Store({ kv, resourcePrefix: '/big/', pathPrefix: '/kvtest' });
    const blob = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 12; i++) await store.create(`/big/default/o${i}`, { metadata: { name: `o${i}`, namespace: 'default' }, data: { blob } });
    const list = await store.getList('/big/', { recursive: true });
    assert.equal(list.items.length, 12);
    const stats = await store.stats();
    assert.equal(stats.objectCount, 12);
  });

  test('an update that loses the compare-and-swap race is retried against the new value', async () => {
    const store = new Store({ kv, resourcePrefix: '/race/', pathPrefix: '/kvtest' });
    await store.create('/race/default/a', { metadata: { name: 'a', namespace: 'default' }, data: { n: 0 } });
    const bump = () =>
      store.guaranteedUpdate('/race/default/a', {
        tryUpdate: (o) => ({ object: { ...(o ?? {}), data: { n: Number((o?.data as { n: number }).n) + 1 } } }),
      });
    await Promise.all(Array.from({ length: 20 }, bump));
    const got = await store.get('/race/default/a');
    assert.equal((got?.data as { n: number }).n, 20);
  });

  test('progress requests are trusted only on etcd versions that order them with events', async () => {
    assert.equal(progressRequestsOrdered('3.4.23'), false);
    assert.equal(progressRequestsOrdered('3.4.31'), true);
    assert.equal(progressRequestsOrdered('3.5.12'), false);
    assert.equal(progressRequestsOrdered('3.5.13'), true);
    assert.equal(progressRequestsOrdered('3.6.0'), true);
    assert.equal(typeof (await kv.supportsRequestWatchProgress()), 'boolean');
  });
});
