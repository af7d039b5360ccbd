// Port of k8s.io/apimachinery/pkg/util/managedfields/fieldmanager_test.go (the public field
// manager, through the test field manager), and of internal/fieldmanager_test.go.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { canonicalJSON, isJSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { isStatusError } from '../../runtime/apimachinery/errors/status-error.js';
import { getLastApplied, setLastApplied } from '../../runtime/apimachinery/managedfields/index.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';
import { FakeManager } from './testing/helpers.js';
import type { GVK } from './testing/testfieldmanager.js';
import { newTestFieldManager, newTestFieldManagerSubresource, objectManagedFields, TestFieldManagerImpl } from './testing/testfieldmanager.js';

const deploymentGVK: GVK = { apiVersion: 'apps/v1', kind: 'Deployment' };
const podGVK: GVK = { apiVersion: 'v1', kind: 'Pod' };

function yamlObject(text: string): JSONObject {
  const v: unknown = parse(text);
  return isJSONObject(v) ? v : {};
}

function setLastAppliedFromEncoded(obj: JSONObject, lastApplied: string): JSONObject {
  return setLastApplied(obj, canonicalJSON(yamlObject(lastApplied)));
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}

function isConflict(err: unknown): boolean {
  return isStatusError(err) && err.code === 409 && err.reason === 'Conflict';
}

const nginxDeployment = (): JSONObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'deployment', labels: { app: 'nginx' } },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] } },
  },
});
const replicas101 = (): JSONObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'deployment' }, spec: { replicas: 101 } });
const podLabels = (): JSONObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' } } });

test('TestUpdateApplyConflict', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  const obj = nginxDeployment();
  (obj.spec as JSONObject).replicas = 3;
  await f.update(obj, 'fieldmanager_test');
  assert.ok(isConflict(await rejection(f.apply(replicas101(), 'fieldmanager_conflict', false))));
});

test('TestApplyStripsFields', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  const newObj: JSONObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'b',
      namespace: 'b',
      uid: 'b',
      resourceVersion: 'b',
      creationTimestamp: '2026-01-01T00:00:00Z',
      managedFields: [{ manager: 'update', operation: 'Apply', apiVersion: 'apps/v1' }],
    },
  };
  await f.update(newObj, 'fieldmanager_test');
  assert.deepEqual(f.managedFields(), [], 'fields did not get stripped');
});

test('TestVersionCheck', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  await f.apply({ apiVersion: 'apps/v1', kind: 'Deployment' }, 'fieldmanager_test', false);
  const err = await rejection(f.apply({ apiVersion: 'apps/v1beta1', kind: 'Deployment' }, 'fieldmanager_test', false));
  assert.ok(isStatusError(err) && err.code === 400, `expected a 400, got ${String(err)}`);
  assert.equal(err.message, 'invalid object type: apps/v1beta1, Kind=Deployment');
});

test('TestVersionCheckDoesNotPanic', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  await f.apply({ apiVersion: 'apps/v1', kind: 'Deployment' }, 'fieldmanager_test', false);
  const err = await rejection(f.apply({}, 'fieldmanager_test', false));
  assert.ok(isStatusError(err) && err.code === 400, `expected a 400, got ${String(err)}`);
  assert.equal(err.message, 'invalid object type: /, Kind=');
});

test('TestApplyDoesNotStripLabels', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), podGVK);
  await f.apply(podLabels(), 'fieldmanager_test', false);
  assert.equal(f.managedFields().length, 1, "labels shouldn't get stripped on apply");
});

describe('TestApplyNewObject', () => {
  const cases: Array<{ gvk: GVK; file: string }> = [
    { gvk: podGVK, file: 'pod.yaml' },
    { gvk: { apiVersion: 'v1', kind: 'Node' }, file: 'node.yaml' },
    { gvk: { apiVersion: 'v1', kind: 'Endpoints' }, file: 'endpoints.yaml' },
  ];
  for (const tc of cases) {
    test(`/${tc.gvk.apiVersion}, Kind=${tc.gvk.kind}`, async () => {
      const f = newTestFieldManager(swaggerTypeConverter(), tc.gvk);
      const obj = yamlObject(readFileSync(new URL(`./testdata/${tc.file}`, import.meta.url), 'utf8'));
      await f.apply(obj, 'fieldmanager_test', false);
    });
  }
});

test('TestApplyFailsWithManagedFields', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), podGVK);
  const err = await rejection(f.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { managedFields: [{ manager: 'test' }] } }, 'fieldmanager_test', false));
  assert.ok(err instanceof Error, 'successfully applied with set managed fields');
});

test('TestApplySuccessWithNoManagedFields', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), podGVK);
  await f.apply(podLabels(), 'fieldmanager_test', false);
});

test('TestNoOpChanges', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), podGVK);
  const obj: JSONObject = { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' }, creationTimestamp: null } };
  await f.apply(structuredClone(obj), 'fieldmanager_test_apply', false);
  let before = f.live();
  f.clock.step(1);
  // Applying with a different field manager creates an entry.
  await f.apply(structuredClone(obj), 'fieldmanager_test_apply_other', false);
  assert.notDeepEqual(f.live(), before, "applying no-op apply with new manager didn't change object");
  before = f.live();
  f.clock.step(1);
  await f.update(structuredClone(obj), 'fieldmanager_test_update');
  assert.deepEqual(f.live(), before, 'no-op update has changed the object');
  before = f.live();
  f.clock.step(1);
  await f.apply(structuredClone(obj), 'fieldmanager_test_apply', true);
  assert.deepEqual(f.live(), before, 'no-op apply has changed the object');
});

test('TestResetManagedFieldsEmptyList', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), podGVK);
  await f.apply(podLabels(), 'fieldmanager_test_apply', false);
  await f.update({ apiVersion: 'v1', kind: 'Pod', metadata: { managedFields: [], labels: { a: 'b' } } }, 'update_manager');
  assert.deepEqual(f.managedFields(), [], 'failed to reset managedFields');
});

test('TestResetManagedFieldsEmptyItem', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), podGVK);
  await f.apply(podLabels(), 'fieldmanager_test_apply', false);
  await f.update({ apiVersion: 'v1', kind: 'Pod', metadata: { managedFields: [{}], labels: { a: 'b' } } }, 'update_manager');
  assert.deepEqual(f.managedFields(), [], 'failed to reset managedFields');
});

test('TestServerSideApplyWithInvalidLastApplied', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  const invalidLastApplied = 'invalid-object';
  const newObj = setLastApplied(yamlObject('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: my-deployment\n  labels:\n    app: my-app-v1\nspec:\n  replicas: 1\n'), invalidLastApplied);
  await f.update(newObj, 'kubectl-client-side-apply-test');
  assert.equal(getLastApplied(f.live()), invalidLastApplied);

  const appliedObj = yamlObject('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: my-deployment\n  labels:\n    app: my-app-v2\nspec:\n  replicas: 100\n');
  assert.ok(isConflict(await rejection(f.apply(appliedObj, 'kubectl', false))), 'expected a conflict when applying with an invalid last-applied annotation');
  assert.equal(getLastApplied(f.live()), invalidLastApplied, 'the annotation must not be updated by a failed apply');

  // Forcing works, and fixes the annotation.
  await f.apply(appliedObj, 'kubectl', true);
  const lastApplied = getLastApplied(f.live()) ?? '';
  assert.notEqual(lastApplied, invalidLastApplied);
  assert.match(lastApplied, /my-app-v2/);
});

test('TestInteropForClientSideApplyAndServerSideApply', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-deployment
  labels:
    app: my-app
spec:
  replicas: 100
  selector:
    matchLabels:
      app: my-app
  template:
    metadata:
      labels:
        app: my-app
    spec:
      containers:
      - name: my-c
        image: my-image-v1
`;
  await f.update(setLastAppliedFromEncoded(yamlObject(deployment), deployment), 'kubectl-client-side-apply-test');
  assert.match(getLastApplied(f.live()) ?? '', /my-image-v1/);

  // The same user moves to server-side apply and changes every field it applied client-side.
  await f.apply(yamlObject(deployment.replaceAll('my-app', 'my-app-v2').replace('replicas: 100', 'replicas: 8').replace('my-image-v1', 'my-image-v2')), 'kubectl', false);
  assert.match(getLastApplied(f.live()) ?? '', /my-image-v2/);
});

test('TestNoTrackManagedFieldsForClientSideApply', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: my-deployment\n  labels:\n    app: my-app\nspec:\n  replicas: 100\n';
  await f.update(yamlObject(deployment), 'test_kubectl_create');
  assert.notEqual(f.managedFields().length, 0, 'expected to have managed fields');

  // An empty list stops tracking.
  const stop = yamlObject(deployment.replace('  name: my-deployment\n', '  name: my-deployment\n  managedFields: []\n'));
  (stop.metadata as JSONObject).uid = 'nonempty';
  await f.update(stop, 'test_kubectl_replace');
  assert.deepEqual(f.managedFields(), [], 'expected to have stopped tracking managed fields');

  // An existing object without managedFields stays untracked on update.
  await f.update(setLastAppliedFromEncoded(yamlObject(deployment), deployment), 'test_k_client_side_apply');
  assert.deepEqual(f.managedFields(), [], 'expected to continue to not track managed fields');
  assert.match(getLastApplied(f.live()) ?? '', /my-app/);

  // The first apply starts tracking: what was there belongs to before-first-apply.
  await f.apply(yamlObject(deployment), 'test_server_side_apply_without_upgrade', false);
  const managers = f.managedFields().map((e) => e.manager);
  assert.ok(managers.length >= 2, `expected at least 2 field managers, got ${JSON.stringify(managers)}`);
  assert.deepEqual(managers.slice(0, 2), ['test_server_side_apply_without_upgrade', 'before-first-apply']);

  // kubectl takes over what it applied client-side.
  await f.apply(yamlObject(deployment.replace('app: my-app', 'app: my-app-v2').replace('replicas: 100', 'replicas: 8')), 'kubectl', false);
  assert.notEqual(f.managedFields().length, 0);
  assert.match(getLastApplied(f.live()) ?? '', /my-app-v2/);
});

test('TestUpdateViaSubresources', async () => {
  const f = newTestFieldManagerSubresource(swaggerTypeConverter(), podGVK, 'scale');
  const obj: JSONObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      labels: { a: 'b' },
      managedFields: [{ manager: 'test', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:another_field': {} } } } }],
    },
  };
  // managedFields cannot be changed through a subresource…
  const expectedManager = 'fieldmanager_test_subresource';
  await f.update(obj, expectedManager);
  assert.deepEqual(
    f.managedFields().map((e) => e.manager),
    [expectedManager],
  );
  // …nor reset.
  const reset = structuredClone(obj);
  (reset.metadata as JSONObject).managedFields = [];
  await f.update(reset, expectedManager);
  assert.equal(f.managedFields().length, 1);
});

test('TestApplyDoesNotChangeManagedFields', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  await f.apply(nginxDeployment(), 'fieldmanager_z', false);
  await f.apply(replicas101(), 'fieldmanager_b', false);
  const original = f.managedFields();
  f.clock.step(2);
  await f.apply(nginxDeployment(), 'fieldmanager_z', false);
  assert.deepEqual(f.managedFields(), original, 'a no-op apply changed managedFields');
});

test('TestUpdateDoesNotChangeManagedFields', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  await f.update(nginxDeployment(), 'fieldmanager_z');
  const original = f.managedFields();
  f.clock.step(2);
  await f.update(nginxDeployment(), 'fieldmanager_z');
  assert.deepEqual(f.managedFields(), original, 'a no-op update changed managedFields');
});

test('TestLiveObjectManagedFieldsNotRemoved', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), deploymentGVK);
  await f.apply(nginxDeployment(), 'fieldmanager_z', false);
  const originalLiveObj = f.live();
  assert.notEqual(objectManagedFields(originalLiveObj).length, 0);
  await f.apply(replicas101(), 'fieldmanager_z', false);
  assert.notEqual(objectManagedFields(originalLiveObj).length, 0, 'the managedFields of the object read before were stripped');
});

// internal/fieldmanager_test.go
test('TestFieldManagerUpdateNoErrors', async () => {
  const fm = new FakeManager();
  const f = new TestFieldManagerImpl(swaggerTypeConverter(), podGVK, '', (m) => {
    fm.manager = m;
    return fm;
  });
  const podWithLabels = (...labels: string[]): JSONObject => ({ kind: 'Pod', apiVersion: 'v1', metadata: { labels: Object.fromEntries(labels.map((l) => [l, 'true'])) } });
  await f.updateNoErrors(podWithLabels('one'), 'fieldmanager_test_update_1');
  assert.notEqual(f.managedFields().length, 0, 'expected managedFields to be set');
  const before = f.managedFields();
  // An error inside the chain: the update still goes through, with the live managedFields.
  fm.error = new Error('test error');
  await f.updateNoErrors(podWithLabels('one', 'two'), 'fieldmanager_test_update_1');
  assert.deepEqual(f.managedFields(), before, 'expected idempotence, but managedFields changed');
  assert.deepEqual((f.live().metadata as JSONObject).labels, { one: 'true', two: 'true' });
});

test('a reset entry is the zero entry: fields ManagedFieldsEntry does not have are ignored, an empty fieldsV1 is not zero', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), podGVK);
  await f.apply(podLabels(), 'fieldmanager_test_apply', false);
  await f.update({ apiVersion: 'v1', kind: 'Pod', metadata: { managedFields: [{ unknown: 1 }], labels: { a: 'b' } } }, 'update_manager');
  assert.deepEqual(f.managedFields(), [], 'an entry with only unknown fields resets');
  await f.apply(podLabels(), 'fieldmanager_test_apply', false);
  const before = f.managedFields();
  await f.update({ apiVersion: 'v1', kind: 'Pod', metadata: { managedFields: [{ fieldsV1: {} }], labels: { a: 'b' } } }, 'update_manager');
  assert.deepEqual(f.managedFields(), before, 'an entry that does not decode keeps the live managedFields');
});

test('__proto__ and constructor are field and manager names like any other', async () => {
  const f = newTestFieldManager(swaggerTypeConverter(), podGVK);
  const obj = JSON.parse('{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"__proto__":"x","constructor":"y"}}}') as JSONObject;
  await f.apply(obj, '__proto__', false);
  const [entry] = f.managedFields();
  assert.equal(entry?.manager, '__proto__');
  assert.equal(JSON.stringify(entry?.fieldsV1), '{"f:metadata":{"f:labels":{"f:__proto__":{},"f:constructor":{}}}}');
  // Another manager taking one of them over conflicts on that field, named as data.
  const other = JSON.parse('{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"__proto__":"z"}}}') as JSONObject;
  const err = await rejection(f.apply(other, 'constructor', false));
  assert.ok(isStatusError(err));
  assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "__proto__": .metadata.labels.__proto__');
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});
