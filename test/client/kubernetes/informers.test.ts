// Informers and listers of the KubernetesInformerFactory over the replay server: the reflector's
// list and watch requests are client-go's (tools/cache reflector: `limit=500&resourceVersion=0`,
// then `allowWatchBookmarks=true&resourceVersion=<list's>&timeoutSeconds=…&watch=true`), the
// store holds the recorded objects exactly, and later writes reach handlers and listers.
// Ports the shape of client-go's informers tests (informers/factory_test.go, cache's
// TestSharedInformerWatchDisruption's list-then-watch sequence) on recorded kube objects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubernetesInformerFactory } from '../../../generated/kubernetes/index.js';
import { labels, newSharedInformerFactoryCore } from '../../../runtime/client/index.js';
import { recordedObjects } from './recorded.js';
import { replayKubernetes } from './typed-clients.js';

const NS = 'namespaceValue';
const replay = replayKubernetes();

function recorded(file: string) {
  return recordedObjects().find((o) => o.file === file)!.object;
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('KubernetesInformerFactory over recorded objects', () => {
  it('lists and watches as client-go’s reflector and fills the listers with the recorded objects', async () => {
    const factory = new KubernetesInformerFactory(replay.k8s, newSharedInformerFactoryCore());
    const deployments = factory.apps().v1().deployments();
    const pods = factory.core().v1().pods();
    const classes = factory.storage().v1().storageclasses();
    factory.start();
    try {
      await factory.waitForCacheSync();
      assert.deepEqual(deployments.lister().namespace(NS).get('nameValue'), recorded('apps.v1.Deployment.json'));
      assert.deepEqual(pods.lister().list(labels.parse('labelsKey=labelsValue')), [recorded('core.v1.Pod.json')]);
      // kube's fuzzer gave the cluster-scoped StorageClass a metadata.namespace too, so its store key
      // is `namespaceValue/nameValue` (client-go's MetaNamespaceKeyFunc keys it the same way) and
      // get('nameValue') would miss it, as in client-go: the lister's list shows it whole.
      assert.deepEqual(classes.lister().list(), [recorded('storage.k8s.io.v1.StorageClass.json')]);

      const lists = replay.server.requests.filter((r) => r.path === '/apis/apps/v1/deployments' && !r.query.has('watch'));
      assert.deepEqual(Object.fromEntries(lists[0]!.query), { limit: '500', resourceVersion: '0' });
      await eventually(() => replay.server.requests.some((r) => r.path === '/apis/apps/v1/deployments' && r.query.get('watch') === 'true'), 'the watch');
      const watch = replay.server.requests.find((r) => r.path === '/apis/apps/v1/deployments' && r.query.get('watch') === 'true')!;
      assert.equal(watch.query.get('allowWatchBookmarks'), 'true');
      assert.match(watch.query.get('resourceVersion') ?? '', /^\d+$/);
      assert.match(watch.query.get('timeoutSeconds') ?? '', /^\d+$/);
    } finally {
      await factory.shutdown();
    }
  });

  it('a write after the sync reaches the handlers and the lister', async () => {
    const factory = new KubernetesInformerFactory(replay.k8s, newSharedInformerFactoryCore());
    const jobs = factory.batch().v1().jobs();
    const seen: string[] = [];
    jobs.informer().addEventHandler({
      onAdd: (o) => {
        seen.push(`add ${o.metadata?.name}`);
      },
      onUpdate: (_old, o) => {
        seen.push(`update ${o.metadata?.name}`);
      },
      onDelete: (o) => {
        seen.push(`delete ${(o as { metadata?: { name?: string } }).metadata?.name}`);
      },
    });
    factory.start();
    try {
      await factory.waitForCacheSync();
      const client = replay.k8s.batchV1().jobs(NS);
      await client.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'backup' }, spec: { template: { spec: { containers: [{ name: 'b', image: 'busybox' }] } } } });
      await eventually(() => jobs.lister().namespace(NS).list().length === 2, 'the created Job in the lister');
      await client.delete('backup');
      await eventually(() => seen.includes('delete backup'), 'the delete event');
      assert.deepEqual(seen, ['add nameValue', 'add backup', 'delete backup']);
      assert.deepEqual(jobs.lister().namespace(NS).get('nameValue'), recorded('batch.v1.Job.json'));
    } finally {
      await factory.shutdown();
    }
  });

  it('a watch from a compacted resourceVersion (410 Expired) makes the reflector relist from its last resourceVersion, as client-go’s', async () => {
    const factory = new KubernetesInformerFactory(replay.k8s, newSharedInformerFactoryCore({ tuning: { minWatchTimeoutMs: 1000, random: () => 0 } }));
    const leases = factory.coordination().v1().leases();
    factory.start();
    try {
      await factory.waitForCacheSync();
      const path = '/apis/coordination.k8s.io/v1/leases';
      await eventually(() => replay.server.requests.some((r) => r.path === path && r.query.get('watch') === 'true'), 'the first watch');
      const firstWatch = replay.server.requests.filter((r) => r.path === path && r.query.get('watch') === 'true').at(-1)!;
      // A write elsewhere moves the revision on; compacting it makes the leases watch's resourceVersion too old.
      await replay.k8s
        .coreV1()
        .configmaps(NS)
        .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere' } });
      replay.server.store.compact();
      const before = replay.server.requests.length;
      await eventually(() => replay.server.requests.slice(before).some((r) => r.path === path && !r.query.has('watch')), 'the relist');
      const relist = replay.server.requests.slice(before).find((r) => r.path === path && !r.query.has('watch'))!;
      const rewatch = replay.server.requests.slice(before).find((r) => r.path === path && r.query.get('watch') === 'true')!;
      assert.equal(rewatch.query.get('resourceVersion'), firstWatch.query.get('resourceVersion'), 'the watch resumed where it was, and got 410');
      // client-go's reflector on an expired watch: LIST at the last resourceVersion it saw (at least as fresh), without limit.
      assert.deepEqual(Object.fromEntries(relist.query), { resourceVersion: firstWatch.query.get('resourceVersion') });
      assert.deepEqual(leases.lister().namespace(NS).get('nameValue'), recorded('coordination.k8s.io.v1.Lease.json'));
    } finally {
      await factory.shutdown();
    }
  });
});
