// core/v1 ConfigMap validation as kube 1.32's ValidateConfigMap / ValidateConfigMapUpdate
// (pkg/apis/core/validation): IsConfigMapKey on every key of data and binaryData, and an
// immutable ConfigMap whose data is sent again in another key order is unchanged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigMapStrategy } from '../../apis/core/v1/configmap-strategy.js';
import type { ConfigMap } from '../../apis/core/v1/types.js';

const cm = (data: Record<string, string>, extra: Partial<ConfigMap> = {}): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data, ...extra });

test('TestValidateConfigMap: keys "..x", "." and ".." are refused with kube\'s details', () => {
  const details = (key: string): string[] => ConfigMapStrategy.validate(cm({ [key]: 'v' })).map((e) => `${e.field}: ${e.detail ?? ''}`);
  assert.deepEqual(details('..x'), ["data[..x]: must not start with '..'"]);
  assert.deepEqual(details('.'), ["data[.]: must not be '.'"]);
  assert.deepEqual(details('..'), ["data[..]: must not be '..'"]);
  assert.deepEqual(details('a.b_c-d'), []);
});

test('TestValidateConfigMapUpdate: an immutable ConfigMap with its data in another key order is not a change', () => {
  const old = cm({ a: '1', b: '2' }, { immutable: true });
  assert.deepEqual(ConfigMapStrategy.validateUpdate(cm({ b: '2', a: '1' }, { immutable: true }), old), []);
  assert.deepEqual(
    ConfigMapStrategy.validateUpdate(cm({ a: '1', b: '3' }, { immutable: true }), old).map((e) => e.field),
    ['data'],
  );
});

test("ValidateConfigMap: a key in both maps is reported on the data side; the size limit in 1.32's words", () => {
  const both = ConfigMapStrategy.validate(cm({ k: 'v' }, { binaryData: { k: 'eA==' } })).map((e) => `${e.field}: ${e.detail ?? ''}`);
  assert.deepEqual(both, ['data[k]: duplicate of key present in binaryData']);
  const big = ConfigMapStrategy.validate(cm({ k: 'x'.repeat(1024 * 1024 + 1) })).map((e) => `${e.type} ${e.field}: ${e.detail ?? ''}`);
  assert.deepEqual(big, ['FieldValueTooLong : may not be more than 1048576 bytes']);
});

test('ValidateConfigMapUpdate: data and binaryData of an immutable ConfigMap are each immutable', () => {
  const old = cm({ a: '1' }, { immutable: true, binaryData: { b: 'eA==' } });
  const changed = ConfigMapStrategy.validateUpdate(cm({ a: '2' }, { immutable: true, binaryData: { b: 'eQ==' } }), old);
  assert.deepEqual(
    changed.map((e) => e.field),
    ['data', 'binaryData'],
  );
});
