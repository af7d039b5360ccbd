// Acceptance (issue 6): CronTabs through the typed client generated from apis/crds/ by
// `hack/update-codegen --crd` (generated/clientset/stable, listers, informers), over the HTTP
// REST client of the kubeconfig the control plane command wrote (SQLite and etcd): the CRD
// created with the generated apiextensions client, every verb of the CronTab client, the
// errors it throws, and a generated shared informer with its lister following CronTabs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { parse } from 'yaml';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import type { CronTab } from '../../generated/types/stable/v1.js';
import { isAlreadyExists, isInvalid, isNotFound, isStatusError } from '../../runtime/apimachinery/errors/index.js';
import { type HTTPRESTClient, isDeletedFinalStateUnknown, newSharedInformerFactoryCore, restClientFromKubeconfig } from '../../runtime/client/index.js';
import { eventually } from '../integration/assertions.js';
import { describeBackends, repoRoot } from '../integration/harness.js';

const CRD = parse(readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8')) as CustomResourceDefinition;
const NS = 'crontabs-typed';

function cronTab(name: string, replicas = 1, labels: Record<string, string> = {}): CronTab {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, namespace: NS, labels }, spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas } };
}

/** The error a promise rejects with (fails when it resolves). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected the request to fail');
}

describeBackends('CronTabs through the generated typed client', (get) => {
  let rest: HTTPRESTClient;
  let cs: Clientset;

  before(async () => {
    rest = restClientFromKubeconfig({ path: get().kubeconfigPath }).rest;
    cs = new Clientset(rest);
    const crds = cs.apiextensionsV1().customresourcedefinitions();
    await crds.create(CRD);
    await eventually('CRD Established', async () => {
      const crd = await crds.get('crontabs.stable.example.com');
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
    });
    await cs
      .coreV1()
      .namespaces()
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  after(() => rest.close());

  it('create, get, list, update, merge and JSON patches, status, scale, delete, deleteCollection', async () => {
    const tabs = cs.stableV1().crontabs(NS);
    const created = await tabs.create(cronTab('typed', 1, { app: 'typed' }));
    assert.equal(created.metadata?.generation, 1);
    assert.deepEqual(await tabs.get('typed'), created);
    const list = await tabs.list({ labelSelector: 'app=typed' });
    assert.deepEqual(
      list.items.map((i) => i.metadata?.name),
      ['typed'],
    );
    assert.match(list.metadata?.resourceVersion ?? '', /^\d+$/);

    const updated = await tabs.update({ ...created, spec: { ...created.spec, image: 'updated' } });
    assert.equal(updated.spec?.image, 'updated');
    assert.equal(updated.metadata?.generation, 2);
    const merged = await tabs.patch('typed', 'application/merge-patch+json', { spec: { replicas: 3 } });
    assert.equal(merged.spec?.replicas, 3);
    const jsonPatched = await tabs.patch('typed', 'application/json-patch+json', [{ op: 'replace', path: '/spec/cronSpec', value: '0 * * * *' }]);
    assert.deepEqual(jsonPatched.spec, { cronSpec: '0 * * * *', image: 'updated', replicas: 3 });

    const withStatus = await tabs.updateStatus({ ...jsonPatched, status: { replicas: 2, labelSelector: 'app=typed' } });
    assert.deepEqual(withStatus.status, { replicas: 2, labelSelector: 'app=typed' });
    assert.equal(withStatus.metadata?.generation, 4, 'status writes keep the generation');
    const statusPatched = await tabs.patchStatus('typed', 'application/merge-patch+json', { status: { replicas: 3 } });
    assert.deepEqual(statusPatched.status, { replicas: 3, labelSelector: 'app=typed' });

    const scale = await tabs.getScale('typed');
    assert.deepEqual([scale.apiVersion, scale.kind, scale.spec, scale.status], ['autoscaling/v1', 'Scale', { replicas: 3 }, { replicas: 3, selector: 'app=typed' }]);
    const scaled = await tabs.updateScale('typed', { ...scale, spec: { replicas: 6 } });
    assert.deepEqual(scaled.spec, { replicas: 6 });
    assert.equal((await tabs.get('typed')).spec?.replicas, 6);

    await tabs.delete('typed');
    assert.ok(isNotFound(await rejection(tabs.get('typed'))));
    for (const name of ['bulk-a', 'bulk-b']) await tabs.create(cronTab(name, 1, { batch: 'bulk' }));
    await tabs.create(cronTab('kept'));
    await tabs.deleteCollection({}, { labelSelector: 'batch=bulk' });
    assert.deepEqual(
      (await tabs.list()).items.map((i) => i.metadata?.name),
      ['kept'],
    );
  });

  it("errors are StatusErrors carrying kube's Status", async () => {
    const tabs = cs.stableV1().crontabs(NS);
    const invalid = await rejection(tabs.create(cronTab('bad', 0)));
    assert.ok(isInvalid(invalid) && isStatusError(invalid));
    assert.equal(invalid.status.message, 'CronTab.stable.example.com "bad" is invalid: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1');
    assert.deepEqual(
      invalid.causes.map((c) => c.field),
      ['spec.replicas'],
    );
    await tabs.create(cronTab('once'));
    const dup = await rejection(tabs.create(cronTab('once')));
    assert.ok(isAlreadyExists(dup));
    const strategic = await rejection(tabs.patch('once', 'application/strategic-merge-patch+json', { spec: { replicas: 2 } }));
    assert.ok(isStatusError(strategic));
    assert.equal(strategic.code, 415);
    assert.equal(
      strategic.status.message,
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
    const stale = await rejection(tabs.update({ ...cronTab('once'), metadata: { name: 'once', namespace: NS, resourceVersion: '1' } }));
    assert.ok(isStatusError(stale));
    assert.equal(stale.code, 409);
    assert.equal(
      stale.status.message,
      'Operation cannot be fulfilled on crontabs.stable.example.com "once": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('the generated shared informer and lister follow CronTabs: initial sync, add, update, delete', async () => {
    const tabs = cs.stableV1().crontabs(NS);
    await tabs.deleteCollection();
    for (let i = 0; i < 5; i++) await tabs.create(cronTab(`pre-${i}`));

    const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore({ namespace: NS }));
    const informer = factory.stable().v1().crontabs();
    assert.equal(informer.informer(), factory.stable().v1().crontabs().informer(), 'one shared informer');
    const watchErrors: unknown[] = [];
    informer.informer().setWatchErrorHandler((_name, err) => watchErrors.push(err));
    const events: string[] = [];
    informer.informer().addEventHandler({
      onAdd: (o, initial) => {
        events.push(`add ${o.metadata?.name}${initial ? ' initial' : ''}`);
      },
      onUpdate: (_old, o) => {
        events.push(`update ${o.metadata?.name} ${o.spec?.replicas}`);
      },
      onDelete: (o) => {
        events.push(`delete ${isDeletedFinalStateUnknown(o) ? o.key : o.metadata?.name}`);
      },
    });
    factory.start();
    try {
      const synced = await factory.waitForCacheSync(AbortSignal.timeout(30_000));
      assert.deepEqual(synced, new Map([['crontabs.v1.stable.example.com', true]]));
      await eventually('initial adds handled', async () => events.length === 5);
      assert.deepEqual([...events].sort(), ['add pre-0 initial', 'add pre-1 initial', 'add pre-2 initial', 'add pre-3 initial', 'add pre-4 initial']);

      await tabs.create(cronTab('live'));
      await tabs.patch('live', 'application/merge-patch+json', { spec: { replicas: 7 } });
      await tabs.delete('pre-0');
      await eventually('three watch events', async () => events.length === 8);
      assert.deepEqual(events.slice(5), ['add live', 'update live 7', 'delete pre-0']);

      const lister = informer.lister();
      assert.equal(lister.namespace(NS).get('live').spec?.replicas, 7);
      const server = await tabs.list();
      const key = (o: { metadata?: { name?: string; resourceVersion?: string } }): string => `${o.metadata?.name}@${o.metadata?.resourceVersion}`;
      assert.deepEqual(lister.namespace(NS).list().map(key).sort(), server.items.map(key).sort());
      assert.deepEqual(watchErrors, []);
    } finally {
      await factory.shutdown();
    }
    assert.equal(informer.informer().isStopped(), true);
  });
});
