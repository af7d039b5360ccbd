// Leader election against the real control plane (coordination.k8s.io/v1 Leases on SQLite and etcd):
// two electors on one Lease, as two replicas of a controller would run. Exactly one leads; when the
// leader is cancelled with releaseOnCancel the other takes over within a retry period, and when it
// stops renewing without a word (a killed process) within the lease duration plus one jittered retry.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { restClientFromKubeconfig, type HTTPRESTClient } from '../../../runtime/client/index.js';
import { JITTER_FACTOR, type Lease, LeaderElector, LEASES, LeaseLock } from '../../../runtime/client/leaderelection/index.js';
import { ResourceClient } from '../../../runtime/client/resource-client.js';
import { describeBackends } from '../../integration/harness.js';
import { logger } from './fixtures.js';

const NS = 'leader-election';
const timing = { leaseDuration: 3_000, renewDeadline: 2_000, retryPeriod: 250 } as const;

/** Who leads, by the callbacks: the elector's leading signal aborts when it stops leading. */
class Leadership {
  readonly leading = new Set<string>();
  maxConcurrent = 0;
  readonly started: Array<{ id: string; at: number }> = [];

  callbacksFor(id: string) {
    return {
      onStartedLeading: (signal: AbortSignal) => {
        this.leading.add(id);
        this.maxConcurrent = Math.max(this.maxConcurrent, this.leading.size);
        this.started.push({ id, at: Date.now() });
        signal.addEventListener('abort', () => this.leading.delete(id), { once: true });
      },
      onStoppedLeading: () => {},
    };
  }
}

async function eventually<T>(what: string, fn: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeBackends('leader election on a Lease of the control plane', (get) => {
  const clients: HTTPRESTClient[] = [];
  const client = (): HTTPRESTClient => {
    const rest = restClientFromKubeconfig({ path: get().kubeconfigPath }).rest;
    clients.push(rest);
    return rest;
  };

  before(async () => {
    await client().request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } });
  });
  after(() => {
    for (const c of clients) c.close();
  });

  /** Two electors (one REST client each, as two processes) on the Lease `name`. */
  function pair(name: string, releaseOnCancel: boolean) {
    const leadership = new Leadership();
    const electors = ['replica-a', 'replica-b'].map((id) => {
      const lock = new LeaseLock({ namespace: NS, name, client: client(), lockConfig: { identity: id } });
      const ctl = new AbortController();
      const le = new LeaderElector({ lock, ...timing, releaseOnCancel, name, callbacks: leadership.callbacksFor(id), logger });
      return { id, le, ctl, done: le.run(ctl.signal) };
    });
    const leases = new ResourceClient<Lease>(client(), LEASES, NS);
    return { leadership, electors, leases };
  }

  async function handover(name: string, releaseOnCancel: boolean): Promise<{ ms: number; lease: Lease }> {
    const { leadership, electors, leases } = pair(name, releaseOnCancel);
    const firstId = await eventually('a leader', () => leadership.started[0]?.id);
    // Both keep campaigning for a while: the follower must not take the lease while it is renewed.
    await new Promise((r) => setTimeout(r, timing.leaseDuration + 500));
    assert.deepEqual([...leadership.leading], [firstId]);
    assert.equal(leadership.started.length, 1);
    for (const e of electors) assert.equal(e.le.getLeader(), firstId, `${e.id} sees ${firstId} leading`);
    const held = await leases.get(name);
    assert.equal(held.spec?.holderIdentity, firstId);
    assert.equal(held.spec?.leaseDurationSeconds, timing.leaseDuration / 1000);

    const leader = electors.find((e) => e.id === firstId);
    const follower = electors.find((e) => e.id !== firstId);
    assert.ok(leader && follower);
    const stoppedAt = Date.now();
    leader.ctl.abort();
    await leader.done;
    const next = await eventually('the follower to lead', () => leadership.started[1], timing.leaseDuration * 3);
    assert.equal(next.id, follower.id);
    assert.equal(leadership.maxConcurrent, 1, 'two leaders at once');
    const lease = await leases.get(name);
    assert.equal(lease.spec?.holderIdentity, follower.id);
    follower.ctl.abort();
    await follower.done;
    return { ms: next.at - stoppedAt, lease };
  }

  it('exactly one of two leads; cancelled with releaseOnCancel, it hands over within a jittered retry period', async (t) => {
    const { ms, lease } = await handover('released', true);
    t.diagnostic(`handover after release: ${ms} ms`);
    assert.ok(ms < (1 + JITTER_FACTOR) * timing.retryPeriod + 1_000, `handover took ${ms} ms`);
    assert.ok(ms < timing.leaseDuration, `handover took ${ms} ms, not less than the lease duration`);
    assert.equal(lease.spec?.leaseTransitions, 1);
  });

  it('a leader that stops renewing without releasing (a killed process) is replaced within the lease duration plus a jittered retry', async (t) => {
    const { ms, lease } = await handover('abandoned', false);
    t.diagnostic(`handover after the leader went silent: ${ms} ms (lease duration ${timing.leaseDuration} ms)`);
    // The follower restarts its expiry clock when the record's JSON changes, and that JSON carries whole
    // seconds (client-go's metav1.Time): it last saw a change up to a second plus one jittered retry before
    // the leader went silent, and takes over on its first attempt a lease duration, on its own clock, after that.
    const earliest = timing.leaseDuration - 1_000 - (1 + JITTER_FACTOR) * timing.retryPeriod - 250;
    const latest = timing.leaseDuration + (1 + JITTER_FACTOR) * timing.retryPeriod + 1_000;
    assert.ok(ms >= earliest && ms <= latest, `handover took ${ms} ms, expected ${earliest}..${latest}`);
    assert.equal(lease.spec?.leaseTransitions, 1);
  });
});
