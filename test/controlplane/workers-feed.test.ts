// --workers 2 on SQLite: the cross-process change feed (issue 17). Both workers write to the one
// file at the same time, and a watch on each worker must see every write of both, in revision
// order, with no gap and no duplicate: the same sequence on both workers, equal to the writes'
// own acknowledged resourceVersions in order. kube gets this from etcd's watch; here each worker
// tails the shared revision log, woken by the writer's notification (runtime/storage/sqlite/
// notifier.ts) with a poll as fallback. No kube test ports this (kube-apiserver has no shared-file
// backend); the comparison is the one test/integration/... etcd watch tests make for one server.
//
// The delay from a write's acknowledgement to the event on the other worker's watch is printed
// (p50, p99, max), not asserted: the machine is shared and its timing noisy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient, type WatchEvent, type WatchStream } from '../integration/https.js';
import { eventually, masterStatus } from './leader-election-helpers.js';

/** Concurrent writers on each worker. */
const WRITERS_PER_WORKER = 4;
/** Objects each writer creates, updates and (every other one) deletes. */
const OBJECTS_PER_WRITER = 20;

interface Acknowledged {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly name: string;
  readonly rv: bigint;
  /** Which worker acknowledged it (its leader_election_master_status), and when. */
  readonly worker: number;
  readonly at: number;
}

/** A client with one kept-alive connection, and the worker that connection reached. */
interface Pinned {
  readonly client: HttpsClient;
  readonly worker: number;
}

/**
 * Connections pinned to each worker: a client of one socket, kept alive, told apart by
 * leader_election_master_status (1 on the kube-controller-manager Lease's holder, 0 on the other).
 */
async function pinned(cp: ControlPlane, perWorker: number): Promise<Pinned[]> {
  const byWorker = new Map<number, Pinned[]>([
    [0, []],
    [1, []],
  ]);
  for (let tries = 0; tries < 200 && [...byWorker.values()].some((l) => l.length < perWorker); tries++) {
    const client = new HttpsClient(cp.credentials, { maxSockets: 1 });
    const worker = (await masterStatus(client)) ?? 0;
    const list = byWorker.get(worker)!;
    if (list.length < perWorker) list.push({ client, worker });
    else client.close();
  }
  const all = [...byWorker.values()].flat();
  assert.equal(all.length, 2 * perWorker, 'connections reached both workers');
  return all;
}

function meta(e: WatchEvent): { name: string; resourceVersion: string } {
  return e.object['metadata'] as { name: string; resourceVersion: string };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

describe('--workers 2 on SQLite: every worker watches every worker’s writes in order', () => {
  let cp: ControlPlane;
  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite', extraArgs: ['--workers', '2'], readyTimeoutMs: 180_000 });
  });
  after(async () => {
    await cp?.stop();
  });

  test('concurrent writes through both workers: one watch per worker sees the same sequence, in revision order, no gap, no duplicate', { timeout: 600_000 }, async () => {
    const admin = new HttpsClient(cp.credentials);
    const ns = 'feed';
    assert.equal((await admin.json('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    // The kube-controller-manager Lease has a holder: the two workers then report 1 and 0.
    await eventually('a kube-controller-manager leader', async () => {
      const r = await admin.json('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager');
      return (r.body['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity ? true : undefined;
    });
    const conns = await pinned(cp, WRITERS_PER_WORKER + 1);
    const watchers = [conns.find((c) => c.worker === 0)!, conns.find((c) => c.worker === 1)!];
    const writers = conns.filter((c) => !watchers.includes(c));
    const watches: WatchStream[] = [];
    try {
      const list = await watchers[0]!.client.json('GET', `/api/v1/namespaces/${ns}/configmaps`);
      const rv = meta({ type: '', object: list.body }).resourceVersion;
      for (const w of watchers) {
        const s = await w.client.watch(`/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv}`);
        assert.equal(s.status, 200);
        watches.push(s);
      }

      const acked: Acknowledged[] = [];
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      const write = async (p: Pinned, type: Acknowledged['type'], name: string, method: string, url: string, body?: unknown): Promise<void> => {
        const r = await p.client.json(method, url, body);
        assert.equal(r.status, type === 'ADDED' ? 201 : 200, JSON.stringify(r.body));
        // A delete answers a Status (configmaps do not return the deleted object, as in kube):
        // its revision is known from the watches only.
        acked.push({ type, name, rv: type === 'DELETED' ? -1n : BigInt(meta({ type, object: r.body }).resourceVersion), worker: p.worker, at: performance.now() });
      };
      await Promise.all(
        writers.map(async (p, w) => {
          for (let i = 0; i < OBJECTS_PER_WRITER; i++) {
            const name = `cm-${w}-${i}`;
            await write(p, 'ADDED', name, 'POST', path, { metadata: { name }, data: { i: String(i) } });
            await write(p, 'MODIFIED', name, 'PUT', `${path}/${name}`, { metadata: { name }, data: { i: String(i), updated: 'true' } });
            if (i % 2 === 0) await write(p, 'DELETED', name, 'DELETE', `${path}/${name}`);
          }
        }),
      );
      assert.ok(new Set(acked.map((a) => a.worker)).size === 2, 'both workers acknowledged writes');
      const byRevision = (a: Acknowledged, b: Acknowledged): number => (a.rv < b.rv ? -1 : a.rv > b.rv ? 1 : 0);
      const expected = acked.filter((a) => a.type !== 'DELETED').sort(byRevision);
      const deleted = acked.filter((a) => a.type === 'DELETED');
      const rvs = expected.map((a) => a.rv);
      assert.equal(new Set(rvs).size, rvs.length, 'every write has its own revision');

      const ours = (es: readonly WatchEvent[]): WatchEvent[] => es.filter((e) => meta(e).name.startsWith('cm-'));
      const key = (e: WatchEvent): string => `${e.type} ${meta(e).name} ${meta(e).resourceVersion}`;
      /** Acknowledgement to event: writes through the other worker, and (the baseline) through the watch's own. */
      const delays: number[] = [];
      const ownDelays: number[] = [];
      const sequences: string[][] = [];
      for (const [i, s] of watches.entries()) {
        const worker = watchers[i]!.worker;
        const events = await s.until((es) => ours(es).length >= acked.length, 120_000);
        const seen = ours(events);
        sequences.push(seen.map(key));
        // The acknowledged creates and updates, each once, in the order of their revisions.
        assert.deepEqual(
          seen.filter((e) => e.type !== 'DELETED').map((e) => [e.type, meta(e).name, meta(e).resourceVersion]),
          expected.map((a) => [a.type, a.name, String(a.rv)]),
          `the watch on worker ${worker}`,
        );
        // Every delete once, after the object's update.
        const deletes = seen.filter((e) => e.type === 'DELETED');
        assert.deepEqual(deletes.map((e) => meta(e).name).sort(), deleted.map((a) => a.name).sort(), `the deletes seen by the watch on worker ${worker}`);
        for (const e of deletes) assert.ok(BigInt(meta(e).resourceVersion) > expected.find((a) => a.type === 'MODIFIED' && a.name === meta(e).name)!.rv);
        // In revision order over everything the watch saw (kube-root-ca.crt included), no duplicate.
        const all = events.map((e) => BigInt(meta(e).resourceVersion));
        for (let j = 1; j < all.length; j++) assert.ok(all[j]! > all[j - 1]!, `resourceVersions increase on the watch on worker ${worker}`);
        // How long after the other worker acknowledged a write its event reached this watch.
        const arrival = new Map<string, number>();
        events.forEach((e, j) => arrival.set(e.type === 'DELETED' ? `DELETED ${meta(e).name}` : meta(e).resourceVersion, s.arrivals[j]!));
        for (const a of acked) {
          const at = arrival.get(a.type === 'DELETED' ? `DELETED ${a.name}` : String(a.rv))!;
          (a.worker === worker ? ownDelays : delays).push(Math.max(0, at - a.at));
        }
      }
      // Both workers saw the same sequence, deletes' revisions included.
      assert.deepEqual(sequences[0], sequences[1], 'the two watches saw the same events in the same order');
      const figures = (xs: number[]): string => {
        xs.sort((a, b) => a - b);
        return `p50 ${quantile(xs, 0.5).toFixed(1)} ms, p99 ${quantile(xs, 0.99).toFixed(1)} ms, max ${(xs.at(-1) ?? NaN).toFixed(1)} ms`;
      };
      console.log(
        `# ${acked.length} writes (${acked.filter((a) => a.worker === 0).length} through worker 0, ${acked.filter((a) => a.worker === 1).length} through worker 1); ` +
          `from a write's acknowledgement to its event on the other worker's watch: ${figures(delays)}; on the writing worker's own watch: ${figures(ownDelays)}`,
      );
    } finally {
      for (const s of watches) s.close();
      for (const c of conns) c.client.close();
      admin.close();
    }
  });
});
