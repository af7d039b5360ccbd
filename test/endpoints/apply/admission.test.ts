// The managed-fields validating admission controller (k8s.io/apiserver pkg/endpoints/handlers/
// fieldmanager/admission.go, TestAdmission): managedFields a mutating admission plugin leaves
// undecodable are put back as they were before it, with kube's warning; valid changes stay.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { admitKeepingManagedFields } from '../../../runtime/endpoints/handlers/managedfields.js';
import type { KubeObject, RequestContext } from '../../../runtime/registry/rest.js';

const valid = [{ manager: 'a', operation: 'Update', apiVersion: 'v1', time: '2026-11-26T04:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } }];

function context(): { ctx: RequestContext; warnings: string[] } {
  const warnings: string[] = [];
  const ctx = { namespace: 'default', user: { name: 'u', groups: [] }, warn: (m: string) => warnings.push(m) } as unknown as RequestContext;
  return { ctx, warnings };
}

describe('TestAdmission (managedFields after mutating admission)', () => {
  test('managedFields admission leaves undecodable are reset, with a warning', async () => {
    const { ctx, warnings } = context();
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', managedFields: structuredClone(valid) } };
    await admitKeepingManagedFields(ctx, obj, async () => {
      (obj.metadata as Record<string, unknown>)['managedFields'] = [{ manager: 'a', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'k:{not json': {} } } }];
    });
    assert.deepEqual(obj.metadata?.managedFields, valid);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0] ?? '',
      /^\.metadata\.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: /,
    );
  });

  test('an object without managedFields before admission loses the invalid ones admission added', async () => {
    const { ctx, warnings } = context();
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
    await admitKeepingManagedFields(ctx, obj, async () => {
      (obj.metadata as Record<string, unknown>)['managedFields'] = 'not a list';
    });
    assert.equal(Object.hasOwn(obj.metadata ?? {}, 'managedFields'), false);
    assert.equal(warnings.length, 1);
  });

  test('valid changes by admission are kept without a warning; admission errors pass through', async () => {
    const { ctx, warnings } = context();
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', managedFields: structuredClone(valid) } };
    const changed = [{ ...valid[0], manager: 'b' }];
    await admitKeepingManagedFields(ctx, obj, async () => {
      (obj.metadata as Record<string, unknown>)['managedFields'] = changed;
    });
    assert.deepEqual(obj.metadata?.managedFields, changed);
    assert.deepEqual(warnings, []);
    await assert.rejects(
      admitKeepingManagedFields(ctx, obj, async () => {
        throw new Error('denied');
      }),
      /denied/,
    );
  });
});
