import { after, before } from 'node:test';
import { runConformanceSuite } from '../../runtime/storage/testing/suite.js';
import { etcdBackend } from './etcdBackend.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';

// The Kubernetes storage conformance suite against a real etcd started for this file.
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
  etcdBackend(
    () => {
      if (!etcd) throw new Error('etcd not started');
      return etcd;
    },
    () => (pristine ??= startEtcd()),
  ),
);
