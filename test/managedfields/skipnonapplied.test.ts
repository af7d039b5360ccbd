// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/skipnonapplied_test.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStatusError } from '../../runtime/apimachinery/errors/status-error.js';
import { newSkipNonAppliedManager } from '../../runtime/apimachinery/managedfields/index.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';
import { TestFieldManagerImpl } from './testing/testfieldmanager.js';

const pod = { apiVersion: 'v1', kind: 'Pod' };
const appliedPod = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'pod', labels: { app: 'nginx' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] },
});

test('TestNoUpdateBeforeFirstApply', async () => {
  const f = new TestFieldManagerImpl(swaggerTypeConverter(), pod, '', (m) => newSkipNonAppliedManager(m));
  await f.apply(appliedPod(), 'fieldmanager_test_apply', false);
  assert.deepEqual(
    f.managedFields().map((e) => e.manager),
    ['fieldmanager_test_apply'],
  );
});

test('TestUpdateBeforeFirstApply', async () => {
  const f = new TestFieldManagerImpl(swaggerTypeConverter(), pod, '', (m) => newSkipNonAppliedManager(m));
  await f.update({ kind: 'Pod', apiVersion: 'v1', metadata: { labels: { app: 'my-nginx' } } }, 'fieldmanager_test_update');
  assert.deepEqual(f.managedFields(), [], 'managedFields were tracked on update only');

  const err = await f.apply(appliedPod(), 'fieldmanager_test_apply', false).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(isStatusError(err) && err.code === 409, `expecting to get one conflict but got ${String(err)}`);
  assert.equal(err.causes.length, 1);
  assert.equal(err.causes[0]?.field, '.metadata.labels.app');
  assert.match(err.causes[0]?.message ?? '', /before-first-apply/);

  await f.apply(appliedPod(), 'fieldmanager_test_apply', true);
  assert.deepEqual(
    f.managedFields().map((e) => e.manager),
    ['fieldmanager_test_apply', 'before-first-apply'],
  );
});
