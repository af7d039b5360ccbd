// The fields each endpoint of the generic store resets, as kube's strategies report them to the
// field manager (rest.ResetFieldsStrategy): status on the main resource of a kind with a status
// subresource, spec on /status, plus what a strategy declares (the CRD status strategy: metadata).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CustomResourceDefinitionStrategy } from '../../apis/apiextensions/v1/strategy.js';
import { resetFieldNames } from '../../runtime/registry/generic/resetfields.js';

describe('resetFieldNames (GetResetFields)', () => {
  test('main resource: status when a status subresource owns it, nothing otherwise', () => {
    assert.deepEqual(resetFieldNames(undefined, true, ''), ['status']);
    assert.deepEqual(resetFieldNames(undefined, false, ''), []);
  });
  test('status subresource: spec', () => {
    assert.deepEqual(resetFieldNames(undefined, true, 'status'), ['spec']);
  });
  test('scale: nothing (the Scale has its own manager)', () => {
    assert.deepEqual(resetFieldNames(undefined, true, 'scale'), []);
  });
  test("a strategy's declared fields are added once", () => {
    assert.deepEqual(resetFieldNames({ resetFields: ['status', 'x'] }, true, ''), ['status', 'x']);
    assert.deepEqual(resetFieldNames(CustomResourceDefinitionStrategy as never, true, 'status'), ['spec', 'metadata']);
  });
});
