// Ports of client-go's leaderelection_test.go that drive LeaderElector.Run: TestFastPathLeaderElection,
// TestReleaseOnCancellation_Leases, TestCheckMethodRace; and run's own contract (losing the lease,
// callbacks). Real clock with short periods, as the Go tests run on the real clock.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { newConflict } from '../../../runtime/apimachinery/errors/index.js';
import type { Action, Reaction } from '../../../runtime/client/fake/index.js';
import { LeaderElector } from '../../../runtime/client/leaderelection/index.js';
import { echo, FakeRecorder, leaseClient, lock, logger, notFound, reactorClient, type Reactor } from './fixtures.js';

const fast = { leaseDuration: 1_000, renewDeadline: 200, retryPeriod: 50 } as const;
const canceled = (): Reaction => ({ handled: true, error: new Error('context canceled') });

/** A lease store for reactors: get answers the last object written, or 404. */
function lockStore() {
  let lockObj: unknown;
  return {
    get: (a: Action): Reaction => (lockObj === undefined ? notFound(a) : { handled: true, object: lockObj }),
    write: (a: Action): Reaction => {
      lockObj = 'object' in a ? a.object : undefined;
      return echo(a);
    },
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('TestFastPathLeaderElection', () => {
  const cases: ReadonlyArray<{ name: string; update: (n: number, a: Action, cancel: () => void) => Reaction | undefined; expectedLockOps: string[] }> = [
    {
      name: 'Exercise fast path after lock acquired',
      update: (n, _a, cancel) => (n === 2 ? (cancel(), undefined) : undefined),
      expectedLockOps: ['get', 'create', 'update', 'update'],
    },
    {
      name: 'Fallback to slow path after fast path fails',
      update: (n, _a, cancel) => {
        if (n === 2) return { handled: true, error: newConflict({ group: 'coordination.k8s.io', resource: 'leases' }, 'fake conflict', 'the object has been modified') };
        if (n === 4) cancel();
        return undefined;
      },
      expectedLockOps: ['get', 'create', 'update', 'update', 'get', 'update', 'update'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const store = lockStore();
      const ops: string[] = [];
      const ctl = new AbortController();
      let updates = 0;
      const reactors: Reactor[] = [
        { verb: 'get', reaction: (a) => (ops.push('get'), store.get(a)) },
        { verb: 'create', reaction: (a) => (ops.push('create'), store.write(a)) },
        { verb: 'update', reaction: (a) => (ops.push('update'), c.update(++updates, a, () => ctl.abort()) ?? store.write(a)) },
      ];
      const client = reactorClient(reactors, (a) => assert.fail(`unreachable action ${a.verb}`));
      const le = new LeaderElector({ lock: lock(client, 'baz', new FakeRecorder()), ...fast, callbacks: { onStartedLeading: () => {}, onStoppedLeading: () => {} }, logger });
      await le.run(ctl.signal);
      assert.deepEqual(ops, c.expectedLockOps);
    });
  }
});

describe('TestReleaseOnCancellation_Leases', () => {
  const cases: ReadonlyArray<{ name: string; build: (s: Signals) => Reactor[] }> = [
    {
      name: 'release acquired lock on cancellation of update',
      build: (s) => {
        const store = lockStore();
        let updates = 0;
        return [
          { verb: 'get', reaction: store.get },
          { verb: 'create', reaction: store.write },
          {
            verb: 'update',
            reaction: async (a) => {
              updates++;
              if (updates % 2 === 1 && updates < 5) return canceled(); // the fast path of the first two renewals
              if (updates === 4) {
                s.renewCalled.resolve();
                await s.renewResume.promise;
                return canceled();
              }
              if (updates === 5) s.released.resolve();
              return store.write(a);
            },
          },
        ];
      },
    },
    {
      name: 'release acquired lock on cancellation of get',
      build: (s) => {
        const store = lockStore();
        let gets = 0;
        let updates = 0;
        let created = false;
        return [
          {
            verb: 'get',
            reaction: async (a) => {
              gets++;
              if (created && gets >= 4) {
                if (gets === 4) {
                  s.renewCalled.resolve();
                  await s.renewResume.promise;
                }
                return canceled();
              }
              return store.get(a);
            },
          },
          { verb: 'create', reaction: (a) => ((created = true), store.write(a)) },
          {
            verb: 'update',
            reaction: (a) => {
              updates++;
              if (updates % 2 === 1) return canceled(); // always skip the fast path
              if (updates === 4) s.released.resolve();
              return store.write(a);
            },
          },
        ];
      },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const s: Signals = { newLeader: deferred(), renewCalled: deferred(), renewResume: deferred(), released: deferred() };
      const recorder = new FakeRecorder();
      const client = reactorClient(c.build(s), (a) => assert.fail(`unreachable action ${a.verb}`));
      const le = new LeaderElector({
        lock: lock(client, 'baz', recorder),
        leaseDuration: 15_000,
        renewDeadline: 2_000,
        retryPeriod: 50,
        releaseOnCancel: true,
        callbacks: { onNewLeader: () => {}, onStoppedLeading: () => {}, onStartedLeading: () => s.newLeader.resolve() },
        logger,
      });
      const ctl = new AbortController();
      const running = le.run(ctl.signal);
      await within(s.newLeader.promise, 'failed to become the leader');
      await within(s.renewCalled.promise, 'the elector failed to renew the lock');
      ctl.abort();
      s.renewResume.resolve();
      await within(s.released.promise, 'the lock was not released');
      await running;
      assert.deepEqual(recorder.events, ['Normal LeaderElection baz became leader', 'Normal LeaderElection baz stopped leading']);
    });
  }
});

interface Signals {
  newLeader: ReturnType<typeof deferred>;
  renewCalled: ReturnType<typeof deferred>;
  renewResume: ReturnType<typeof deferred>;
  released: ReturnType<typeof deferred>;
}

async function within(p: Promise<void>, message: string): Promise<void> {
  const timeout = new AbortController();
  await Promise.race([p, sleep(10_000, undefined, { signal: timeout.signal }).then(() => assert.fail(message))]);
  timeout.abort();
}

describe('TestCheckMethodRace', () => {
  test('check while run renews aggressively reports a healthy leader', async () => {
    const client = leaseClient();
    const le = new LeaderElector({
      lock: lock(client),
      leaseDuration: 2_000,
      renewDeadline: 1_000,
      retryPeriod: 5,
      callbacks: { onNewLeader: () => {}, onStartedLeading: () => {}, onStoppedLeading: () => {} },
      logger,
    });
    const ctl = new AbortController();
    const running = le.run(ctl.signal);
    const start = Date.now();
    while (Date.now() - start < 300) {
      assert.equal(le.check(1_000), undefined);
      await sleep(10);
    }
    assert.equal(le.isLeader(), true);
    ctl.abort();
    await running;
  });
});

describe('LeaderElector.run', () => {
  test('a leader that cannot renew within renewDeadline stops leading: its signal aborts, onStoppedLeading runs, run resolves', async () => {
    const client = leaseClient();
    let failing = false;
    client.prependReactor('update', 'leases', () => (failing ? { handled: true, error: new Error('connection refused') } : { handled: false }));
    const events: string[] = [];
    let leadingSignal: AbortSignal | undefined;
    const le = new LeaderElector({
      lock: lock(client),
      ...fast,
      callbacks: {
        onStartedLeading: (signal) => {
          leadingSignal = signal;
          events.push('started');
        },
        onStoppedLeading: () => events.push('stopped'),
        onNewLeader: (id) => events.push(`leader ${id}`),
      },
      logger,
    });
    const running = le.run(new AbortController().signal);
    while (!le.isLeader()) await sleep(5);
    failing = true;
    const failedAt = Date.now();
    await running;
    const elapsed = Date.now() - failedAt;
    assert.ok(elapsed >= fast.renewDeadline - 5, `gave up after ${elapsed} ms, before renewDeadline`);
    assert.ok(elapsed < fast.leaseDuration, `gave up after ${elapsed} ms, past the lease duration`);
    assert.equal(leadingSignal?.aborted, true);
    assert.deepEqual(events, ['leader baz', 'started', 'stopped']);
  });

  test('onStoppedLeading runs also when run is cancelled before it ever led', async () => {
    const client = leaseClient();
    await lock(client, 'other').create({ holderIdentity: 'other', leaseDurationSeconds: 60, acquireTime: undefined, renewTime: undefined, leaderTransitions: 0, strategy: '', preferredHolder: '' });
    const events: string[] = [];
    const le = new LeaderElector({
      lock: lock(client),
      ...fast,
      callbacks: {
        onStartedLeading: () => {
          events.push('started');
        },
        onStoppedLeading: () => events.push('stopped'),
        onNewLeader: (id) => events.push(`leader ${id}`),
      },
      logger,
    });
    const ctl = new AbortController();
    const running = le.run(ctl.signal);
    await sleep(150);
    ctl.abort();
    await running;
    assert.deepEqual(events, ['leader other', 'stopped']);
    assert.equal(le.getLeader(), 'other');
  });
});
