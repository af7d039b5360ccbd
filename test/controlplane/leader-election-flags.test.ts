// kube-controller-manager's --leader-elect flags on the control plane's command line: kube's
// defaults (component-base RecommendedDefaultLeaderElectionConfiguration) and kube's validation
// (ValidateLeaderElectionConfiguration, then client-go's NewLeaderElector check), refused as
// OptionsError before anything starts; the identity kept in the data dir.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { completeOptions, OptionsError, parseServerRunOptions } from '../../runtime/controlplane/options.js';
import { electionIdentity, IDENTITY_FILE } from '../../runtime/controlplane/leaderelection/identity.js';

const complete = (argv: string[]) => completeOptions(parseServerRunOptions(argv), () => {}).leaderElection;

describe('--leader-elect flags', () => {
  test("kube-controller-manager's defaults", () => {
    assert.deepEqual(complete([]), {
      leaderElect: true,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      resourceLock: 'leases',
      resourceName: 'kube-controller-manager',
      resourceNamespace: 'kube-system',
      identitySuffix: '',
    });
  });

  test('Go durations and names; --leader-elect alone is true, =false turns the election off', () => {
    const c = complete([
      '--leader-elect',
      '--leader-elect-lease-duration',
      '1m30s',
      '--leader-elect-renew-deadline=20s',
      '--leader-elect-retry-period',
      '500ms',
      '--leader-elect-resource-name',
      'kcm',
      '--leader-elect-resource-namespace',
      'ops',
    ]);
    assert.deepEqual([c.leaderElect, c.leaseDurationMs, c.renewDeadlineMs, c.retryPeriodMs, c.resourceName, c.resourceNamespace], [true, 90_000, 20_000, 500, 'kcm', 'ops']);
    assert.equal(complete(['--leader-elect=false']).leaderElect, false);
    // Not validated when not electing, as kube.
    assert.equal(complete(['--leader-elect=false', '--leader-elect-lease-duration', '0s']).leaseDurationMs, 0);
  });

  test("kube's validation messages", () => {
    const refused = (argv: string[], message: string) =>
      assert.throws(
        () => complete(argv),
        (err: unknown) => err instanceof OptionsError && err.message === message,
      );
    refused(['--leader-elect-lease-duration', '0s'], '--leader-elect-lease-duration: Invalid value: "0s": must be greater than zero');
    refused(['--leader-elect-renew-deadline', '0s'], '--leader-elect-renew-deadline: Invalid value: "0s": must be greater than zero');
    refused(['--leader-elect-retry-period', '0s'], '--leader-elect-retry-period: Invalid value: "0s": must be greater than zero');
    refused(['--leader-elect-lease-duration', '10s'], '--leader-elect-lease-duration: Invalid value: "10s": LeaseDuration must be greater than RenewDeadline');
    refused(['--leader-elect-resource-lock', 'configmaps'], '--leader-elect-resource-lock: Invalid value: "configmaps": only "leases" is supported');
    refused(['--leader-elect-resource-name', ''], '--leader-elect-resource-name: Invalid value: "": resourceName is required');
    refused(['--leader-elect-retry-period', '9s'], 'leader election: renewDeadline must be greater than retryPeriod*JitterFactor');
    assert.throws(() => parseServerRunOptions(['--leader-elect=yes']), OptionsError);
    assert.throws(() => parseServerRunOptions(['--leader-elect-lease-duration', '15']), OptionsError);
  });
});

describe('election identity', () => {
  test("client-go's <hostname>_<uuid>, made once per data dir; a suffix tells processes sharing it apart", () => {
    const dir = mkdtempSync(join(tmpdir(), 'le-identity-'));
    try {
      const id = electionIdentity(dir);
      assert.match(id, /^.+_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.equal(electionIdentity(dir), id);
      assert.equal(readFileSync(join(dir, IDENTITY_FILE), 'utf8').trim(), id);
      assert.equal(electionIdentity(dir, 'worker-1'), `${id}_worker-1`);
      // A damaged file is replaced, not trusted.
      writeFileSync(join(dir, IDENTITY_FILE), 'two\nlines');
      const fresh = electionIdentity(dir);
      assert.notEqual(fresh, id);
      assert.equal(electionIdentity(dir), fresh);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
