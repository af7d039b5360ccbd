// Acceptance (issue 6): CronTabs through @kubernetes/client-node 1.x against the control plane
// command on SQLite and etcd, with nothing but the kubeconfig the server wrote: the CRD of
// apis/crds/ created with ApiextensionsV1Api, CustomObjectsApi CRUD (JSON and merge patches,
// status and scale subresources, the errors a client sees), and an informer following CronTabs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, it } from 'node:test';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  makeInformer,
  setHeaderOptions,
  type KubernetesListObject,
  type KubernetesObject,
  type V1CustomResourceDefinition,
  type V1Status,
} from '@kubernetes/client-node';
import { statusOf } from '../integration/client-node-status.js';
import { parse } from 'yaml';
import { eventually } from '../integration/assertions.js';
import { describeBackends, repoRoot } from '../integration/harness.js';

type CronTab = KubernetesObject & {
  spec?: { cronSpec?: string; image?: string; replicas?: number };
  status?: { replicas?: number; labelSelector?: string };
};
interface Scale {
  apiVersion?: string;
  kind?: string;
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

const CRD = parse(readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8')) as V1CustomResourceDefinition;
const crontabs = { group: 'stable.example.com', version: 'v1', plural: 'crontabs' };
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

function cronTab(name: string, replicas = 1): CronTab {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas } };
}

describeBackends('CronTabs through @kubernetes/client-node', (cp) => {
  let kc: KubeConfig;
  let custom: CustomObjectsApi;
  const ns = 'crontabs-client-node';

  before(async () => {
    kc = new KubeConfig();
    kc.loadFromFile(cp().kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({ body: CRD });
    await eventually('CRD Established', async () => {
      const crd = await ext.readCustomResourceDefinition({ name: 'crontabs.stable.example.com' });
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
    });
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: ns } } });
  });

  it('CustomObjectsApi: create, get, list, replace, JSON and merge patches, delete', async () => {
    const created = (await custom.createNamespacedCustomObject({ ...crontabs, namespace: ns, body: cronTab('crud') })) as CronTab;
    assert.equal(created.metadata?.namespace, ns);
    assert.equal(created.metadata?.generation, 1);
    const got = (await custom.getNamespacedCustomObject({ ...crontabs, namespace: ns, name: 'crud' })) as CronTab;
    assert.deepEqual(got, created);
    const list = (await custom.listNamespacedCustomObject({ ...crontabs, namespace: ns })) as KubernetesListObject<CronTab>;
    assert.equal(list.kind, 'CronTabList');
    assert.equal(list.apiVersion, 'stable.example.com/v1');
    assert.deepEqual(
      list.items.map((i) => i.metadata?.name),
      ['crud'],
    );
    const everywhere = (await custom.listClusterCustomObject(crontabs)) as KubernetesListObject<CronTab>;
    assert.ok(everywhere.items.some((i) => i.metadata?.uid === created.metadata?.uid));

    const replaced = (await custom.replaceNamespacedCustomObject({ ...crontabs, namespace: ns, name: 'crud', body: { ...got, spec: { ...got.spec, image: 'replaced' } } })) as CronTab;
    assert.equal(replaced.spec?.image, 'replaced');
    assert.equal(replaced.metadata?.generation, 2);
    // CustomObjectsApi sends JSON patches unless told otherwise.
    const jsonPatched = (await custom.patchNamespacedCustomObject({ ...crontabs, namespace: ns, name: 'crud', body: [{ op: 'replace', path: '/spec/replicas', value: 4 }] })) as CronTab;
    assert.equal(jsonPatched.spec?.replicas, 4);
    const merged = (await custom.patchNamespacedCustomObject(
      { ...crontabs, namespace: ns, name: 'crud', body: { metadata: { labels: { app: 'cron' } }, spec: { image: 'merged' } } },
      merge,
    )) as CronTab;
    assert.deepEqual(merged.metadata?.labels, { app: 'cron' });
    assert.deepEqual(merged.spec, { cronSpec: '* * * * */5', image: 'merged', replicas: 4 });
    const selected = (await custom.listNamespacedCustomObject({ ...crontabs, namespace: ns, labelSelector: 'app=cron' })) as KubernetesListObject<CronTab>;
    assert.deepEqual(
      selected.items.map((i) => i.metadata?.name),
      ['crud'],
    );

    const deleted = (await custom.deleteNamespacedCustomObject({ ...crontabs, namespace: ns, name: 'crud' })) as V1Status & { kind?: string };
    assert.equal(deleted.kind, 'Status');
    assert.equal(deleted.status, 'Success');
    assert.deepEqual(deleted.details, { name: 'crud', group: 'stable.example.com', kind: 'crontabs', uid: created.metadata?.uid });
    assert.equal((await statusOf(custom.getNamespacedCustomObject({ ...crontabs, namespace: ns, name: 'crud' }))).code, 404);
  });

  it('status and scale subresources', async () => {
    await custom.createNamespacedCustomObject({ ...crontabs, namespace: ns, body: cronTab('sub', 2) });
    const status = (await custom.patchNamespacedCustomObjectStatus(
      { ...crontabs, namespace: ns, name: 'sub', body: { spec: { image: 'ignored' }, status: { replicas: 1, labelSelector: 'app=sub' } } },
      merge,
    )) as CronTab;
    assert.deepEqual(status.status, { replicas: 1, labelSelector: 'app=sub' });
    assert.equal(status.spec?.image, 'my-awesome-cron-image');
    assert.equal(status.metadata?.generation, 1);
    const scale = (await custom.getNamespacedCustomObjectScale({ ...crontabs, namespace: ns, name: 'sub' })) as Scale;
    assert.deepEqual([scale.apiVersion, scale.kind, scale.spec, scale.status], ['autoscaling/v1', 'Scale', { replicas: 2 }, { replicas: 1, selector: 'app=sub' }]);
    const scaled = (await custom.patchNamespacedCustomObjectScale({ ...crontabs, namespace: ns, name: 'sub', body: { spec: { replicas: 5 } } }, merge)) as Scale;
    assert.deepEqual(scaled.spec, { replicas: 5 });
    const after = (await custom.getNamespacedCustomObject({ ...crontabs, namespace: ns, name: 'sub' })) as CronTab;
    assert.equal(after.spec?.replicas, 5);
    assert.equal(after.metadata?.generation, 2);
  });

  it('errors decode as V1Status: 422 with the field path, 415 for a strategic merge patch, 409, 404', async () => {
    const invalid = await statusOf(custom.createNamespacedCustomObject({ ...crontabs, namespace: ns, body: cronTab('bad', 11) }));
    assert.equal(invalid.code, 422);
    assert.equal(invalid.status.reason, 'Invalid');
    assert.equal(invalid.status.message, 'CronTab.stable.example.com "bad" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10');
    assert.deepEqual(invalid.status.details, {
      name: 'bad',
      group: 'stable.example.com',
      kind: 'CronTab',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 11: spec.replicas in body should be less than or equal to 10', field: 'spec.replicas' }],
    });
    await custom.createNamespacedCustomObject({ ...crontabs, namespace: ns, body: cronTab('twice') });
    const dup = await statusOf(custom.createNamespacedCustomObject({ ...crontabs, namespace: ns, body: cronTab('twice') }));
    assert.equal(dup.code, 409);
    assert.equal(dup.status.message, 'crontabs.stable.example.com "twice" already exists');
    const strategic = await statusOf(
      custom.patchNamespacedCustomObject({ ...crontabs, namespace: ns, name: 'twice', body: { spec: { replicas: 2 } } }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)),
    );
    assert.equal(strategic.code, 415);
    assert.equal(strategic.status.reason, 'UnsupportedMediaType');
    const missing = await statusOf(custom.getNamespacedCustomObject({ ...crontabs, namespace: ns, name: 'absent' }));
    assert.equal(missing.code, 404);
    assert.equal(missing.status.message, 'crontabs.stable.example.com "absent" not found');
  });

  it('an informer (makeInformer) syncs and sees CronTabs added, updated and deleted', async () => {
    const informNs = 'crontabs-informed';
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: informNs } } });
    await custom.createNamespacedCustomObject({ ...crontabs, namespace: informNs, body: cronTab('pre') });
    const path = `/apis/stable.example.com/v1/namespaces/${informNs}/crontabs`;
    const listFn = async (): Promise<KubernetesListObject<CronTab>> => (await custom.listNamespacedCustomObject({ ...crontabs, namespace: informNs })) as KubernetesListObject<CronTab>;
    const informer = makeInformer<CronTab>(kc, path, listFn);
    const events: string[] = [];
    informer.on('add', (o) => events.push(`add ${o.metadata?.name} ${o.spec?.replicas}`));
    informer.on('update', (o) => events.push(`update ${o.metadata?.name} ${o.spec?.replicas}`));
    informer.on('delete', (o) => events.push(`delete ${o.metadata?.name}`));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await eventually('initial sync', async () => informer.get('pre', informNs) !== undefined);
      await custom.createNamespacedCustomObject({ ...crontabs, namespace: informNs, body: cronTab('post') });
      await eventually('add seen', async () => informer.get('post', informNs) !== undefined);
      await custom.patchNamespacedCustomObject({ ...crontabs, namespace: informNs, name: 'post', body: { spec: { replicas: 3 } } }, merge);
      await eventually('update seen', async () => informer.get('post', informNs)?.spec?.replicas === 3);
      await custom.deleteNamespacedCustomObject({ ...crontabs, namespace: informNs, name: 'pre' });
      await eventually('delete seen', async () => informer.get('pre', informNs) === undefined);
      assert.deepEqual(
        informer.list(informNs).map((o) => o.metadata?.name),
        ['post'],
      );
      assert.deepEqual(events, ['add pre 1', 'add post 1', 'update post 3', 'delete pre']);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });
});
