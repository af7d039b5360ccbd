// --workers on the control plane's command line: parsing (a count or auto), kube-style
// validation messages refused before anything starts (exit 2), the usage text, and the storage
// plumbing it switches on (SQLite's shared mode only for workers; without the flag the storage
// configuration is exactly as before). No kube test ports this: kube-apiserver has no such flag.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { completeOptions, OptionsError, parseServerRunOptions, USAGE } from '../../runtime/controlplane/options.js';
import { MAX_WORKERS, resolveWorkers } from '../../runtime/controlplane/workers/flag.js';
import { storageConfigFor } from '../../runtime/server/options/storage.js';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('--workers', () => {
  test('a count or auto; absent is one process', () => {
    assert.equal(parseServerRunOptions([]).workers, undefined);
    assert.equal(resolveWorkers(parseServerRunOptions([]).workers), 1);
    assert.equal(parseServerRunOptions(['--workers', '1']).workers, 1);
    assert.equal(parseServerRunOptions(['--workers=4']).workers, 4);
    assert.equal(parseServerRunOptions(['--workers', 'auto']).workers, 'auto');
    assert.equal(resolveWorkers('auto'), Math.min(MAX_WORKERS, availableParallelism()));
    assert.equal(resolveWorkers(3), 3);
  });

  test('kube-style validation messages', () => {
    for (const v of ['0', '-1', 'x', '1.5', '2e1', '', ' 2', String(MAX_WORKERS + 1), '99999']) {
      assert.throws(
        // The = form: parseArgs refuses `--workers -1` (a value that looks like a flag) before ours.
        () => parseServerRunOptions([`--workers=${v}`]),
        (err: unknown) => err instanceof OptionsError && err.message === `--workers: Invalid value: ${JSON.stringify(v)}: must be auto or an integer between 1 and ${MAX_WORKERS}`,
        v,
      );
    }
  });

  test('the command refuses a bad value with exit 2 before starting anything, and documents the flag', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', join(repoRoot, 'runtime/controlplane/serve.ts'), ...args], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, NODE_OPTIONS: '' },
      });
    const bad = run(['--workers', 'none']);
    assert.equal(bad.status, 2, bad.stderr);
    assert.equal(bad.stderr.trim(), `Error: --workers: Invalid value: "none": must be auto or an integer between 1 and ${MAX_WORKERS}`);
    assert.match(USAGE, /^ {2}--workers N\|auto {2,}/m);
  });

  test("SQLite's shared mode is switched on only for workers (sqliteShared), never by the flags alone", () => {
    const o = completeOptions(parseServerRunOptions(['--workers', '2', '--data-dir', '/tmp/x']), () => {});
    const single = storageConfigFor(o, '/tmp/x/kube.db');
    assert.deepEqual(single.storageConfig.backend, { backend: 'sqlite', path: '/tmp/x/kube.db' });
    assert.equal(single.storageDescription, 'sqlite /tmp/x/kube.db');
    const shared = storageConfigFor({ ...o, sqliteShared: true }, '/tmp/x/kube.db');
    assert.deepEqual(shared.storageConfig.backend, { backend: 'sqlite', path: '/tmp/x/kube.db', shared: true });
    assert.equal(shared.storageDescription, 'sqlite /tmp/x/kube.db (shared)');
    // etcd needs nothing to be shared.
    const etcd = completeOptions(parseServerRunOptions(['--storage-backend', 'etcd3', '--etcd-servers', 'http://127.0.0.1:2379']), () => {});
    assert.deepEqual(storageConfigFor({ ...etcd, sqliteShared: true }, '/unused').storageConfig, storageConfigFor(etcd, '/unused').storageConfig);
  });
});
