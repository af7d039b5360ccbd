import { after, before } from 'node:test';
import { cachedBackend } from './cachedBackend.js';
import { etcdBackend } from './etcdBackend.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';
import { describeLargeWatch } from './largeWatch.js';

// Issue 12: watches over 10,000 objects on etcd, with and without the watch cache.
let etcd: EtcdCluster | undefined;
before(async () => {
  etcd = await startEtcd();
});
after(async () => {
  await etcd?.close();
});

const backend = etcdBackend(
  () => {
    if (!etcd) throw new Error('etcd not started');
    return etcd;
  },
  () => Promise.reject(new Error('these tests do not need uncompacted history')),
);
describeLargeWatch(backend);
describeLargeWatch(cachedBackend(backend));
