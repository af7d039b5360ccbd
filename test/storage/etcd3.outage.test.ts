import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/factory.js';
import type { Interface } from '../../runtime/storage/interfaces.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';
import { LoadGenerator, obj, Reflector, waitFor } from './loadgen.js';

const requestTimeoutMs = 2000;
/** Slack for scheduling on a busy 2-core machine on top of the request timeout. */
const slackMs = 1500;

let etcd: EtcdCluster;
let factory: StorageFactory;
let store: Interface;
before(async () => {
  etcd = await startEtcd();
  factory = newStorageFactory({ backend: { backend: 'etcd3', endpoints: etcd.endpoints, requestTimeoutMs, compactionIntervalMs: 0 } });
  store = await factory.forResource({ resourcePrefix: '/configmaps/' });
});
after(async () => {
  await factory?.close();
  await etcd?.close();
});

test('etcd stopped for 10 s under load: timely errors, then full recovery within 5 s', async (t) => {
  const member = etcd.members[0];
  assert.ok(member);
  await outageUnderLoad(t, 'outage', {
    down: () => member.stop(),
    up: async () => {
      member.start('existing');
      await etcd.waitHealthy(undefined, 30_000);
    },
  });
});

// SIGSTOP: the connection stays open and nothing answers (a hung or partitioned member), which
// only deadlines and keepalives can detect; SIGCONT brings the same process back.
test('etcd paused (SIGSTOP) for 10 s under load: timely errors, then full recovery within 5 s', async (t) => {
  const member = etcd.members[0];
  assert.ok(member);
  await outageUnderLoad(t, 'paused', {
    down: async () => member.pause(),
    up: async () => {
      member.resume();
      await etcd.waitHealthy(undefined, 30_000);
    },
  });
});

async function outageUnderLoad(t: TestContext, namePrefix: string, etcdState: { down: () => Promise<void>; up: () => Promise<void> }): Promise<void> {
  const reflector = new Reflector(store);
  const load = new LoadGenerator(store, { workers: 8, namePrefix, pauseMs: 5 });
  load.start();
  await waitFor(() => load.acked.size > 50 && reflector.seen.size > 0, 20_000, 'load to start');

  // Outage.
  await etcdState.down();
  const outageStart = Date.now();
  // A check within a second of the last healthy probe answers from it (kube's rate limit); the
  // next probe fails by the 2 s check timeout.
  await waitFor(
    () =>
      factory.readinessCheck().then(
        () => false,
        () => true,
      ),
    2 * 2000 + slackMs,
    'readiness to fail while etcd is down',
  );
  await new Promise((r) => setTimeout(r, 10_000));
  const duringOutage = load.ops.filter((o) => o.start >= outageStart + 500);
  assert.ok(duringOutage.length > 0, 'requests were attempted during the outage');
  assert.ok(
    duringOutage.every((o) => !o.ok),
    'no request can succeed while etcd is down',
  );
  const slowest = Math.max(...duringOutage.map((o) => o.end - o.start));
  assert.ok(slowest <= requestTimeoutMs + slackMs, `requests must fail within the request timeout, slowest took ${slowest} ms`);
  const hung = [...load.inflight].filter((o) => Date.now() - o.start > requestTimeoutMs + slackMs);
  assert.equal(hung.length, 0, 'no request may hang');

  // Recovery.
  await etcdState.up();
  const back = Date.now();
  const writesResumed = await waitFor(() => load.ops.some((o) => o.ok && o.start >= back), 5000, 'writes to resume');
  await factory.readinessCheck();
  const markerName = `${namePrefix}-marker-after-outage`;
  const marker = await store.create(`/configmaps/default/${markerName}`, obj(markerName));
  assert.ok(marker.metadata?.resourceVersion);
  const watchResumed = await waitFor(() => reflector.seen.has(markerName), 5000 - Math.min(writesResumed, 4000), 'the watch to deliver a write made after recovery');
  assert.ok(Date.now() - back <= 5000 + slackMs, `recovery took ${Date.now() - back} ms (writes ${writesResumed} ms, watch ${watchResumed} ms)`);

  t.diagnostic(`slowest failing request during the outage: ${slowest} ms (timeout ${requestTimeoutMs} ms); writes resumed ${writesResumed} ms and watch ${watchResumed} ms after etcd was back`);
  await load.stop();
  // No acknowledged write was lost, and the client's watch view has every one of them.
  const list = await store.getList('/configmaps/', { recursive: true });
  const stored = new Set(list.items.map((o) => String(o.metadata?.name)));
  for (const name of load.acked.keys()) assert.ok(stored.has(name), `acknowledged ${name} missing from etcd`);
  await waitFor(() => [...load.acked.keys()].every((n) => reflector.seen.has(n)), 5000, 'the watcher to have seen every acknowledged write');
  reflector.stop();
  await reflector.done;
}
