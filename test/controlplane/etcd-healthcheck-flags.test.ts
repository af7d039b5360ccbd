// --etcd-healthcheck-timeout and --etcd-readycheck-timeout (kube's flags): Go durations on both
// server commands; absent or 0 is kube's 2 s default, resolved by the storage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { completeAggregatedOptions, parseAggregatedServerOptions } from '../../runtime/aggregated/options.js';
import { completeOptions, OptionsError, parseServerRunOptions } from '../../runtime/controlplane/options.js';
import { complete } from '../../runtime/storage/factory.js';

test('the control plane takes --etcd-healthcheck-timeout and --etcd-readycheck-timeout as Go durations', () => {
  const dflt = completeOptions(parseServerRunOptions([]));
  assert.equal(dflt.etcdHealthcheckTimeoutMs, undefined);
  assert.equal(dflt.etcdReadycheckTimeoutMs, undefined);
  const o = completeOptions(parseServerRunOptions(['--etcd-healthcheck-timeout', '5s', '--etcd-readycheck-timeout=1500ms']));
  assert.equal(o.etcdHealthcheckTimeoutMs, 5000);
  assert.equal(o.etcdReadycheckTimeoutMs, 1500);
  assert.throws(
    () => parseServerRunOptions(['--etcd-healthcheck-timeout=2']),
    (e: unknown) => e instanceof OptionsError && /missing unit/.test(e.message),
  );
  assert.throws(() => parseServerRunOptions(['--etcd-readycheck-timeout=-1s']), OptionsError);
});

test('the aggregated server takes the same flags', () => {
  const o = completeAggregatedOptions(parseAggregatedServerOptions(['--etcd-healthcheck-timeout=3s', '--etcd-readycheck-timeout=4s']), apiGroups);
  assert.equal(o.etcdHealthcheckTimeoutMs, 3000);
  assert.equal(o.etcdReadycheckTimeoutMs, 4000);
});

test("the storage resolves absent or 0 to kube's 2 s", () => {
  for (const given of [{}, { healthcheckTimeoutMs: 0, readycheckTimeoutMs: 0 }]) {
    const b = complete({ backend: { backend: 'etcd3', endpoints: ['http://127.0.0.1:2379'], ...given } }).backend;
    assert.equal(b.backend === 'etcd3' && b.healthcheckTimeoutMs, 2000);
    assert.equal(b.backend === 'etcd3' && b.readycheckTimeoutMs, 2000);
  }
  const b = complete({ backend: { backend: 'etcd3', endpoints: ['http://127.0.0.1:2379'], healthcheckTimeoutMs: 700, readycheckTimeoutMs: 900 } }).backend;
  assert.equal(b.backend === 'etcd3' && b.healthcheckTimeoutMs, 700);
  assert.equal(b.backend === 'etcd3' && b.readycheckTimeoutMs, 900);
});
