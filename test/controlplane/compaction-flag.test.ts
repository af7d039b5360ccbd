// --etcd-compaction-interval (kube's flag): parsed as a Go duration, 0 disables, bad values are
// usage errors; absent leaves each backend's default.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completeOptions, OptionsError, parseServerRunOptions } from '../../runtime/controlplane/options.js';

test('--etcd-compaction-interval takes a Go duration', () => {
  assert.equal(completeOptions(parseServerRunOptions([])).etcdCompactionIntervalMs, undefined);
  assert.equal(completeOptions(parseServerRunOptions(['--etcd-compaction-interval', '5m'])).etcdCompactionIntervalMs, 300_000);
  assert.equal(completeOptions(parseServerRunOptions(['--etcd-compaction-interval=1s500ms'])).etcdCompactionIntervalMs, 1500);
  assert.equal(completeOptions(parseServerRunOptions(['--etcd-compaction-interval=0'])).etcdCompactionIntervalMs, 0);
  assert.throws(
    () => parseServerRunOptions(['--etcd-compaction-interval=5']),
    (e: unknown) => e instanceof OptionsError && /missing unit/.test(e.message),
  );
  assert.throws(() => parseServerRunOptions(['--etcd-compaction-interval=-1s']), OptionsError);
});
