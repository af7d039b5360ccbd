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
