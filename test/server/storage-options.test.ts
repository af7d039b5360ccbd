// The storage options both server commands share (server/options/storage.ts, kube's EtcdOptions):
// one set of flags, one validation, one usage text, one storage configuration, one set of checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { completeAggregatedOptions, parseAggregatedServerOptions, USAGE as AGGREGATED_USAGE } from '../../runtime/aggregated/options.js';
import { completeOptions, OptionsError, parseServerRunOptions, USAGE as CONTROL_PLANE_USAGE } from '../../runtime/controlplane/options.js';
import { addStorageHealthChecks, completeStorageOptions, storageConfigFor, storageUsage } from '../../runtime/server/options/storage.js';

const ETCD = ['--storage-backend=etcd3', '--etcd-servers', 'http://a:2379,http://b:2379', '--etcd-servers=http://c:2379', '--etcd-prefix=/p', '--etcd-compaction-interval=10m', '--watch-cache=false'];

test('both commands parse and complete the storage flags alike', () => {
  const cp = completeOptions(parseServerRunOptions(ETCD));
  const ag = completeAggregatedOptions(parseAggregatedServerOptions(ETCD), apiGroups);
  for (const o of [cp, ag]) {
    assert.equal(o.storageBackend, 'etcd3');
    assert.deepEqual(o.etcdServers, ['http://a:2379', 'http://b:2379', 'http://c:2379'], 'comma-separated and repeatable, as pflag string slices');
    assert.equal(o.etcdPrefix, '/p');
    assert.equal(o.etcdCompactionIntervalMs, 600_000);
    assert.equal(o.watchCache, false);
  }
});

test('defaults: SQLite, a watch cache, and each command its own etcd prefix', () => {
  const cp = completeOptions(parseServerRunOptions([]));
  assert.equal(cp.storageBackend, 'sqlite');
  assert.equal(cp.watchCache, true);
  assert.equal(cp.etcdPrefix, '/registry');
  assert.equal(cp.etcdCompactionIntervalMs, undefined);
  const ag = completeAggregatedOptions(parseAggregatedServerOptions(['--groups=wardle.example.com']), apiGroups);
  assert.equal(ag.etcdPrefix, '/registry/wardle.example.com');
});

test('validation is one: etcd3 needs --etcd-servers, the backend is sqlite or etcd3', () => {
  for (const parse of [(a: string[]) => completeOptions(parseServerRunOptions(a)), (a: string[]) => completeAggregatedOptions(parseAggregatedServerOptions(a), apiGroups)]) {
    assert.throws(
      () => parse(['--storage-backend=etcd3']),
      (e: unknown) => e instanceof OptionsError && e.message === '--etcd-servers must be specified with --storage-backend=etcd3',
    );
    assert.throws(
      () => parse(['--storage-backend=postgres']),
      (e: unknown) => e instanceof OptionsError && e.message === '--storage-backend: "postgres" is not one of sqlite, etcd3',
    );
    assert.throws(
      () => parse(['--watch-cache=maybe']),
      (e: unknown) => e instanceof OptionsError && e.message === '--watch-cache must be true or false',
    );
  }
  assert.throws(() => completeStorageOptions({ storageBackend: 'etcd3', etcdServers: [] }, { etcdPrefix: '/registry' }), OptionsError);
});

test('both usages carry the same storage lines', () => {
  assert.ok(CONTROL_PLANE_USAGE.includes(storageUsage({ sqliteFile: 'kube.db', etcdPrefix: '/registry' })));
  assert.ok(AGGREGATED_USAGE.includes(storageUsage({ sqliteFile: 'aggregated.db', etcdPrefix: '/registry/<groups>' })));
  for (const usage of [CONTROL_PLANE_USAGE, AGGREGATED_USAGE]) {
    for (const flag of [
      '--storage-backend',
      '--etcd-servers',
      '--etcd-prefix',
      '--etcd-compaction-interval',
      '--etcd-healthcheck-timeout',
      '--etcd-readycheck-timeout',
      '--watch-cache',
      '--watch-cache-sizes',
    ]) {
      // the flag's own line: its name followed by a space or '=' (--watch-cache is a prefix of --watch-cache-sizes)
      assert.equal(usage.split(new RegExp(`  ${flag}[ =]`)).length - 1, 1, `${flag} once`);
    }
  }
});

test('the storage configuration: SQLite compaction drops history before the current revision; etcd keeps its timeouts', () => {
  const sqlite = storageConfigFor(completeStorageOptions({ etcdCompactionIntervalMs: 1000 }, { etcdPrefix: '/registry' }), '/d/kube.db');
  assert.deepEqual(sqlite.storageConfig, { backend: { backend: 'sqlite', path: '/d/kube.db', compactionIntervalMs: 1000, retainRevisions: 0 }, watchCache: true });
  assert.equal(sqlite.storageDescription, 'sqlite /d/kube.db');
  const etcd = storageConfigFor(completeStorageOptions({ storageBackend: 'etcd3', etcdServers: ['http://e:2379'], etcdHealthcheckTimeoutMs: 700 }, { etcdPrefix: '/r' }), '/unused');
  assert.deepEqual(etcd.storageConfig, { backend: { backend: 'etcd3', endpoints: ['http://e:2379'], prefix: '/r', healthcheckTimeoutMs: 700, readycheckTimeoutMs: 0 }, watchCache: true });
  assert.equal(etcd.storageDescription, 'etcd3 http://e:2379 prefix /r');
});

test('health checks: etcd and etcd-readiness on etcd, storage on /readyz for SQLite', () => {
  const checks = (backend: 'sqlite' | 'etcd3') => {
    const names: string[] = [];
    const factory = { healthCheck: async () => undefined, readinessCheck: async () => undefined };
    addStorageHealthChecks(
      { addHealthChecks: (...c) => names.push(...c.map((x) => `healthz:${x.name}`)), addReadyzChecks: (...c) => names.push(...c.map((x) => `readyz:${x.name}`)) },
      backend,
      factory,
    );
    return names;
  };
  assert.deepEqual(checks('etcd3'), ['healthz:etcd', 'readyz:etcd-readiness']);
  assert.deepEqual(checks('sqlite'), ['readyz:storage']);
});
