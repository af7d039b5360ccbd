import { newEtcdClient } from '../../runtime/storage/etcd3/client.js';
import { EtcdKV } from '../../runtime/storage/etcd3/kv.js';
import type { BackendUnderTest } from '../../runtime/storage/testing/harness.js';
import type { EtcdCluster } from './etcdServer.js';
import { storeUnderTest } from './sqliteBackend.js';

let storeSeq = 0;

/**
 * The etcd3 backend on a shared test etcd: every store gets its own key prefix, so tests do
 * not see each other's objects (revisions and compaction are shared, as on a real cluster).
 */
export function etcdBackend(etcd: () => EtcdCluster, pristine: () => Promise<EtcdCluster>): BackendUnderTest {
  return {
    name: 'etcd3',
    cached: false,
    notApplicable: { 'RunTestStats/size': 'etcd stores no value sizes a range can count; kube estimates them only behind a feature gate' },
    async newStore(opts = {}) {
      // Watches from RV=1 replay the whole history, which compactions by earlier tests removed.
      const cluster = opts.uncompactedHistory ? await pristine() : etcd();
      const client = newEtcdClient({ endpoints: cluster.endpoints, requestTimeoutMs: 10_000 });
      const kv = new EtcdKV(client);
      return storeUnderTest(kv, { ...opts, pathPrefix: `/t${process.pid}-${++storeSeq}/registry` });
    },
  };
}
