// LeaderElector.run on a fake clock over the fake clientset's tracker: the timing of client-go's loops
// (wait.JitterUntil while acquiring, wait.PollUntilContextTimeout within renewDeadline while renewing)
// checked tick by tick instead of by sleeping.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FakeClock, JITTER_FACTOR, LeaderElector } from '../../../runtime/client/leaderelection/index.js';
import { leaseClient, lock, logger, record } from './fixtures.js';

async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
}

/** Moves the clock to each next sleeper's deadline once everything else has settled, until `done` resolves; returns the times it stopped at. */
async function drive(clock: FakeClock, done: Promise<void>, onIdle: () => void = () => {}): Promise<number[]> {
  let finished = false;
  void done.then(() => (finished = true));
  const stops: number[] = [];
  for (let i = 0; i < 1_000; i++) {
    await settle();
    if (finished) return stops;
    onIdle();
    const next = clock.nextWake();
    if (next === undefined) throw new Error('the elector waits on nothing the clock can end');
    stops.push(next);
    clock.setTime(next);
  }
  throw new Error('the elector did not finish');
}

const start = Date.parse('2026-11-26T08:00:00Z');
const timing = { leaseDuration: 15_000, renewDeadline: 10_000, retryPeriod: 2_000 } as const;

describe('LeaderElector.run on a fake clock', () => {
  test('while another holds the lease, attempts come every retryPeriod stretched by up to JitterFactor, and the lease is taken once it went unrenewed for leaseDuration', async () => {
    const client = leaseClient();
    await lock(client, 'other').create(record({ holderIdentity: 'other', leaseDurationSeconds: 15 }));
    const clock = new FakeClock(start);
    const ctl = new AbortController();
    let ledAt: number | undefined;
    const le = new LeaderElector({
      lock: lock(client),
      ...timing,
      clock,
      logger,
      callbacks: {
        onStartedLeading: () => {
          ledAt = clock.now();
          ctl.abort();
        },
        onStoppedLeading: () => {},
      },
    });
    const stops = await drive(clock, le.run(ctl.signal));
    const gets = client.actions().filter((a) => a.verb === 'get').length;
    const led = ledAt;
    assert.ok(led !== undefined);
    const waited = led - start;
    assert.ok(waited >= timing.leaseDuration, `took the lease after ${waited} ms`);
    assert.ok(waited < timing.leaseDuration + (1 + JITTER_FACTOR) * timing.retryPeriod, `took the lease after ${waited} ms`);
    let prev = start;
    for (const at of stops.filter((s) => s <= led)) {
      assert.ok(at - prev >= timing.retryPeriod && at - prev < (1 + JITTER_FACTOR) * timing.retryPeriod, `retried after ${at - prev} ms`);
      prev = at;
    }
    assert.equal(gets, stops.filter((s) => s <= led).length + 1);
    assert.equal(le.getLeader(), 'baz');
    assert.equal(le.observedRecord().leaderTransitions, 1);
  });

  test('a leader whose renewals fail retries on retryPeriod ticks and gives up at renewDeadline', async () => {
    const client = leaseClient();
    let failing = false;
    client.prependReactor('update', 'leases', () => (failing ? { handled: true, error: new Error('connection refused') } : { handled: false }));
    const clock = new FakeClock(start);
    let stoppedLeadingAt: number | undefined;
    let failedFrom: number | undefined;
    const le = new LeaderElector({
      lock: lock(client),
      ...timing,
      clock,
      logger,
      callbacks: {
        onStartedLeading: (signal) => signal.addEventListener('abort', () => (stoppedLeadingAt = clock.now())),
        onStoppedLeading: () => {},
      },
    });
    await drive(clock, le.run(new AbortController().signal), () => {
      // After two good renewals the API server stops accepting writes.
      if (failedFrom === undefined && client.actions().filter((a) => a.verb === 'update').length === 2) {
        failing = true;
        failedFrom = clock.now();
        client.clearActions();
      }
    });
    assert.ok(failedFrom !== undefined && stoppedLeadingAt !== undefined);
    // The renewal that starts a retryPeriod after the last good one tries at once, then at +2 s, +4 s… until +10 s.
    assert.equal(stoppedLeadingAt - failedFrom, timing.retryPeriod + timing.renewDeadline);
    const attempts = timing.renewDeadline / timing.retryPeriod; // ticks at 0, 2, 4, 6, 8 s; the deadline ends the one due at 10 s
    assert.deepEqual(
      client.actions().map((a) => a.verb),
      Array.from({ length: attempts }, () => ['update', 'get', 'update']).flat(),
    );
  });
});
