// kube's etcd health check (newETCD3Check) against an etcd this test stopped with SIGSTOP: the
// check fails by its timeout with kube's reason, checks within half a timeout of a probe share
// its outcome (no flood of probes), and it passes again once etcd runs (SIGCONT).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EtcdCheck } from '../../runtime/storage/etcd3/healthcheck.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';
import { waitFor } from './loadgen.js';

const timeoutMs = 1000;
/** Scheduling slack on a busy 2-core machine. */
const slackMs = 3000;

let etcd: EtcdCluster;
let check: EtcdCheck;
before(async () => {
  etcd = await startEtcd();
  check = new EtcdCheck({ endpoints: etcd.endpoints, prefix: '/registry', timeoutMs });
});
after(async () => {
  etcd?.members[0]?.resume();
  check?.close();
  await etcd?.close();
});

test('a hung etcd fails the check within its timeout; checks share a probe; SIGCONT heals it', async () => {
  await check.check();
  // A check with a 4 s timeout probes at most every 2 s: right after a healthy probe it answers
  // from that probe, even though etcd has just been stopped.
  const windowed = new EtcdCheck({ endpoints: etcd.endpoints, prefix: '/registry', timeoutMs: 4000 });
  await windowed.check();
  const member = etcd.members[0];
  assert.ok(member);
  member.pause();
  try {
    await windowed.check().finally(() => windowed.close());
    // Wait out the window of the last healthy probe, then every probe is a fresh one.
    await new Promise((r) => setTimeout(r, timeoutMs));
    const started = performance.now();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => check.check()));
    const took = performance.now() - started;
    assert.ok(took < timeoutMs + slackMs, `20 concurrent checks took ${took} ms`);
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      assert.equal((r as PromiseRejectedResult).reason.message, 'error getting data from etcd: context deadline exceeded');
    }
    // Later probes stay bounded however long etcd stays stopped.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, timeoutMs));
      const s = performance.now();
      await assert.rejects(check.check(), /^Error: error getting data from etcd: /);
      assert.ok(performance.now() - s < timeoutMs + slackMs);
    }
  } finally {
    member.resume();
  }
  const healed = await waitFor(
    async () => {
      try {
        await check.check();
        return true;
      } catch {
        return false;
      }
    },
    30_000,
    'the check to pass after SIGCONT',
  );
  assert.ok(healed >= 0);
});
