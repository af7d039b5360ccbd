import { after, before } from 'node:test';
import { runConformanceSuite } from '../../runtime/storage/testing/suite.js';
import { cachedBackend } from './cachedBackend.js';
import { etcdBackend } from './etcdBackend.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';

// The conformance suite against the watch cache in front of etcd.
let etcd: EtcdCluster | undefined;
let pristine: Promise<EtcdCluster> | undefined;
before(async () => {
  etcd = await startEtcd();
});
after(async () => {
  await etcd?.close();
  await (await pristine)?.close();
});

runConformanceSuite(
  cachedBackend(
    etcdBackend(
      () => {
        if (!etcd) throw new Error('etcd not started');
        return etcd;
      },
      () => (pristine ??= startEtcd()),
    ),
  ),
);
