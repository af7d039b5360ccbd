// The lock's events through client-go's recorder against the control plane: "<identity> became
// leader" and "<identity> stopped leading" as Normal LeaderElection core/v1 events about the Lease,
// as `kubectl describe lease` shows them.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { restClientFromKubeconfig, type HTTPRESTClient } from '../../../runtime/client/index.js';
import { LeaderElector, LeaseLock } from '../../../runtime/client/leaderelection/index.js';
import { newBroadcaster, RESTEventSink, type Event, type EventBroadcaster } from '../../../runtime/client/record/index.js';
import { describeBackends } from '../../integration/harness.js';
import { logger } from './fixtures.js';

const NS = 'leader-election-events';

async function eventually<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeBackends('leader election events on the control plane', (get) => {
  let rest: HTTPRESTClient;
  let caster: EventBroadcaster;

  before(async () => {
    rest = restClientFromKubeconfig({ path: get().kubeconfigPath }).rest;
    await rest.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } });
    caster = newBroadcaster({ sleepDuration: 100 });
    caster.startRecordingToSink(new RESTEventSink(rest));
  });
  after(() => {
    caster.shutdown();
    rest.close();
  });

  it('records became leader and stopped leading about the Lease', async () => {
    const eventRecorder = caster.newRecorder({ component: 'leader-election-test' });
    const lock = new LeaseLock({ namespace: NS, name: 'controller', client: rest, lockConfig: { identity: 'replica-a', eventRecorder } });
    const ctl = new AbortController();
    const le = new LeaderElector({
      lock,
      leaseDuration: 3_000,
      renewDeadline: 2_000,
      retryPeriod: 250,
      releaseOnCancel: true,
      callbacks: { onStartedLeading: () => ctl.abort(), onStoppedLeading: () => {} },
      logger,
    });
    await le.run(ctl.signal);
    const events = await eventually('both events', async () => {
      const list = await rest.request<{ items: Event[] }>({ method: 'GET', path: `/api/v1/namespaces/${NS}/events` });
      const about = list.items.filter((e) => e.involvedObject?.kind === 'Lease' && e.involvedObject.name === 'controller');
      return about.length === 2 ? about : undefined;
    });
    assert.deepEqual(events.map((e) => [e.type, e.reason, e.message]).sort(), [
      ['Normal', 'LeaderElection', 'replica-a became leader'],
      ['Normal', 'LeaderElection', 'replica-a stopped leading'],
    ]);
    for (const e of events) assert.equal(e.involvedObject?.apiVersion, 'coordination.k8s.io/v1');
  });
});
