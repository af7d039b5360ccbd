// Acceptance (issue 15): @kubernetes/client-node's server-side apply against the control plane
// command on SQLite and etcd. client-node 1.x offers it two ways: the generic
// KubernetesObjectApi.patch with PatchStrategy.ServerSideApply (what GitOps tools built on it use)
// and a typed patch call with the apply content type set through setHeaderOptions. Both send the
// object as JSON under `application/apply-patch+yaml`; the answers are kube's (objects with their
// managedFields, a 409 Status with one FieldManagerConflict cause per field). client-node decodes
// objects into its models (times as Dates, keys in the model's order), so entries are compared
// key-sorted here; sequence.test.ts checks the server's own bytes.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { CoreV1Api, KubeConfig, KubernetesObjectApi, PatchStrategy, setHeaderOptions, type KubernetesObject, type V1ConfigMap } from '@kubernetes/client-node';
import { statusOf as failure } from '../client-node-status.js';
import { describeBackends } from '../harness.js';
import { flunderV1beta1, uniqueName } from '../objects.js';
import { assertManagedFieldsSorted as assertManagedFields, entry, oneConflictMessage } from './managed.js';

function configMap(name: string, ns: string, data: Record<string, string>): V1ConfigMap & KubernetesObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data };
}

describeBackends('@kubernetes/client-node server-side apply', (cp) => {
  let objects: KubernetesObjectApi;
  let core: CoreV1Api;
  let ns: string;

  before(async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(cp().kubeconfigPath);
    objects = KubernetesObjectApi.makeApiClient(kc);
    core = kc.makeApiClient(CoreV1Api);
    ns = uniqueName('cn-ssa');
    await core.createNamespace({ body: { metadata: { name: ns } } });
  });

  const apply = <T extends KubernetesObject>(o: T, fieldManager: string, force = false): Promise<T> => objects.patch(o, undefined, undefined, fieldManager, force, PatchStrategy.ServerSideApply);

  it('KubernetesObjectApi.patch (ServerSideApply) creates, then updates, the object with its manager’s fields', async () => {
    const name = uniqueName('cm');
    const created = await apply(configMap(name, ns, { key: 'v1' }), 'cn-applier');
    assert.deepEqual(created.data, { key: 'v1' });
    assertManagedFields(created, [entry('cn-applier', 'Apply', 'v1', '{"f:data":{"f:key":{}}}')]);
    const updated = await apply(configMap(name, ns, { key: 'v2', more: 'm' }), 'cn-applier');
    assert.deepEqual(updated.data, { key: 'v2', more: 'm' });
    assert.notEqual(updated.metadata?.resourceVersion, created.metadata?.resourceVersion);
    assertManagedFields(updated, [entry('cn-applier', 'Apply', 'v1', '{"f:data":{"f:key":{},"f:more":{}}}')]);
  });

  it('another manager with a different value: 409 Conflict with kube’s causes; force takes the field', async () => {
    const name = uniqueName('cm');
    await apply(configMap(name, ns, { key: 'mine' }), 'cn-owner');
    const { code, status } = await failure(apply(configMap(name, ns, { key: 'theirs' }), 'cn-other'));
    assert.equal(code, 409);
    assert.equal(status.reason, 'Conflict');
    assert.equal(status.message, oneConflictMessage('"cn-owner"', '.data.key'));
    assert.deepEqual(status.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "cn-owner"', field: '.data.key' }]);
    const forced = await apply(configMap(name, ns, { key: 'theirs' }), 'cn-other', true);
    assert.deepEqual(forced.data, { key: 'theirs' });
    assertManagedFields(forced, [entry('cn-other', 'Apply', 'v1', '{"f:data":{"f:key":{}}}')]);
  });

  it('a typed call (CoreV1Api.patchNamespacedConfigMap) with the apply content type', async () => {
    const name = uniqueName('cm');
    const options = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
    const first = await core.patchNamespacedConfigMap({ name, namespace: ns, body: configMap(name, ns, { a: '1', b: '2' }), fieldManager: 'cn-typed' }, options);
    assert.deepEqual(first.data, { a: '1', b: '2' });
    // Dropping b from the applied configuration removes it: nobody else owns it.
    const second = await core.patchNamespacedConfigMap({ name, namespace: ns, body: configMap(name, ns, { a: '1' }), fieldManager: 'cn-typed' }, options);
    assert.deepEqual(second.data, { a: '1' });
    assertManagedFields(second, [entry('cn-typed', 'Apply', 'v1', '{"f:data":{"f:a":{}}}')]);
    const missing = await failure(core.patchNamespacedConfigMap({ name, namespace: ns, body: configMap(name, ns, { a: '1' }) }, options));
    assert.equal(missing.code, 422);
    assert.equal(missing.status.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  });

  it('a Flunder through the generic API: dry run stores nothing, then the apply is stored', async () => {
    const name = uniqueName('fl');
    const flunder = flunderV1beta1.manifest(name, ns) as KubernetesObject;
    const dry = await objects.patch(flunder, undefined, 'All', 'cn-flunder', false, PatchStrategy.ServerSideApply);
    assert.equal(dry.metadata?.name, name);
    const absent = await failure(objects.read({ apiVersion: flunderV1beta1.apiVersion, kind: 'Flunder', metadata: { name, namespace: ns } }));
    assert.equal(absent.code, 404);
    const stored = await apply(flunder, 'cn-flunder');
    assertManagedFields(stored, [entry('cn-flunder', 'Apply', flunderV1beta1.apiVersion, '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:flunderReference":{}}}')]);
  });
});
