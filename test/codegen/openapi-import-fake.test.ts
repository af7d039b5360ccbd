// The fake of the Kubernetes clientset that generator/openapi-import writes beside the clients
// (generated/kubernetes/clientset/fake, client-go's kubernetes/fake): what it serves each kind
// with (its verbs, subresources and published schema; strategic merge patch on, as kube-apiserver
// takes it for its own kinds, unlike the CRDs a project imports), and that the committed file is
// what the generator writes. Its behaviour: test/client/kubernetes/fake-clientset.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { emitKubernetesFake, generateKubernetesClients, importKubernetes, KUBERNETES_OUTPUT, loadDocuments } from '../../generator/openapi-import/index.js';
import { ROOT } from './harness.js';

const FAKE = `${KUBERNETES_OUTPUT}/clientset/fake/index.ts`;

test('the fake of coordination.k8s.io/v1: FakeKubernetes over the tracker, Lease with its schema and strategic merge patch', () => {
  const files = emitKubernetesFake(importKubernetes(loadDocuments(['apis/coordination.k8s.io/v1.json'])));
  assert.deepEqual(
    files.map((f) => f.path),
    [FAKE],
  );
  const text = files[0]!.text;
  assert.match(text, /^import \{ Kubernetes \} from '\.\.\/index\.js';$/m);
  assert.match(text, /^export class FakeKubernetes extends Kubernetes \{$/m);
  assert.match(text, /^export function newSimpleClientset\(\.\.\.objects: readonly object\[\]\): FakeKubernetes \{$/m);
  // client-go's fake applies no field selector: Kubernetes' kinds say so instead of listing selectable fields
  assert.match(text, /descriptor: coordinationV1LeaseResource,\n\s+fieldSelectors: "ignored",\n\s+schema: schemaFromJSON\(coordinationV1LeaseSchema\),/);
  assert.doesNotMatch(text, /strategicMergePatch/);
});

test('generated/kubernetes/clientset/fake/index.ts is what the generator writes', () => {
  const fake = generateKubernetesClients().find((f) => f.path === FAKE);
  assert.ok(fake, `${FAKE} is generated`);
  assert.equal(readFileSync(join(ROOT, FAKE), 'utf8'), fake.text);
});
