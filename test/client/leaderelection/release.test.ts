// Ports of client-go's leaderelection_test.go: TestReleaseLeaseLeases, TestReleaseMethodCallsGet,
// TestReleaseRetriesOnConflict, TestLeaderElectionConfigValidation (and NewLeaderElector's other checks).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newConflict } from '../../../runtime/apimachinery/errors/index.js';
import type { Action } from '../../../runtime/client/fake/index.js';
import { FakeClock, LeaderElectionConfigError, LeaderElector, newLeaderElector, rawRecord } from '../../../runtime/client/leaderelection/index.js';
import { config, echo, FakeRecorder, leaseClient, lock, lockObject, notFound, reactorClient, record } from './fixtures.js';

const start = Date.parse('2026-11-26T08:00:00Z');

describe('TestReleaseLeaseLeases', () => {
  test('release acquired lock from no object', async () => {
    const unreachable: Action[] = [];
    const client = reactorClient(
      [
        { verb: 'get', reaction: (a) => ({ handled: true, object: lockObject(a, record({ holderIdentity: 'baz' })) }) },
        { verb: 'create', reaction: echo },
        { verb: 'update', reaction: echo },
        { verb: 'get', reaction: notFound },
      ],
      (a) => unreachable.push(a),
    );
    const reported: string[] = [];
    const recorder = new FakeRecorder();
    const le = new LeaderElector(
      config({ lock: lock(client, 'baz', recorder), clock: new FakeClock(start), callbacks: { onStartedLeading: () => {}, onStoppedLeading: () => {}, onNewLeader: (l) => reported.push(l) } }),
    );
    assert.equal(await le.tryAcquireOrRenew(), true);
    le.maybeReportTransition();
    assert.deepEqual(reported, ['baz']);

    assert.equal(await le.release(), true);
    const out = le.observedRecord();
    assert.equal(out.holderIdentity, '');
    assert.equal(out.leaseDurationSeconds, 1);
    assert.equal(out.leaderTransitions, 0);
    // get, update (acquire); get, update (release): the create and the second get are never reached, as in Go.
    assert.deepEqual(
      client.actions().map((a) => a.verb),
      ['get', 'update', 'get', 'update'],
    );
    assert.deepEqual(unreachable, []);
    le.maybeReportTransition();
    assert.deepEqual(reported, ['baz', '']);
    assert.deepEqual(recorder.events, []);
  });

  test('the released Lease has no holder, a one-second duration, and keeps its transitions (on the tracker)', async () => {
    const client = leaseClient();
    const clock = new FakeClock(start);
    const le = new LeaderElector(config({ lock: lock(client), clock }));
    assert.equal(await le.tryAcquireOrRenew(), true);
    assert.equal(await le.release(), true);
    const lease = client.tracker.get({ group: 'coordination.k8s.io', version: 'v1', resource: 'leases' }, 'foo', 'bar') as { spec: unknown };
    assert.deepEqual(lease.spec, {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: '2026-11-26T08:00:00.000000Z',
      renewTime: '2026-11-26T08:00:00.000000Z',
      leaseTransitions: 0,
    });
    assert.equal(le.isLeader(), false);
  });
});

describe('TestReleaseMethodCallsGet', () => {
  test('release reads the lock before writing it', async () => {
    let getCalled = false;
    const client = reactorClient(
      [
        { verb: 'get', reaction: (a) => ((getCalled = true), { handled: true, object: lockObject(a, record({ holderIdentity: 'baz', leaseDurationSeconds: 10 })) }) },
        { verb: 'update', reaction: echo },
      ],
      () => {},
    );
    const clock = new FakeClock(start);
    const le = new LeaderElector(config({ lock: lock(client), clock }));
    le.observe(record({ holderIdentity: 'baz' }), clock.now(), rawRecord(record({ holderIdentity: 'baz' })));
    await le.release();
    assert.equal(getCalled, true, 'release method does not call Get');
  });
});

describe('TestReleaseRetriesOnConflict', () => {
  test('a conflict with a renewal in flight is retried', async () => {
    let conflicted = false;
    const client = reactorClient(
      [
        { verb: 'get', reaction: (a) => ({ handled: true, object: lockObject(a, record({ holderIdentity: 'baz', leaseDurationSeconds: 10 })) }) },
        {
          verb: 'update',
          reaction: (a) => {
            if (!conflicted) {
              conflicted = true;
              return { handled: true, error: newConflict({ group: 'coordination.k8s.io', resource: 'leases' }, 'bar', 'the object has been modified') };
            }
            return echo(a);
          },
        },
      ],
      () => {},
    );
    const clock = new FakeClock(start);
    const le = new LeaderElector(config({ lock: lock(client), clock }));
    le.observe(record({ holderIdentity: 'baz' }), clock.now());
    assert.equal(await le.release(), true, 'release should have succeeded after retrying on conflict');
    assert.equal(conflicted, true, 'expected conflict to have occurred');
    assert.deepEqual(
      client.actions().map((a) => a.verb),
      ['get', 'update', 'get', 'update'],
    );
  });

  test('release of a lock it does not hold writes nothing and succeeds', async () => {
    const client = reactorClient([{ verb: 'get', reaction: (a) => ({ handled: true, object: lockObject(a, record({ holderIdentity: 'bing' })) }) }], () => assert.fail('unreachable'));
    const le = new LeaderElector(config({ lock: lock(client), clock: new FakeClock(start) }));
    assert.equal(await le.release(), true);
  });

  test('release of a lock that does not exist fails', async () => {
    const client = reactorClient([{ verb: 'get', reaction: notFound }], () => assert.fail('unreachable'));
    const le = new LeaderElector(config({ lock: lock(client), clock: new FakeClock(start) }));
    assert.equal(await le.release(), false);
  });
});

describe('TestLeaderElectionConfigValidation', () => {
  const valid = (identity = 'baz') => config({ lock: lock(leaseClient(), identity), leaseDuration: 15_000, renewDeadline: 2_000, retryPeriod: 1_000, releaseOnCancel: true });

  test('a valid config builds; an empty lock identity does not', () => {
    assert.ok(newLeaderElector(valid()) instanceof LeaderElector);
    assert.throws(() => newLeaderElector(valid('')), new LeaderElectionConfigError('Lock identity is empty'));
  });

  test("NewLeaderElector's checks, in its order, with its messages", () => {
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
      ['leaseDuration must be greater than renewDeadline', { leaseDuration: 2_000, renewDeadline: 2_000 }],
      ['renewDeadline must be greater than retryPeriod*JitterFactor', { renewDeadline: 1_200, retryPeriod: 1_000 }],
      ['leaseDuration must be greater than zero', { leaseDuration: 0, renewDeadline: -1, retryPeriod: -2 }],
      ['renewDeadline must be greater than zero', { renewDeadline: 0, retryPeriod: -1 }],
      ['retryPeriod must be greater than zero', { retryPeriod: 0 }],
      ['OnStartedLeading callback must not be nil', { callbacks: { onStoppedLeading: () => {} } }],
      ['OnStoppedLeading callback must not be nil', { callbacks: { onStartedLeading: () => {} } }],
      ['Lock must not be nil.', { lock: undefined }],
    ];
    for (const [message, overrides] of cases) {
      assert.throws(() => newLeaderElector({ ...valid(), ...overrides } as never), new LeaderElectionConfigError(message), message);
    }
    assert.ok(newLeaderElector({ ...valid(), renewDeadline: 1_201, retryPeriod: 1_000 }));
  });
});
