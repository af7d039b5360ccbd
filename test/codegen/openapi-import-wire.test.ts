// The typed clients generated from kube's OpenAPI talk to this server where its built-in kinds
// overlap Kubernetes' (Namespaces, ConfigMaps, Secrets, Services, Leases): create, get, list,
// update, patch, server-side apply with the imported apply configurations and extract<Kind>,
// watch, delete, and an informer of the `KubernetesInformerFactory` with its lister. The generated
// modules are loaded from a temp project (nothing is written into generated/), importing the
// framework by its package name as a user's project does.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { generateKubernetesClients } from '../../generator/openapi-import/index.js';
import type { ObjectMeta } from '../../apis/meta/v1/index.js';
import {
  type ApplyConfigurationBase,
  type Creater,
  type Deleter,
  type Getter,
  type HTTPRESTClient,
  type Lister,
  newSharedInformerFactoryCore,
  type Patcher,
  type RESTClient,
  restClientFromKubeconfig,
  type SharedInformerFactoryCore,
  type Updater,
  type Watcher,
} from '../../runtime/client/index.js';
import { describeBackends } from '../integration/harness.js';
import { clientProject, type ClientProject } from './openapi-import-project.js';

/** What the test reads of the objects: the generated types are checked by tsc in openapi-import-compile.test.ts. */
interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}
interface ApplyObj extends ApplyConfigurationBase {
  readonly [field: string]: unknown;
}
type Client = Creater<Obj> & Getter<Obj> & Lister<Obj> & Updater<Obj> & Patcher<Obj, ApplyObj> & Deleter & Watcher<Obj>;
interface Generated {
  Kubernetes: new (rest: RESTClient) => {
    coreV1(): { namespaces(): Client; configmaps(ns: string): Client; secrets(ns: string): Client; services(ns: string): Client };
    coordinationV1(): { leases(ns: string): Client };
  };
  KubernetesInformerFactory: new (
    clients: unknown,
    base: SharedInformerFactoryCore,
  ) => {
    core(): { v1(): { configmaps(): { lister(): { namespace(ns: string): { get(name: string): Obj } }; informer(): { hasSynced(): boolean } } } };
    start(): void;
    waitForCacheSync(): Promise<ReadonlyMap<string, boolean>>;
    shutdown(): Promise<void>;
  };
}
interface GeneratedApply {
  extractConfigMap(obj: Obj, fieldManager: string): Obj & { data?: Record<string, string> };
}

const NS = 'kube-clients';
let project: ClientProject;
let generated: Generated;
let apply: GeneratedApply;

before(async () => {
  project = clientProject(generateKubernetesClients());
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(project.root, path)).href)) as T;
  generated = await load<Generated>('generated/kubernetes/index.ts');
  apply = await load<GeneratedApply>('generated/kubernetes/applyconfigurations/core/v1/index.ts');
});
after(() => project.dispose());

describeBackends('clients of Kubernetes groups against the built-in kinds', (get) => {
  let rest: HTTPRESTClient;
  let kube: InstanceType<Generated['Kubernetes']>;
  before(async () => {
    rest = restClientFromKubeconfig({ path: get().kubeconfigPath }).rest;
    kube = new generated.Kubernetes(rest);
    await kube
      .coreV1()
      .namespaces()
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  after(() => rest.close());

  it('namespaces: get, list', async () => {
    const ns = await kube.coreV1().namespaces().get(NS);
    assert.equal(ns.metadata?.name, NS);
    assert.deepEqual((ns['status'] as { phase?: string }).phase, 'Active');
    const list = await kube.coreV1().namespaces().list();
    assert.ok(list.items.some((n) => n.metadata?.name === NS));
  });

  it('configmaps: create, update, merge patch, apply and extract, watch, delete', async () => {
    const cms = kube.coreV1().configmaps(NS);
    const created = await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }, { fieldManager: 'creator' });
    assert.equal(created.metadata?.namespace, NS);
    const updated = await cms.update({ ...created, data: { a: '2' } });
    assert.notEqual(updated.metadata?.resourceVersion, created.metadata?.resourceVersion);
    const patched = await cms.patch('cm', 'application/merge-patch+json', { data: { b: '3' } });
    assert.deepEqual(patched['data'], { a: '2', b: '3' });
    const applied = await cms.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { c: '4' } }, { fieldManager: 'applier' });
    assert.deepEqual(applied['data'], { a: '2', b: '3', c: '4' });
    const mine = apply.extractConfigMap(applied, 'applier');
    assert.deepEqual(mine, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: NS }, data: { c: '4' } });
    // By name: the root-CA publisher writes kube-root-ca.crt into the new namespace meanwhile.
    const watch = await cms.watch({ resourceVersion: applied.metadata?.resourceVersion ?? '', fieldSelector: 'metadata.name=cm' });
    try {
      await cms.delete('cm');
      for await (const event of watch) {
        assert.equal(event.type, 'DELETED');
        assert.equal((event.object as Obj).metadata?.name, 'cm');
        break;
      }
    } finally {
      watch.stop();
    }
  });

  it('secrets: stringData is written into data', async () => {
    const created = await kube
      .coreV1()
      .secrets(NS)
      .create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { password: 'hunter2' } });
    assert.deepEqual(created['data'], { password: Buffer.from('hunter2').toString('base64') });
    assert.equal(created['type'], 'Opaque');
  });

  it('services: a ClusterIP is allocated', async () => {
    const svc = await kube
      .coreV1()
      .services(NS)
      .create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80, targetPort: 'http' }] } });
    const spec = svc['spec'] as { clusterIP?: string; type?: string; ports?: { protocol?: string; targetPort?: unknown }[] };
    assert.match(spec.clusterIP ?? '', /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(spec.type, 'ClusterIP');
    assert.deepEqual(spec.ports?.[0]?.targetPort, 'http');
  });

  it('leases: create and renew', async () => {
    const leases = kube.coordinationV1().leases(NS);
    const lease = await leases.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'lock' },
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2026-11-26T08:00:00.000000Z' },
    });
    const renewed = await leases.update({ ...lease, spec: { ...(lease['spec'] as object), renewTime: '2026-11-26T08:00:10.000000Z' } });
    assert.equal((renewed['spec'] as { renewTime?: string }).renewTime, '2026-11-26T08:00:10.000000Z');
  });

  it('an informer of the KubernetesInformerFactory fills its lister', async () => {
    await kube
      .coreV1()
      .configmaps(NS)
      .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seen' }, data: { x: 'y' } });
    const factory = new generated.KubernetesInformerFactory(kube, newSharedInformerFactoryCore());
    const configmaps = factory.core().v1().configmaps();
    factory.start();
    try {
      await factory.waitForCacheSync();
      assert.deepEqual(configmaps.lister().namespace(NS).get('seen')['data'], { x: 'y' });
    } finally {
      await factory.shutdown();
    }
  });
});
