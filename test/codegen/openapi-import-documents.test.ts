import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { GroupModel, KindModel } from '../../generator/model/types.js';
import { documentsDir, importKubernetes, type KubernetesImport, loadDocuments, VENDORED_DOCUMENTS } from '../../generator/openapi-import/index.js';

// Kube's published OpenAPI v3 documents of the GA group versions a controller needs, vendored
// minified under generator/openapi-import/kube-1.32/: each is the recorded one, byte-exactly
// kube's when re-indented, and imports into the model with the kinds, scopes, verbs and
// subresources kube serves. (code-generator has no OpenAPI import to port a test from.)

const sha256 = (b: string | Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('vendored documents', () => {
  test('each is the recorded one, and re-indented gives back kube file byte for byte', () => {
    assert.equal(VENDORED_DOCUMENTS.length, 16);
    for (const d of VENDORED_DOCUMENTS) {
      const bytes = readFileSync(join(documentsDir(), d.path));
      assert.equal(sha256(bytes), d.sha256, d.path);
      const text = bytes.toString('utf8');
      assert.equal(JSON.stringify(JSON.parse(text)), text, `${d.path} is minified JSON`);
      assert.equal(sha256(`${JSON.stringify(JSON.parse(text), null, 2)}\n`), d.upstreamSha256, `${d.path} re-indented is kube's file`);
    }
  });

  test('only GA group versions, one document each', () => {
    for (const d of VENDORED_DOCUMENTS) assert.match(d.version, /^v\d+$/, d.path);
    assert.equal(new Set(VENDORED_DOCUMENTS.map((d) => `${d.group}/${d.version}`)).size, VENDORED_DOCUMENTS.length);
  });
});

describe('import of every vendored document', () => {
  let imported: KubernetesImport;
  const kinds = new Map<string, KindModel>();
  before(() => {
    imported = importKubernetes(loadDocuments());
    for (const g of imported.groups) for (const v of g.versions) for (const k of v.kinds) kinds.set(`${g.name === '' ? '' : `${g.name}/`}${v.name} ${k.kind}`, k);
  });
  const kind = (key: string): KindModel => {
    const k = kinds.get(key);
    assert.ok(k !== undefined, `no kind ${key}`);
    return k;
  };

  test('every group version yields the kinds kube 1.32 serves in it', () => {
    const byVersion = (g: GroupModel) => g.versions.map((v) => `${g.name === '' ? '' : `${g.name}/`}${v.name}: ${v.kinds.map((k) => k.kind).join(' ')}`);
    assert.deepEqual(imported.groups.flatMap(byVersion), [
      'v1: Binding ComponentStatus ConfigMap Endpoints Event LimitRange Namespace Node PersistentVolume PersistentVolumeClaim Pod PodTemplate ReplicationController ResourceQuota Secret Service ServiceAccount',
      'admissionregistration.k8s.io/v1: MutatingWebhookConfiguration ValidatingAdmissionPolicy ValidatingAdmissionPolicyBinding ValidatingWebhookConfiguration',
      'apps/v1: ControllerRevision DaemonSet Deployment ReplicaSet StatefulSet',
      'autoscaling/v2: HorizontalPodAutoscaler',
      'autoscaling/v1: HorizontalPodAutoscaler',
      'batch/v1: CronJob Job',
      'certificates.k8s.io/v1: CertificateSigningRequest',
      'coordination.k8s.io/v1: Lease',
      'discovery.k8s.io/v1: EndpointSlice',
      'events.k8s.io/v1: Event',
      'networking.k8s.io/v1: Ingress IngressClass NetworkPolicy',
      'node.k8s.io/v1: RuntimeClass',
      'policy/v1: PodDisruptionBudget',
      'rbac.authorization.k8s.io/v1: ClusterRole ClusterRoleBinding Role RoleBinding',
      'scheduling.k8s.io/v1: PriorityClass',
      'storage.k8s.io/v1: CSIDriver CSINode CSIStorageCapacity StorageClass VolumeAttachment',
    ]);
    assert.deepEqual(
      imported.groups.map((g) => g.clientName),
      ['core', 'admissionregistration', 'apps', 'autoscaling', 'batch', 'certificates', 'coordination', 'discovery', 'events', 'networking', 'node', 'policy', 'rbac', 'scheduling', 'storage'],
    );
    for (const g of imported.groups) assert.equal(g.origin, 'crd', `${g.name}: clients, listers and informers, no server code`);
  });

  test('resources, scope and list kinds come from the paths', () => {
    const pod = kind('v1 Pod');
    assert.deepEqual([pod.plural, pod.scope, pod.listKind, pod.definition], ['pods', 'Namespaced', 'PodList', 'io.k8s.api.core.v1.Pod']);
    const ns = kind('v1 Namespace');
    assert.equal(ns.scope, 'Cluster');
    // kube serves no deletecollection of namespaces.
    assert.deepEqual(ns.verbs, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual(kind('v1 Binding').verbs, ['create']);
    assert.deepEqual(kind('v1 ComponentStatus').verbs, ['get', 'list']);
    assert.equal(kind('storage.k8s.io/v1 StorageClass').scope, 'Cluster');
    assert.equal(kind('rbac.authorization.k8s.io/v1 Role').scope, 'Namespaced');
    assert.equal(kind('rbac.authorization.k8s.io/v1 ClusterRoleBinding').scope, 'Cluster');
    assert.equal(kind('scheduling.k8s.io/v1 PriorityClass').scope, 'Cluster');
    assert.equal(kind('node.k8s.io/v1 RuntimeClass').scope, 'Cluster');
    assert.equal(kind('certificates.k8s.io/v1 CertificateSigningRequest').scope, 'Cluster');
    assert.equal(kind('admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration').plural, 'validatingwebhookconfigurations');
    assert.equal(kind('networking.k8s.io/v1 Ingress').plural, 'ingresses');
    assert.equal(kind('discovery.k8s.io/v1 EndpointSlice').listKind, 'EndpointSliceList');
    for (const k of ['batch/v1 Job', 'batch/v1 CronJob', 'policy/v1 PodDisruptionBudget', 'coordination.k8s.io/v1 Lease', 'events.k8s.io/v1 Event', 'v1 Event']) {
      assert.deepEqual(kind(k).verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], k);
      assert.equal(kind(k).scope, 'Namespaced', k);
    }
    assert.ok(kind('autoscaling/v1 HorizontalPodAutoscaler') !== kind('autoscaling/v2 HorizontalPodAutoscaler'));
  });

  test('status and scale subresources; the rest is listed as not offered', () => {
    assert.equal(kind('v1 Pod').subresources.status, true);
    assert.equal(kind('v1 Pod').subresources.scale, undefined);
    assert.equal(kind('v1 ConfigMap').subresources.status, false);
    assert.equal(kind('coordination.k8s.io/v1 Lease').subresources.status, false);
    for (const k of ['apps/v1 Deployment', 'apps/v1 ReplicaSet', 'apps/v1 StatefulSet', 'v1 ReplicationController']) {
      assert.deepEqual(kind(k).subresources.scale, { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: undefined }, k);
    }
    assert.equal(kind('apps/v1 DaemonSet').subresources.scale, undefined);
    for (const s of [
      'v1 pods/eviction',
      'v1 pods/exec',
      'v1 pods/log',
      'v1 pods/binding',
      'v1 serviceaccounts/token',
      'v1 namespaces/finalize',
      'certificates.k8s.io/v1 certificatesigningrequests/approval',
    ]) {
      assert.ok(imported.notOffered.includes(s), s);
    }
  });

  test('kind schemas are structural: references expanded, list types and patch strategies kept, scalars as the generator types them', () => {
    const pod = kind('v1 Pod').schema;
    const spec = pod.properties!['spec']!;
    assert.equal(spec.$ref, undefined);
    const containers = spec.properties!['containers']! as Record<string, unknown> & { items: { properties: Record<string, Record<string, unknown>> } };
    assert.equal(containers['x-kubernetes-list-type'], 'map');
    assert.deepEqual(containers['x-kubernetes-list-map-keys'], ['name']);
    assert.equal(containers['x-kubernetes-patch-strategy'], 'merge');
    assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
    const port = containers.items.properties['livenessProbe']!['properties'] as Record<string, { properties: Record<string, Record<string, unknown>> }>;
    assert.deepEqual(port['httpGet']!.properties['port'], { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true });
    assert.deepEqual(pod.properties!['metadata'], { type: 'object' });
    const limits = containers.items.properties['resources']!['properties'] as Record<string, { additionalProperties: unknown }>;
    assert.deepEqual(limits['limits']!.additionalProperties, { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true });
    assert.equal(JSON.stringify(pod).includes('"description"'), false, 'descriptions stay with the named types');
  });

  test('definitions are shared across documents and kept by name', () => {
    assert.ok(imported.definitions.has('io.k8s.api.core.v1.PodSpec'));
    assert.ok(imported.definitions.has('io.k8s.api.apps.v1.DeploymentSpec'));
    assert.equal(imported.definitions.get('io.k8s.api.apps.v1.DeploymentSpec')!.properties!['template']!.$ref, 'io.k8s.api.core.v1.PodTemplateSpec');
    assert.equal(imported.packages.get('io.k8s.api.core.v1')!.group.name, '');
    assert.equal(imported.packages.get('io.k8s.api.networking.v1')!.group.name, 'networking.k8s.io');
  });
});
