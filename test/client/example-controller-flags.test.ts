// The example controller's flags: the process's answers to bad flags, before it contacts any
// server. Its --leader-elect-* durations are Go durations read by the runtime's parseGoDuration
// (runtime/apimachinery/goduration.test.ts ports Go's time.TestParseDuration cases).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../integration/harness.js';

const main = join(repoRoot, 'hack/examples/flunder-controller/main.ts');

describe('example controller flags', () => {
  const run = (args: readonly string[]): { status: number | null; stdout: string; stderr: string } =>
    spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', main, ...args], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: '', KUBECONFIG: '' },
    });

  test('a duration without a unit is refused as the flag package refuses it', () => {
    const r = run(['--leader-elect-lease-duration', '3']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^flunder-controller: invalid argument "3" for "--leader-elect-lease-duration" flag: time: missing unit in duration "3"/);
  });

  test("timings the elector refuses exit 1 with client-go's message", () => {
    // A server that is never contacted: the elector checks its timings before any request.
    const dir = mkdtempSync(join(tmpdir(), 'flunder-flags-'));
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        users: [{ name: 'u', user: { token: 'unused' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    try {
      const r = run(['--kubeconfig', kubeconfig, '--leader-elect-lease-duration', '2s', '--leader-elect-renew-deadline', '2s']);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /^flunder-controller: leaseDuration must be greater than renewDeadline$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--leader-elect takes true or false, and --help names the flags', () => {
    const bad = run(['--leader-elect=maybe']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /invalid argument "maybe" for "--leader-elect" flag/);
    const help = run(['--help']);
    assert.equal(help.status, 0);
    for (const flag of [
      '--leader-elect ',
      '--leader-elect-lease-duration',
      '--leader-elect-renew-deadline',
      '--leader-elect-retry-period',
      '--leader-elect-resource-name',
      '--leader-elect-resource-namespace',
    ]) {
      assert.ok(help.stdout.includes(flag), flag);
    }
  });
});
