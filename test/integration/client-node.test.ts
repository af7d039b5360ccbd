// Acceptance (issue 4): @kubernetes/client-node 1.x against the control plane command on
// SQLite and on etcd, trusting the CA and using the admin credentials of the kubeconfig the
// server wrote (KubeConfig.loadFromFile, nothing else configured).
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  ListWatch,
  PatchStrategy,
  Watch,
  makeInformer,
  setHeaderOptions,
  type KubernetesListObject,
  type KubernetesObject,
  type V1Status,
} from '@kubernetes/client-node';
import { statusOf } from './client-node-status.js';
import { eventually } from './assertions.js';
import { describeBackends } from './harness.js';
import { flunderV1beta1, uniqueName } from './objects.js';

type Flunder = KubernetesObject & { spec?: Record<string, unknown> };
const wardle = { group: 'wardle.example.com', version: 'v1beta1', plural: 'flunders' };

describeBackends('@kubernetes/client-node', (cp) => {
  let kc: KubeConfig;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;
  let ns: string;

  before(async () => {
    kc = new KubeConfig();
    kc.loadFromFile(cp().kubeconfigPath);
    core = kc.makeApiClient(CoreV1Api);
    custom = kc.makeApiClient(CustomObjectsApi);
    ns = uniqueName('cn');
    await core.createNamespace({ body: { metadata: { name: ns } } });
  });

  it('CoreV1Api: namespaces list, create, read, merge patch, delete', async () => {
    const list = await core.listNamespace();
    const names = list.items.map((n) => n.metadata?.name);
    for (const n of ['default', 'kube-system', 'kube-public']) assert.ok(names.includes(n), `${n} in ${names.join(',')}`);
    assert.match(list.metadata?.resourceVersion ?? '', /^\d+$/);
    const name = uniqueName('cn-ns');
    const created = await core.createNamespace({ body: { metadata: { name, labels: { a: '1' } } } });
    assert.equal(created.metadata?.name, name);
    assert.equal(created.status?.phase, 'Active');
    const read = await core.readNamespace({ name });
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    const patched = await core.patchNamespace({ name, body: { metadata: { labels: { b: '2' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    assert.equal(patched.metadata?.labels?.['a'], '1');
    assert.equal(patched.metadata?.labels?.['b'], '2');
    await core.deleteNamespace({ name });
    await eventually('namespace gone', async () =>
      core.readNamespace({ name }).then(
        () => false,
        (e: unknown) => e instanceof ApiException && e.code === 404,
      ),
    );
  });

  it('CustomObjectsApi: flunders create, get, list, merge patch, delete', async () => {
    const name = uniqueName('co');
    const created = (await custom.createNamespacedCustomObject({ ...wardle, namespace: ns, body: flunderV1beta1.manifest(name, ns) })) as Flunder;
    assert.equal(created.metadata?.name, name);
    assert.equal(created.spec?.['referenceType'], 'Flunder', 'defaulted');
    const got = (await custom.getNamespacedCustomObject({ ...wardle, namespace: ns, name })) as Flunder;
    assert.equal(got.metadata?.uid, created.metadata?.uid);
    const list = (await custom.listNamespacedCustomObject({ ...wardle, namespace: ns })) as KubernetesListObject<Flunder>;
    assert.equal(list.kind, 'FlunderList');
    assert.ok(list.items.some((i) => i.metadata?.name === name));
    const patched = (await custom.patchNamespacedCustomObject(
      { ...wardle, namespace: ns, name, body: { spec: { flunderReference: 'patched' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Flunder;
    assert.equal(patched.spec?.['flunderReference'], 'patched');
    assert.notEqual(patched.metadata?.resourceVersion, created.metadata?.resourceVersion);
    const deleted = (await custom.deleteNamespacedCustomObject({ ...wardle, namespace: ns, name })) as V1Status & { kind?: string };
    assert.equal(deleted.kind, 'Status');
    assert.equal(deleted.status, 'Success');
    assert.equal(deleted.details?.name, name);
  });

  it('errors decode as V1Status with code and reason', async () => {
    const nf = await statusOf(custom.getNamespacedCustomObject({ ...wardle, namespace: ns, name: 'absent' }));
    assert.equal(nf.code, 404);
    assert.deepEqual(
      { kind: nf.status.kind, code: nf.status.code, reason: nf.status.reason, message: nf.status.message, details: nf.status.details },
      { kind: 'Status', code: 404, reason: 'NotFound', message: 'flunders.wardle.example.com "absent" not found', details: { name: 'absent', group: 'wardle.example.com', kind: 'flunders' } },
    );
    const name = uniqueName('dup');
    await custom.createNamespacedCustomObject({ ...wardle, namespace: ns, body: flunderV1beta1.manifest(name, ns) });
    const dup = await statusOf(custom.createNamespacedCustomObject({ ...wardle, namespace: ns, body: flunderV1beta1.manifest(name, ns) }));
    assert.equal(dup.code, 409);
    assert.equal(dup.status.reason, 'AlreadyExists');
    const inv = await statusOf(custom.createNamespacedCustomObject({ ...wardle, namespace: ns, body: flunderV1beta1.manifest('Not_Valid', ns) }));
    assert.equal(inv.code, 422);
    assert.equal(inv.status.reason, 'Invalid');
    assert.equal(inv.status.details?.kind, 'Flunder');
    assert.equal(inv.status.details?.causes?.[0]?.field, 'metadata.name');
    assert.equal(inv.status.details?.causes?.[0]?.reason, 'FieldValueInvalid');
    const nsMissing = await statusOf(core.readNamespace({ name: 'absent-ns' }));
    assert.equal(nsMissing.status.message, 'namespaces "absent-ns" not found');
  });

  it('Watch receives ADDED, MODIFIED, DELETED', async () => {
    const path = `/apis/wardle.example.com/v1beta1/namespaces/${ns}/flunders`;
    const list = (await custom.listNamespacedCustomObject({ ...wardle, namespace: ns })) as KubernetesListObject<Flunder>;
    const seen: string[] = [];
    let done: unknown = 'open';
    const name = uniqueName('wt');
    const ctl = await new Watch(kc).watch(
      path,
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (type, obj: Flunder) => {
        if (obj.metadata?.name === name) seen.push(type);
      },
      (err) => {
        done = err ?? 'closed';
      },
    );
    try {
      await custom.createNamespacedCustomObject({ ...wardle, namespace: ns, body: flunderV1beta1.manifest(name, ns) });
      await custom.patchNamespacedCustomObject({ ...wardle, namespace: ns, name, body: { metadata: { labels: { w: '1' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      await custom.deleteNamespacedCustomObject({ ...wardle, namespace: ns, name });
      await eventually(`ADDED, MODIFIED, DELETED (seen ${seen.join(',')}, watch ${String(done)})`, async () => seen.length >= 3);
      assert.deepEqual(seen, ['ADDED', 'MODIFIED', 'DELETED']);
    } finally {
      ctl.abort();
    }
  });

  it('ListWatch informer syncs the cache and follows changes', async () => {
    const informNs = uniqueName('inf');
    await core.createNamespace({ body: { metadata: { name: informNs } } });
    const pre = uniqueName('pre');
    await custom.createNamespacedCustomObject({ ...wardle, namespace: informNs, body: flunderV1beta1.manifest(pre, informNs) });
    const path = `/apis/wardle.example.com/v1beta1/namespaces/${informNs}/flunders`;
    const listFn = async (): Promise<KubernetesListObject<Flunder>> => (await custom.listNamespacedCustomObject({ ...wardle, namespace: informNs })) as KubernetesListObject<Flunder>;
    const informer = makeInformer<Flunder>(kc, path, listFn);
    const events: string[] = [];
    informer.on('add', (o) => events.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => events.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => events.push(`delete ${o.metadata?.name}`));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await eventually('initial sync', async () => informer.get(pre, informNs) !== undefined);
      const name = uniqueName('post');
      await custom.createNamespacedCustomObject({ ...wardle, namespace: informNs, body: flunderV1beta1.manifest(name, informNs) });
      await eventually('add seen', async () => informer.get(name, informNs) !== undefined);
      await custom.patchNamespacedCustomObject({ ...wardle, namespace: informNs, name, body: { spec: { flunderReference: 'x' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      await eventually('update seen', async () => informer.get(name, informNs)?.spec?.['flunderReference'] === 'x');
      await custom.deleteNamespacedCustomObject({ ...wardle, namespace: informNs, name: pre });
      await eventually('delete seen', async () => informer.get(pre, informNs) === undefined);
      assert.deepEqual(
        informer.list(informNs).map((o) => o.metadata?.name),
        [name],
      );
      assert.ok(events.includes(`add ${pre}`) && events.includes(`add ${name}`) && events.includes(`update ${name}`) && events.includes(`delete ${pre}`), events.join('; '));
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
    // The ListWatch class itself, constructed directly, lists then watches.
    const lw = new ListWatch<Flunder>(path, new Watch(kc), listFn, false);
    await lw.start();
    try {
      await eventually('ListWatch synced', async () => lw.list(informNs).length === 1);
      assert.match(lw.latestResourceVersion(), /^\d+$/);
    } finally {
      await lw.stop();
    }
  });
});
