// Issue 16's acceptance for the example controller: two replicas (two processes) under leader
// election on a Lease of the control plane. Exactly one leads and only it reconciles; `kill -9`
// of the leader hands over within the lease duration plus a jittered retry period (client-go's
// bound, measured); SIGTERM releases the lease (releaseOnCancel) and hands over faster. The
// controller's events on Flunders and the elector's LeaderElection events on the Lease are core/v1
// events of the server, and `kubectl events --for flunder/<name>` shows them. Ports the process
// side of client-go's leaderelection tests (TestLeaderElectionRelease, the expired-lease takeover)
// to a controller, as kube's controller-manager runs them.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { defaultRetry, leaderelection, retryOnConflict, type HTTPRESTClient } from '../../runtime/client/index.js';
import { describeBackends, repoRoot } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';
import { adminClient, eventually } from './integration/informer-harness.js';

const NS = 'example-le';
const LEASE_NS = 'kube-system';
const LONG = 2 * 60_000;
const main = join(repoRoot, 'hack/examples/flunder-controller/main.ts');
/** Short timings, as the election tests use: lease 3 s, renew 2 s, retry 0.5 s. */
const timing = { leaseDuration: 3_000, renewDeadline: 2_000, retryPeriod: 500 } as const;
/** Whole seconds of the Lease's times, plus a request's latency on a loaded machine. */
const SLACK = 1_000;

/** One replica: its own process, its identity read from its first lines. */
class Replica {
  output = '';
  private constructor(readonly proc: ChildProcess) {
    proc.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  static start(kubeconfig: string, lease: string): Replica {
    const args = [
      '--kubeconfig',
      kubeconfig,
      '--leader-elect-lease-duration',
      `${timing.leaseDuration}ms`,
      '--leader-elect-renew-deadline',
      `${timing.renewDeadline}ms`,
      '--leader-elect-retry-period',
      `${timing.retryPeriod}ms`,
      '--leader-elect-resource-name',
      lease,
    ];
    const proc = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', KUBECONFIG: '' },
    });
    return new Replica(proc);
  }

  get identity(): string {
    return /leader election on lease \S+ as (\S+)/.exec(this.output)?.[1] ?? '';
  }

  /** Whether it wrote any Flunder's status (the log line of each write). */
  reconciled(name?: string): boolean {
    return name === undefined ? /^flunder \S+: /m.test(this.output) : new RegExp(`^flunder ${NS}/${name}: `, 'm').test(this.output);
  }

  get exited(): boolean {
    return this.proc.exitCode !== null || this.proc.signalCode !== null;
  }

  async signal(sig: NodeJS.Signals): Promise<number | null> {
    if (this.exited) return this.proc.exitCode;
    const exited = once(this.proc, 'exit');
    this.proc.kill(sig);
    const [code] = (await exited) as [number | null];
    return code;
  }
}

const flunder = (name: string): Flunder => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name } });

describeBackends('example flunder controller under leader election', (get) => {
  let rest: HTTPRESTClient;
  let cs: Clientset;
  const replicas: Replica[] = [];
  const kubectl = new Kubectl(get);

  before(async () => {
    rest = adminClient(get().kubeconfigPath);
    cs = new Clientset(rest);
    await cs
      .coreV1()
      .namespaces()
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  after(async () => {
    for (const r of replicas) await r.signal('SIGKILL');
    rest.close();
  });

  const start = (lease: string): Replica => {
    const r = Replica.start(get().kubeconfigPath, lease);
    replicas.push(r);
    return r;
  };
  const outputs = (): string => replicas.map((r, i) => `--- replica ${i} (${r.identity}) ---\n${r.output.slice(-3000)}`).join('\n');
  const holder = async (lease: string): Promise<string> => {
    try {
      return (await cs.coordinationV1().leases(LEASE_NS).get(lease)).spec?.holderIdentity ?? '';
    } catch {
      return '';
    }
  };
  /** Polls until `check` holds; resolves with the time it first did. */
  const when = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = LONG): Promise<number> => {
    let at = 0;
    await eventually(
      async () => {
        if (!(await check())) return false;
        at = Date.now();
        return true;
      },
      timeoutMs,
      () => `${what}\n${outputs()}`,
    );
    return at;
  };
  const synced = async (name: string): Promise<boolean> => {
    const f = await cs.wardleV1alpha1().flunders(NS).get(name);
    return (f.status?.conditions ?? []).some((c) => c.type === 'Allowed');
  };
  const eventsFor = async (ns: string, kind: string, name: string) => (await cs.coreV1().events(ns).list()).items.filter((e) => e.involvedObject?.kind === kind && e.involvedObject.name === name);

  test('exactly one of two replicas leads and reconciles; kill -9 of the leader hands over within the lease duration; SIGTERM releases the lease', { timeout: 3 * LONG }, async (t) => {
    const lease = 'flunder-controller-handover';
    const a = start(lease);
    const b = start(lease);
    await when('both replicas campaign', () => a.identity !== '' && b.identity !== '');
    let leaderId = '';
    await when('a replica holds the lease', async () => {
      leaderId = await holder(lease);
      return leaderId === a.identity || leaderId === b.identity;
    });
    const [leader, follower] = leaderId === a.identity ? [a, b] : [b, a];

    await cs.wardleV1alpha1().flunders(NS).create(flunder('one'));
    await when('the leader reconciles one', () => leader.reconciled('one'));
    // The follower keeps campaigning for more than a lease duration without taking over or reconciling.
    await new Promise((r) => setTimeout(r, timing.leaseDuration + 2 * timing.retryPeriod));
    assert.equal(await holder(lease), leader.identity, outputs());
    assert.ok(!follower.reconciled(), `the follower reconciled:\n${outputs()}`);
    assert.doesNotMatch(follower.output, /started leading/);

    // The leader's events: Synced on the Flunder, reported by it; "became leader" on the Lease.
    const synced1 = await when('the Synced event of one', async () => (await eventsFor(NS, 'Flunder', 'one')).some((e) => e.reason === 'Synced'));
    assert.ok(synced1 > 0);
    const [ev] = (await eventsFor(NS, 'Flunder', 'one')).filter((e) => e.reason === 'Synced');
    assert.equal(ev?.type, 'Normal');
    assert.equal(ev?.message, 'Flunder synced successfully');
    assert.equal(ev?.reportingComponent, 'flunder-controller');
    assert.equal(ev?.reportingInstance, leader.identity);
    assert.deepEqual({ ...ev?.source }, { component: 'flunder-controller', host: leader.identity });
    await when('the LeaderElection event on the Lease', async () =>
      (await eventsFor(LEASE_NS, 'Lease', lease)).some((e) => e.reason === 'LeaderElection' && e.message === `${leader.identity} became leader`),
    );

    // kill -9: no release; the follower waits out the lease it last saw renewed.
    const killedAt = Date.now();
    await leader.signal('SIGKILL');
    await cs.wardleV1alpha1().flunders(NS).create(flunder('two'));
    const heldAt = await when('the follower holds the lease', async () => (await holder(lease)) === follower.identity);
    const reconciledAt = await when('the follower reconciles two', () => synced('two'));
    const handover = heldAt - killedAt;
    const bound = timing.leaseDuration + (1 + leaderelection.JITTER_FACTOR) * timing.retryPeriod;
    t.diagnostic(`kill -9: the follower held the lease after ${handover} ms, reconciled a new Flunder after ${reconciledAt - killedAt} ms (bound ${bound} ms + ${SLACK} ms slack)`);
    assert.ok(handover <= bound + SLACK, `handover took ${handover} ms, more than ${bound} + ${SLACK} ms`);
    // The new leader starts its informers only now: a cache sync on top of the handover.
    assert.ok(reconciledAt - killedAt <= bound + 2 * SLACK, `the new Flunder was reconciled ${reconciledAt - killedAt} ms after the kill`);
    assert.ok(handover >= timing.leaseDuration - 1_000 - (1 + leaderelection.JITTER_FACTOR) * timing.retryPeriod, `the follower took over a lease that had not expired (${handover} ms)`);
    // The status write is visible through the API before the line logging it reaches our pipe.
    await when('the follower logs its write of two', () => follower.reconciled('two'));
    assert.ok(!leader.reconciled('two'));

    // SIGTERM of the new leader releases the lease: a fresh replica takes over within a retry, well inside a lease duration.
    const c = start(lease);
    await when('the third replica campaigns', () => c.identity !== '');
    await new Promise((r) => setTimeout(r, 2 * timing.retryPeriod));
    assert.equal(await holder(lease), follower.identity);
    const termAt = Date.now();
    assert.equal(await follower.signal('SIGTERM'), 0, outputs());
    const releasedAt = await when('the third replica holds the lease', async () => (await holder(lease)) === c.identity);
    t.diagnostic(`SIGTERM: the next replica held the lease after ${releasedAt - termAt} ms`);
    assert.ok(releasedAt - termAt < timing.leaseDuration, `handover after release took ${releasedAt - termAt} ms`);
    assert.match(follower.output, /flunder-controller: stopped/);
    await cs.wardleV1alpha1().flunders(NS).create(flunder('three'));
    await when('the third replica reconciles three', () => c.reconciled('three'));
    assert.equal(await c.signal('SIGTERM'), 0, outputs());
  });

  test('a leader that loses its lease stops and exits 1, as kube-controller-manager does', { timeout: LONG }, async (t) => {
    const lease = 'flunder-controller-lost';
    const r = start(lease);
    await when('the replica holds the lease', async () => r.identity !== '' && (await holder(lease)) === r.identity);
    await when('the replica started leading', () => /started leading/.test(r.output));
    // Another holder takes the lease over behind its back (a fresh renewTime and a long duration):
    // its renewals fail from now on, and after the renew deadline it stops leading.
    const leases = cs.coordinationV1().leases(LEASE_NS);
    // The replica renews concurrently, so the takeover is a read-modify-write retried on conflict.
    let takenAt = 0;
    await retryOnConflict(defaultRetry, async () => {
      const held = await leases.get(lease);
      const now = new Date().toISOString().replace('Z', '000Z');
      takenAt = Date.now();
      await leases.update({ ...held, spec: { ...held.spec, holderIdentity: 'intruder', renewTime: now, acquireTime: now, leaseDurationSeconds: 60 } });
    });
    const [code] = (await once(r.proc, 'exit')) as [number | null];
    const exitedAfter = Date.now() - takenAt;
    t.diagnostic(`the replica exited ${exitedAfter} ms after losing its lease (renew deadline ${timing.renewDeadline} ms)`);
    // It retries renewing every retry period until the renew deadline has passed.
    assert.ok(exitedAfter <= timing.renewDeadline + timing.retryPeriod + SLACK, `exited ${exitedAfter} ms after losing its lease`);
    assert.equal(code, 1, r.output);
    assert.match(r.output, /flunder-controller: leaderelection lost/);
    assert.doesNotMatch(r.output, /flunder-controller: stopped/);
    assert.equal(await holder(lease), 'intruder', 'the replica did not take the lease back');
  });

  test("kubectl events --for shows the controller's event", { skip: kubectlUnavailable() ?? false, timeout: LONG }, async () => {
    await when('the Synced event of three', async () => (await eventsFor(NS, 'Flunder', 'three')).some((e) => e.reason === 'Synced'));
    // kubectl's field selector (kubectl events --for): kind, apiVersion and name of the involved object.
    const selected = await cs.coreV1().events(NS).list({ fieldSelector: 'involvedObject.kind=Flunder,involvedObject.apiVersion=wardle.example.com/v1alpha1,involvedObject.name=three' });
    assert.deepEqual(
      selected.items.map((e) => e.reason),
      ['Synced'],
      JSON.stringify((await cs.coreV1().events(NS).list()).items.map((e) => e.involvedObject)),
    );
    // The controller refers to Flunders in v1alpha1 (the version it reads and writes), and kubectl
    // selects on the version it resolves: the fully qualified resource names it.
    const r = await kubectl.run(['events', '-n', NS, '--for', 'flunder.v1alpha1.wardle.example.com/three']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
    assert.match(r.stdout, /Normal\s+Synced\s+\S*flunder\/three\s+Flunder synced successfully/i);
    // `--for flunder/three` resolves the preferred version, v1beta1, so kube's kubectl finds none of
    // the v1alpha1 events (its field selector includes involvedObject.apiVersion).
    const preferred = await kubectl.run(['events', '-n', NS, '--for', 'flunder/three']);
    assert.equal(preferred.code, 0, preferred.stderr);
    assert.equal(preferred.stderr, `No events found in ${NS} namespace.\n`);
  });
});
