// The fake of the Kubernetes clientset (generated/kubernetes/clientset/fake, client-go's
// kubernetes/fake) in a controller-style test: objects created through the fake reach listers of
// the KubernetesInformerFactory, and apply merges as kube-apiserver does (the same field manager
// as the project's fake and the server: list-map merges by key, ownership, conflicts worded as
// kube's, extract<Kind> of what a manager applied), strategic merge patch follows the published
// patch strategies, and actions are recorded as client-go's fake records them.
// Ports client-go's fake clientset use in controller tests (e.g. deployment controller's
// fixture: NewSimpleClientset, informers over it, actions checked) on Kubernetes' kinds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractDeployment, type DeploymentApplyConfiguration } from '../../../generated/kubernetes/applyconfigurations/apps/v1/index.js';
import { newFakeClientset, newSimpleClientset } from '../../../generated/kubernetes/clientset/fake/index.js';
import { KubernetesInformerFactory } from '../../../generated/kubernetes/index.js';
import type { Deployment } from '../../../generated/kubernetes/types/apps/v1.js';
import type { ConfigMap } from '../../../generated/kubernetes/types/core/v1.js';
import { isConflict, newSharedInformerFactoryCore } from '../../../runtime/client/index.js';
import { recordedObjects } from './recorded.js';

const NS = 'default';
const NOW = new Date('2026-11-26T04:00:00.500Z');

function deployment(name: string): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  };
}

function applied(spec: DeploymentApplyConfiguration['spec']): DeploymentApplyConfiguration {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: NS }, spec };
}

describe('the fake Kubernetes clientset', () => {
  it('serves every kind of the clientset, starting with kube’s recorded objects', async () => {
    const objects = recordedObjects().map((o) => structuredClone(o.object));
    const fake = newSimpleClientset(...objects);
    const recordedDeployment = recordedObjects().find((o) => o.file === 'apps.v1.Deployment.json')!.object;
    // The tracker stores an added object at a resourceVersion of its own; everything else is kube's.
    const got = await fake.appsV1().deployments('namespaceValue').get('nameValue');
    assert.match(got.metadata?.resourceVersion ?? '', /^\d+$/);
    assert.deepEqual({ ...got, metadata: { ...got.metadata, resourceVersion: 'resourceVersionValue' } }, recordedDeployment);
    assert.equal((await fake.autoscalingV2().horizontalpodautoscalers('namespaceValue').list()).items.length, 1);
    assert.equal((await fake.storageV1().storageclasses().list()).items.length, 1);
  });

  it('a controller creates a Deployment and reads it back through a lister over the fake', async () => {
    const fake = newFakeClientset({ now: () => NOW }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: NS }, data: { replicas: '2' } } satisfies ConfigMap);
    const factory = new KubernetesInformerFactory(fake, newSharedInformerFactoryCore());
    const deployments = factory.apps().v1().deployments();
    const configmaps = factory.core().v1().configmaps();
    factory.start();
    try {
      await factory.waitForCacheSync();
      // The reconcile: read the desired replicas from the ConfigMap's lister, create the Deployment.
      const replicas = Number(configmaps.lister().namespace(NS).get('settings').data?.['replicas']);
      await fake
        .appsV1()
        .deployments(NS)
        .create({ ...deployment('web'), spec: { ...deployment('web').spec!, replicas } }, { fieldManager: 'ctrl' });
      const deadline = Date.now() + 20_000;
      while (deployments.lister().namespace(NS).list().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const cached = deployments.lister().namespace(NS).get('web');
      assert.equal(cached.spec?.replicas, 2);
      assert.deepEqual(
        cached.metadata?.managedFields?.map((e) => [e.manager, e.operation]),
        [['ctrl', 'Update']],
      );
      const verbs = fake.fake.actions().map((a) => `${a.verb} ${a.resource.resource}`);
      assert.ok(verbs.includes('create deployments'), verbs.join(', '));
      assert.ok(verbs.includes('list deployments') && verbs.includes('watch deployments'), verbs.join(', '));
    } finally {
      await factory.shutdown();
    }
  });

  it('apply merges containers by name, records ownership, and a second manager’s change conflicts as on kube', async () => {
    const fake = newFakeClientset({ now: () => NOW });
    const client = fake.appsV1().deployments(NS);
    await client.apply(
      applied({ replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } }),
      { fieldManager: 'ctrl' },
    );
    const merged = await client.apply(applied({ template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } } }), { fieldManager: 'mesh' });
    assert.deepEqual(
      merged.spec?.template.spec?.containers.map((c) => c.name),
      ['web', 'sidecar'],
    );
    assert.deepEqual(extractDeployment(merged, 'mesh'), applied({ template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } } }));
    await assert.rejects(client.apply(applied({ replicas: 5 }), { fieldManager: 'mesh' }), (e: unknown) => {
      assert.ok(isConflict(e));
      assert.equal((e as Error).message, 'Apply failed with 1 conflict: conflict with "ctrl": .spec.replicas');
      return true;
    });
    const forced = await client.apply(applied({ replicas: 5 }), { fieldManager: 'mesh', force: true });
    assert.equal(forced.spec?.replicas, 5);
  });

  it('a strategic merge patch merges containers by name, as the published patch strategy says', async () => {
    const fake = newSimpleClientset(deployment('web'));
    const patched = await fake
      .appsV1()
      .deployments(NS)
      .patch('web', 'application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'log', image: 'busybox' }] } } } });
    assert.deepEqual(
      patched.spec?.template.spec?.containers.map((c) => [c.name, c.image]),
      [
        ['web', 'nginx:1.27'],
        ['log', 'busybox'],
      ],
    );
  });
});
