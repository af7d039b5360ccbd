// extract<Kind> of the generated apply configurations on kube 1.32's recorded objects, which carry
// managedFields (client-go's applyconfigurations ExtractInto, managedfields/extract.go): an entry
// of another manager, operation or subresource is passed over unread, so an object whose only
// entry is not the manager's Apply extracts to its identity alone; the manager's Apply entry
// extracts exactly the fields it owns (extract_test.go's TestExtractInto shape).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractDeployment, extractDeploymentStatus } from '../../../generated/kubernetes/applyconfigurations/apps/v1/index.js';
import { extractPod } from '../../../generated/kubernetes/applyconfigurations/core/v1/index.js';
import { extractStorageClass } from '../../../generated/kubernetes/applyconfigurations/storage/v1/index.js';
import type { Deployment } from '../../../generated/kubernetes/types/apps/v1.js';
import type { Pod } from '../../../generated/kubernetes/types/core/v1.js';
import type { StorageClass } from '../../../generated/kubernetes/types/storage/v1.js';
import { recordedObjects } from './recorded.js';

function recorded<T>(file: string): T {
  return structuredClone(recordedObjects().find((o) => o.file === file)!.object) as T;
}

describe('extract<Kind> on recorded objects', () => {
  it('the recorded managedFields entry (manager "managerValue", operation "operationValue") is not an Apply: identity only', () => {
    const deployment = recorded<Deployment>('apps.v1.Deployment.json');
    assert.equal(deployment.metadata?.managedFields?.length, 1);
    assert.deepEqual(extractDeployment(deployment, 'managerValue'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nameValue', namespace: 'namespaceValue' } });
    assert.deepEqual(extractDeploymentStatus(deployment, 'managerValue'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nameValue', namespace: 'namespaceValue' } });
    assert.deepEqual(extractPod(recorded<Pod>('core.v1.Pod.json'), 'managerValue'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nameValue', namespace: 'namespaceValue' } });
  });

  it('the manager’s Apply entry extracts the recorded values of the fields it owns', () => {
    const deployment = recorded<Deployment>('apps.v1.Deployment.json');
    deployment.metadata!.managedFields = [
      ...deployment.metadata!.managedFields!,
      {
        manager: 'ctrl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: '2008-01-01T01:01:01Z',
        fieldsType: 'FieldsV1',
        // A LabelSelector is atomic (+structType=atomic): its manager owns it whole, as kube records.
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:labelsKey': {} } }, 'f:spec': { 'f:replicas': {}, 'f:selector': {} } },
      },
    ];
    assert.deepEqual(extractDeployment(deployment, 'ctrl'), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'nameValue', namespace: 'namespaceValue', labels: { labelsKey: 'labelsValue' } },
      spec: { replicas: 1, selector: deployment.spec!.selector },
    });
    assert.deepEqual(extractDeploymentStatus(deployment, 'ctrl'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nameValue', namespace: 'namespaceValue' } });
  });

  // The recorded StorageClass carries metadata.namespace (kube's fuzzer filled it): client-go's
  // ExtractStorageClass sets only the name of a cluster-scoped kind, and so does ours.
  it('a cluster-scoped kind extracts its name and type, never a namespace the object carries', () => {
    const sc = recorded<StorageClass>('storage.k8s.io.v1.StorageClass.json');
    assert.equal(sc.metadata?.namespace, 'namespaceValue');
    assert.deepEqual(extractStorageClass(sc, 'managerValue'), { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'nameValue' } });
  });
});
