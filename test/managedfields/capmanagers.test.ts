// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/capmanagers_test.go.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ManagedFieldsEntry } from '../../apis/meta/v1/types.js';
import { newCapManagersManager, setToFields } from '../../runtime/apimachinery/managedfields/index.js';
import { makePath, Set as FieldSet } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';
import { expectIdempotence, expectManagesField, objectWithLabels } from './testing/helpers.js';
import { TestFieldManagerImpl } from './testing/testfieldmanager.js';

const pod = { apiVersion: 'v1', kind: 'Pod' };
const podWithLabels = (...labels: string[]) => objectWithLabels('v1', 'Pod', ...labels);

test('TestCapManagersManagerMergesEntries', async () => {
  const f = new TestFieldManagerImpl(swaggerTypeConverter(), pod, '', (m) => newCapManagersManager(m, 3));
  const updates = [['one'], ['one', 'two'], ['one', 'two', 'three'], ['one', 'two', 'three', 'four']];
  for (const [i, labels] of updates.entries()) {
    await f.update(podWithLabels(...labels), `fieldmanager_test_update_${i + 1}`);
    await expectIdempotence(f);
  }
  const managers = f.managedFields().map((e) => e.manager);
  assert.deepEqual(managers, ['ancient-changes', 'fieldmanager_test_update_3', 'fieldmanager_test_update_4']);
  expectManagesField(f, 'ancient-changes', makePath('metadata', 'labels', 'one'));
  expectManagesField(f, 'ancient-changes', makePath('metadata', 'labels', 'two'));
  expectManagesField(f, 'fieldmanager_test_update_3', makePath('metadata', 'labels', 'three'));
  expectManagesField(f, 'fieldmanager_test_update_4', makePath('metadata', 'labels', 'four'));
});

describe('TestCapUpdateManagers', () => {
  const set = (...fields: string[]) => setToFields(new FieldSet(...fields.map((x) => makePath(x))));
  // time.Time{} (year 1) plus `order` hours, as kube's test builds its times.
  const entry = (manager: string, apiVersion: string, order: number, fieldsV1: object): ManagedFieldsEntry => ({
    manager,
    operation: 'Update',
    apiVersion,
    time: new Date(Date.parse('0001-01-01T00:00:00Z') + order * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    fieldsType: 'FieldsV1',
    fieldsV1,
  });
  const cases: Array<{ name: string; input: ManagedFieldsEntry[]; expected: ManagedFieldsEntry[] }> = [
    {
      name: 'one version, no ancient changes',
      input: [entry('update-manager1', 'v1', 1, set('a')), entry('update-manager2', 'v1', 2, set('b')), entry('update-manager3', 'v1', 3, set('c')), entry('update-manager4', 'v1', 4, set('d'))],
      expected: [entry('ancient-changes', 'v1', 2, set('a', 'b')), entry('update-manager3', 'v1', 3, set('c')), entry('update-manager4', 'v1', 4, set('d'))],
    },
    {
      name: 'one version, one ancient changes',
      input: [entry('ancient-changes', 'v1', 2, set('a', 'b')), entry('update-manager3', 'v1', 3, set('c')), entry('update-manager4', 'v1', 4, set('d')), entry('update-manager5', 'v1', 5, set('e'))],
      expected: [entry('ancient-changes', 'v1', 3, set('a', 'b', 'c')), entry('update-manager4', 'v1', 4, set('d')), entry('update-manager5', 'v1', 5, set('e'))],
    },
    {
      name: 'two versions, no ancient changes',
      input: [
        entry('update-manager1', 'v1', 1, set('a')),
        entry('update-manager2', 'v2', 2, set('b')),
        entry('update-manager3', 'v1', 3, set('c')),
        entry('update-manager4', 'v1', 4, set('d')),
        entry('update-manager5', 'v1', 5, set('e')),
      ],
      expected: [entry('update-manager2', 'v2', 2, set('b')), entry('ancient-changes', 'v1', 4, set('a', 'c', 'd')), entry('update-manager5', 'v1', 5, set('e'))],
    },
    {
      name: 'three versions, one ancient changes',
      input: [
        entry('update-manager2', 'v2', 2, set('b')),
        entry('ancient-changes', 'v1', 4, set('a', 'c', 'd')),
        entry('update-manager5', 'v1', 5, set('e')),
        entry('update-manager6', 'v3', 6, set('f')),
        entry('update-manager7', 'v2', 7, set('g')),
      ],
      expected: [entry('ancient-changes', 'v1', 5, set('a', 'c', 'd', 'e')), entry('update-manager6', 'v3', 6, set('f')), entry('ancient-changes', 'v2', 7, set('b', 'g'))],
    },
    {
      name: 'three versions, two ancient changes',
      input: [
        entry('ancient-changes', 'v1', 5, set('a', 'c', 'd', 'e')),
        entry('update-manager6', 'v3', 6, set('f')),
        entry('ancient-changes', 'v2', 7, set('b', 'g')),
        entry('update-manager8', 'v3', 8, set('h')),
      ],
      expected: [entry('ancient-changes', 'v1', 5, set('a', 'c', 'd', 'e')), entry('ancient-changes', 'v2', 7, set('b', 'g')), entry('ancient-changes', 'v3', 8, set('f', 'h'))],
    },
    {
      name: 'four versions, two ancient changes',
      input: [
        entry('ancient-changes', 'v1', 5, set('a', 'c', 'd', 'e')),
        entry('update-manager6', 'v3', 6, set('f')),
        entry('ancient-changes', 'v2', 7, set('b', 'g')),
        entry('update-manager8', 'v4', 8, set('h')),
      ],
      expected: [
        entry('ancient-changes', 'v1', 5, set('a', 'c', 'd', 'e')),
        entry('update-manager6', 'v3', 6, set('f')),
        entry('ancient-changes', 'v2', 7, set('b', 'g')),
        entry('update-manager8', 'v4', 8, set('h')),
      ],
    },
  ];
  const f = new TestFieldManagerImpl(swaggerTypeConverter(), pod, '', (m) => newCapManagersManager(m, 3));
  for (const tc of cases) {
    test(tc.name, async () => {
      f.reset();
      const live = f.live();
      live.metadata = { managedFields: tc.input };
      await f.update(live, 'no-op-update');
      assert.deepEqual(f.managedFields(), tc.expected);
      await expectIdempotence(f);
    });
  }
});
