// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/managedfieldsupdater_test.go. The
// fake clock moves one second where kube's tests sleep one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ManagedFieldsEntry } from '../../apis/meta/v1/types.js';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from '../../runtime/apimachinery/managedfields/index.js';
import { decodeManagedFields, newManagedFieldsUpdater, removeObjectManagedFields } from '../../runtime/apimachinery/managedfields/index.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';
import { FakeClock, newTestFieldManager, objectManagedFields } from './testing/testfieldmanager.js';
import type { TestFieldManagerImpl } from './testing/testfieldmanager.js';

const configMap = (data: Record<string, string>): JSONObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'configmap' }, data });

function newManager(): TestFieldManagerImpl {
  return newTestFieldManager(swaggerTypeConverter(), { apiVersion: 'v1', kind: 'ConfigMap' });
}

const byManager = (entries: ManagedFieldsEntry[]): Map<string | undefined, ManagedFieldsEntry> => new Map(entries.map((e) => [e.manager, e]));

async function applyObject(f: TestFieldManagerImpl, manager: string, obj: JSONObject): Promise<void> {
  await f.apply(obj, manager, true);
}

test('TestManagedFieldsUpdateDoesModifyTime', async () => {
  const f = newManager();
  await f.update(configMap({ key: 'value' }), 'fieldmanager_test');
  const previous = f.managedFields();
  f.clock.step(1);
  await f.update(configMap({ key: 'new-value' }), 'fieldmanager_test');
  assert.notEqual(f.managedFields()[0]?.time, previous[0]?.time, 'managedFields time has not been updated');
});

test('TestManagedFieldsApplyDoesModifyTime', async () => {
  const f = newManager();
  await applyObject(f, 'fieldmanager_test', configMap({ key: 'value' }));
  const previous = f.managedFields();
  f.clock.step(1);
  await applyObject(f, 'fieldmanager_test', configMap({ key: 'new-value' }));
  assert.notEqual(f.managedFields()[0]?.time, previous[0]?.time, 'managedFields time has not been updated');
});

test('TestManagedFieldsUpdateWithoutChangesDoesNotModifyTime', async () => {
  const f = newManager();
  await f.update(configMap({ key: 'value' }), 'fieldmanager_test');
  const previous = f.managedFields();
  f.clock.step(1);
  await f.update(configMap({ key: 'value' }), 'fieldmanager_test');
  assert.equal(f.managedFields()[0]?.time, previous[0]?.time, 'managedFields time has changed');
});

test('TestManagedFieldsApplyWithoutChangesDoesNotModifyTime', async () => {
  const f = newManager();
  await applyObject(f, 'fieldmanager_test', configMap({ key: 'value' }));
  const previous = f.managedFields();
  f.clock.step(1);
  await applyObject(f, 'fieldmanager_test', configMap({ key: 'value' }));
  assert.equal(f.managedFields()[0]?.time, previous[0]?.time, 'managedFields time has changed');
});

test('TestNonManagedFieldsUpdateDoesNotModifyTime', async () => {
  const f = newManager();
  await f.update(configMap({ key_a: 'value' }), 'fieldmanager_a_test');
  await f.update(configMap({ key_b: 'value' }), 'fieldmanager_b_test');
  f.clock.step(1);
  await f.update(configMap({ key_a: 'value', key_b: 'new-value' }), 'fieldmanager_a_test');
  // A took key_b over: B manages nothing any more and its entry is gone.
  assert.equal(byManager(f.managedFields()).has('fieldmanager_b_test'), false, 'fieldmanager B managedFields has changed');
});

test('TestNonManagedFieldsApplyDoesNotModifyTime', async () => {
  const f = newManager();
  await applyObject(f, 'fieldmanager_a_test', configMap({ key_a: 'value' }));
  await applyObject(f, 'fieldmanager_b_test', configMap({ key_b: 'value' }));
  const previous = byManager(f.managedFields());
  f.clock.step(1);
  await applyObject(f, 'fieldmanager_a_test', configMap({ key_a: 'new-value' }));
  assert.equal(byManager(f.managedFields()).get('fieldmanager_b_test')?.time, previous.get('fieldmanager_b_test')?.time, 'fieldmanager B time changed');
});

test('TestTakingOverManagedFieldsDuringUpdateDoesNotModifyPreviousManagerTime', async () => {
  const f = newManager();
  await f.update(configMap({ key_a: 'value', key_b: 'value"' }), 'fieldmanager_a_test');
  const previous = byManager(f.managedFields());
  f.clock.step(1);
  await f.update(configMap({ key_b: 'new-value' }), 'fieldmanager_b_test');
  assert.equal(byManager(f.managedFields()).get('fieldmanager_a_test')?.time, previous.get('fieldmanager_a_test')?.time, 'fieldmanager A time has been updated');
});

test('TestTakingOverManagedFieldsDuringApplyDoesNotModifyPreviousManagerTime', async () => {
  const f = newManager();
  await applyObject(f, 'fieldmanager_a_test', configMap({ key_a: 'value', key_b: 'value"' }));
  const previous = byManager(f.managedFields());
  f.clock.step(1);
  await applyObject(f, 'fieldmanager_b_test', configMap({ key_b: 'new-value' }));
  assert.equal(byManager(f.managedFields()).get('fieldmanager_a_test')?.time, previous.get('fieldmanager_a_test')?.time, 'fieldmanager A time has been updated');
});

/** A manager whose apply is always a no-op (SMD returns no object). */
class NoopManager implements Manager {
  async apply(_live: JSONObject, _applied: JSONObject, managed: Managed): Promise<ManagerApplyResult> {
    return { object: null, managed };
  }

  update(): Promise<ManagerResult> {
    throw new Error('not used');
  }
}

test('TestNilNewObjectReplacedWithDeepCopyExcludingManagedFields', async () => {
  const obj: JSONObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'pod',
      labels: { app: 'nginx' },
      managedFields: [
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } },
          manager: 'fieldmanager_test',
          operation: 'Apply',
          time: '2021-11-11T18:41:17Z',
        },
      ],
    },
  };
  const managed = decodeManagedFields(objectManagedFields(obj));
  const updater = newManagedFieldsUpdater(new NoopManager(), new FakeClock().now);
  const r = await updater.apply(obj, structuredClone(obj), managed, 'some_manager', false);
  assert.notEqual(r.object, obj, 'the result must not be the live object itself');
  assert.deepEqual(r.object, removeObjectManagedFields(obj));
  assert.equal(objectManagedFields(obj).length, 1, 'the live object keeps its managedFields');
});
