// Ports of client-go's tools/leaderelection/leaderelection_test.go: TestTryAcquireOrRenewLeases and
// TestTryCoordinatedRenew, one step of the elector against reactors, with a fake clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Action } from '../../../runtime/client/fake/index.js';
import { EMPTY_RECORD, FakeClock, type LeaderElectionRecord, LeaderElector, rawRecord } from '../../../runtime/client/leaderelection/index.js';
import { config, echo, FakeRecorder, lock, lockObject, notFound, reactorClient, type Reactor, record } from './fixtures.js';

interface Case {
  readonly name: string;
  readonly observedRecord?: LeaderElectionRecord;
  /** Offset from the clock's start, ms. */
  readonly observedTime?: number;
  readonly retryAfter?: number;
  readonly reactors: readonly Reactor[];
  readonly expectSuccess: boolean;
  readonly transitionLeader?: boolean;
  readonly outHolder: string;
}

const HOUR = 3_600_000;
const future = 1000 * HOUR;
const past = -1000 * HOUR;

const getting = (rec?: LeaderElectionRecord): Reactor => ({ verb: 'get', reaction: (a) => ({ handled: true, object: lockObject(a, rec) }) });
const updating: Reactor = { verb: 'update', reaction: echo };

const acquireCases: readonly Case[] = [
  {
    name: 'acquire from no object',
    reactors: [
      { verb: 'get', reaction: notFound },
      { verb: 'create', reaction: echo },
    ],
    expectSuccess: true,
    outHolder: 'baz',
  },
  { name: 'acquire from object without annotations', reactors: [getting(), updating], expectSuccess: true, transitionLeader: true, outHolder: 'baz' },
  {
    name: 'acquire from led object with the lease duration seconds',
    reactors: [getting(record({ holderIdentity: 'bing', leaseDurationSeconds: 3 })), getting(record({ holderIdentity: 'bing', leaseDurationSeconds: 3 })), updating],
    retryAfter: 3_000,
    expectSuccess: true,
    transitionLeader: true,
    outHolder: 'baz',
  },
  { name: 'acquire from unled object', reactors: [getting(record()), updating], expectSuccess: true, transitionLeader: true, outHolder: 'baz' },
  {
    name: 'acquire from led, unacked object',
    reactors: [getting(record({ holderIdentity: 'bing' })), updating],
    observedRecord: record({ holderIdentity: 'bing' }),
    observedTime: past,
    expectSuccess: true,
    transitionLeader: true,
    outHolder: 'baz',
  },
  {
    name: 'acquire from empty led, acked object',
    reactors: [getting(record({ holderIdentity: '' })), updating],
    observedTime: future,
    expectSuccess: true,
    transitionLeader: true,
    outHolder: 'baz',
  },
  { name: "don't acquire from led, acked object", reactors: [getting(record({ holderIdentity: 'bing' }))], observedTime: future, expectSuccess: false, outHolder: 'bing' },
  {
    name: 'renew already acquired object',
    reactors: [getting(record({ holderIdentity: 'baz' })), updating],
    observedTime: future,
    observedRecord: record({ holderIdentity: 'baz' }),
    expectSuccess: true,
    outHolder: 'baz',
  },
];

const coordinatedCases: readonly Case[] = [
  { name: "don't acquire from led, acked object", reactors: [getting(record({ holderIdentity: 'bing' }))], observedTime: future, expectSuccess: false, outHolder: 'bing' },
  {
    name: 'renew already acquired object',
    reactors: [getting(record({ holderIdentity: 'baz' })), updating],
    observedTime: future,
    observedRecord: record({ holderIdentity: 'baz' }),
    expectSuccess: true,
    outHolder: 'baz',
  },
];

async function runCase(c: Case, coordinated: boolean): Promise<void> {
  const clock = new FakeClock(Date.parse('2026-11-26T08:00:00Z'));
  const unreachable: Action[] = [];
  // Time passes during every API call, as with client-go's real clock: the case "don't acquire from led,
  // acked object" depends on it (a record first seen with a zero lease duration is valid only because the
  // observation is stamped after the attempt's `now`).
  const ticking = c.reactors.map((r): Reactor => ({ verb: r.verb, reaction: (a) => (clock.step(1), r.reaction(a)) }));
  const client = reactorClient(ticking, (a) => unreachable.push(a));
  const recorder = new FakeRecorder();
  const reported: string[] = [];
  const le = new LeaderElector(
    config({ lock: lock(client, 'baz', recorder), clock, coordinated, callbacks: { onStartedLeading: () => {}, onStoppedLeading: () => {}, onNewLeader: (l) => reported.push(l) } }),
  );
  const observed = c.observedRecord ?? EMPTY_RECORD;
  le.observe(observed, c.observedTime === undefined ? Number.NEGATIVE_INFINITY : clock.now() + c.observedTime, rawRecord(observed));
  const step = (): Promise<boolean> => (coordinated ? le.tryCoordinatedRenew() : le.tryAcquireOrRenew());

  let succeeded = await step();
  if (succeeded !== c.expectSuccess && c.retryAfter !== undefined) {
    clock.step(c.retryAfter);
    succeeded = await step();
  }
  assert.equal(succeeded, c.expectSuccess, 'unexpected result of tryAcquireOrRenew');
  assert.deepEqual(unreachable, [], 'unreachable action: testclient called too many times');
  const out = le.observedRecord();
  assert.equal(out.holderIdentity, c.outHolder);
  assert.equal(client.actions().length, c.reactors.length, 'wrong number of api interactions');
  assert.equal(out.leaderTransitions, c.transitionLeader === true ? 1 : 0, 'leader transitions');
  le.maybeReportTransition();
  assert.deepEqual(reported, [c.outHolder], 'reported leader was not the new leader');
  assert.deepEqual(recorder.events, []);
}

describe('TestTryAcquireOrRenewLeases', () => {
  for (const c of acquireCases) test(c.name, () => runCase(c, false));
});

describe('TestTryCoordinatedRenew', () => {
  for (const c of coordinatedCases) test(c.name, () => runCase(c, true));
});

describe('tryAcquireOrRenew: what the lease carries', () => {
  test('acquiring writes the holder, the whole-second lease duration, MicroTimes of the local clock and one more transition', async () => {
    const clock = new FakeClock(Date.parse('2026-11-26T08:00:00.123Z') + 0.456);
    const writes: unknown[] = [];
    const client = reactorClient(
      [
        getting(record({ holderIdentity: 'bing', leaderTransitions: 4, acquireTime: '2020-01-01T00:00:00.000001Z', renewTime: '2020-01-01T00:00:01.000000Z' })),
        { verb: 'update', reaction: (a) => (writes.push('object' in a ? a.object : undefined), echo(a)) },
      ],
      () => assert.fail('unreachable'),
    );
    const le = new LeaderElector(config({ lock: lock(client), clock, leaseDuration: 15_999 }));
    assert.equal(await le.tryAcquireOrRenew(), true);
    const spec = (writes[0] as { spec: unknown }).spec;
    assert.deepEqual(spec, {
      holderIdentity: 'baz',
      leaseDurationSeconds: 15,
      acquireTime: '2026-11-26T08:00:00.123456Z',
      renewTime: '2026-11-26T08:00:00.123456Z',
      leaseTransitions: 5,
    });
  });

  test('expiry is measured from the local observation, not the remote renewTime', async () => {
    const clock = new FakeClock(Date.parse('2026-11-26T08:00:00Z'));
    // The holder's renewTime is far in the past (a skewed clock): still, the lease counts as held
    // until this process has watched it unchanged for leaseDurationSeconds.
    const held = record({ holderIdentity: 'bing', leaseDurationSeconds: 10, renewTime: '1999-01-01T00:00:00.000000Z' });
    const client = reactorClient([getting(held), getting(held), getting(held), updating], () => assert.fail('unreachable'));
    const le = new LeaderElector(config({ lock: lock(client), clock }));
    assert.equal(await le.tryAcquireOrRenew(), false);
    clock.step(9_999);
    assert.equal(await le.tryAcquireOrRenew(), false);
    clock.step(1);
    assert.equal(await le.tryAcquireOrRenew(), true);
    assert.equal(le.getLeader(), 'baz');
    assert.equal(le.isLeader(), true);
  });
});
