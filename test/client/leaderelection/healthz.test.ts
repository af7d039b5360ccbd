// Port of client-go's tools/leaderelection/healthzadaptor_test.go: TestLeaderElectionHealthChecker.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HealthChecker } from '../../../runtime/server/healthz.js';
import { FakeClock, LeaderElector, LeaderHealthzAdaptor, type ResourceLock } from '../../../runtime/client/leaderelection/index.js';
import { logger, record } from './fixtures.js';

/** fakeLock: an identity and nothing else (the health check never touches the lock). */
function fakeLock(identity: string): ResourceLock {
  const unused = (): never => assert.fail('the health check must not call the lock');
  return { get: unused, create: unused, update: unused, recordEvent: () => {}, identity: () => identity, describe: () => 'Dummy implementation of lock for testing' };
}

const MINUTE = 60_000;
const current = Date.parse('2026-11-26T08:00:00Z');

function elector(holder: string, clockAt: number): LeaderElector {
  const le = new LeaderElector({
    lock: fakeLock('healthTest'),
    leaseDuration: MINUTE,
    renewDeadline: 10_000,
    retryPeriod: 2_000,
    name: 'foo',
    callbacks: { onStartedLeading: () => {}, onStoppedLeading: () => {} },
    clock: new FakeClock(clockAt),
    logger,
  });
  le.observe(record({ holderIdentity: holder }), current);
  return le;
}

describe('TestLeaderElectionHealthChecker', () => {
  const cases: ReadonlyArray<{ description: string; expected?: string; elector?: LeaderElector }> = [
    { description: 'call check before leader elector initialized' },
    { description: 'call check when the lease is far expired', expected: 'failed election to renew leadership on lease foo', elector: elector('healthTest', current + 60 * MINUTE) },
    { description: 'call check when the lease is far expired but held by another server', elector: elector('otherServer', current + 60 * MINUTE) },
    { description: 'call check when the lease is not expired', elector: elector('healthTest', current) },
    { description: 'call check when the lease is expired but inside the timeout', elector: elector('healthTest', current + MINUTE + 1_000) },
  ];
  for (const c of cases) {
    test(c.description, async () => {
      const adaptor = new LeaderHealthzAdaptor(20_000);
      assert.equal(adaptor.name, 'leaderElection');
      if (c.elector !== undefined) adaptor.setLeaderElection(c.elector);
      if (c.expected === undefined) await adaptor.check();
      else await assert.rejects(adaptor.check(), new Error(c.expected));
    });
  }

  test('the boundary: healthy at exactly leaseDuration + timeout, failing just past it', async () => {
    const adaptor = new LeaderHealthzAdaptor(20_000);
    adaptor.setLeaderElection(elector('healthTest', current + MINUTE + 20_000));
    await adaptor.check();
    adaptor.setLeaderElection(elector('healthTest', current + MINUTE + 20_001));
    await assert.rejects(adaptor.check(), /failed election to renew leadership on lease foo/);
  });

  test("the adaptor is a check the server's /healthz takes", async () => {
    const check: HealthChecker = new LeaderHealthzAdaptor(20_000);
    assert.equal(check.name, 'leaderElection');
    await check.check(new AbortController().signal);
  });
});
