// Issue 17, a replica partitioned from etcd: two control-plane replicas (processes of `npm start`'s
// bundle, one shared CA and service-account key) on a three-member etcd; A reaches the members
// directly, B through proxies that cut the path as a network partition does (no byte moves, no
// reset arrives: only B's timeouts and gRPC keepalives notice). Under writers and readers on both
// and a watch on each, B is cut off for 15 s, and later for 30 s, and each time healed. B says so on /readyz and recovers;
// no request to B hangs, and each is answered as kube answers when etcd does not (README, "When
// etcd stops answering"); A does not notice; no acknowledged write is lost, no write B said never
// left is stored; A's watch sees every write once and in order, and B's either continues exactly
// or ends, after which a relist and watch from B catch up.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ControlPlane, etcdUnavailable } from '../harness.js';
import { HttpsClient, type WatchEvent, type WatchStream } from '../https.js';
import { startEtcd, type EtcdCluster } from '../../storage/etcdServer.js';
import { PartitionProxy } from './lib/partitionProxy.js';
import { SHARED_PKI_FILES } from './lib/replicas.js';
import { valueOf } from './lib/load.js';
import { Ledger, TrackedLoad, type Sent } from './lib/trackedLoad.js';

/** B's --request-timeout: a bound on every answer, longer than the etcd client's 10 s deadline. */
const REQUEST_TIMEOUT_S = 20;
/** The etcd client's deadline for one storage call (the storage factory's default). */
const ETCD_CALL_DEADLINE_MS = 10_000;
/** Scheduling slack on a busy, shared 2-core machine. */
const SLACK_MS = 10_000;
const OURS = /^[ab](\d+|c)-\d+$/;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const log = (line: string): void => void process.stdout.write(`# ${line}\n`);
const meta = (o: Record<string, unknown>): { name: string; resourceVersion: string } => o['metadata'] as { name: string; resourceVersion: string };

interface Ev {
  type: string;
  name: string;
  rv: bigint;
  value: number | undefined;
}
const ours = (events: readonly WatchEvent[]): Ev[] =>
  events
    .filter((e) => e.type !== 'ERROR' && e.type !== 'BOOKMARK' && OURS.test(meta(e.object).name))
    .map((e) => ({ type: e.type, name: meta(e.object).name, rv: BigInt(meta(e.object).resourceVersion), value: valueOf(e.object) }));

const distribution = (sent: readonly Sent[]): string => {
  const by = new Map<string, number>();
  for (const s of sent) by.set(`${s.op} ${s.answer}`, (by.get(`${s.op} ${s.answer}`) ?? 0) + 1);
  return [...by]
    .sort()
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
};

/** The same cluster seen through other endpoints (the harness reads only `endpoints` from it). */
function through(etcd: EtcdCluster, endpoints: string[]): EtcdCluster {
  return Object.create(etcd, { endpoints: { get: () => endpoints } }) as EtcdCluster;
}

describe('a replica partitioned from etcd (blackholed, no resets) while another is not', { skip: etcdUnavailable() ?? false, timeout: 900_000 }, () => {
  let etcd: EtcdCluster;
  let proxies: PartitionProxy[] = [];
  const dirs: string[] = [];
  let a: ControlPlane;
  let b: ControlPlane;
  before(async () => {
    etcd = await startEtcd(3);
    proxies = await Promise.all(etcd.members.map((m) => PartitionProxy.start(m.spec.clientPort)));
    const prefix = `/registry-partition-${process.pid}`;
    const args = ['--request-timeout', String(REQUEST_TIMEOUT_S)];
    dirs.push(mkdtempSync(join(tmpdir(), 'ha-partition-a-')), mkdtempSync(join(tmpdir(), 'ha-partition-b-')));
    a = await ControlPlane.start({ backend: 'etcd3', bundled: true, etcd, etcdPrefix: prefix, dataDir: dirs[0]!, extraArgs: args, readyTimeoutMs: 180_000 });
    // B shares A's CA and service-account keys, as kubeadm copies them to each control-plane node.
    mkdirSync(join(dirs[1]!, 'pki'), { recursive: true, mode: 0o700 });
    for (const f of SHARED_PKI_FILES) copyFileSync(join(dirs[0]!, 'pki', f), join(dirs[1]!, 'pki', f));
    const viaProxies = through(
      etcd,
      proxies.map((p) => `http://127.0.0.1:${p.port}`),
    );
    b = await ControlPlane.start({ backend: 'etcd3', bundled: true, etcd: viaProxies, etcdPrefix: prefix, dataDir: dirs[1]!, extraArgs: args, readyTimeoutMs: 180_000 });
  });
  after(async () => {
    for (const p of proxies) p.heal();
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all(proxies.map((p) => p.close()));
    await etcd?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  // 15 s: B's gRPC keepalive (5 s + 3 s) drops its connections during it, and requests sent after
  // that wait for a new connection that the partition never completes, to be answered at the heal.
  // 30 s: also longer than the etcd client's 10 s deadline from such a request, which is then
  // answered ServerTimeout before the heal, and than the watch liveness restart (20 s silent).
  for (const PARTITION_MS of [15_000, 30_000]) {
    test(`cut off for ${PARTITION_MS / 1000} s: B fails /readyz and answers every request in time with kube errors; A is unaffected; no write lost; watches exact or ended and caught up`, async () => {
      const ca = new HttpsClient(a.credentials, { maxSockets: 16 });
      const cb = new HttpsClient(b.credentials, { maxSockets: 16 });
      const wa = new HttpsClient(a.credentials);
      const wb = new HttpsClient(b.credentials);
      const probe = new HttpsClient(b.credentials);
      let watchA: WatchStream | undefined;
      let watchB: WatchStream | undefined;
      let rewatchB: WatchStream | undefined;
      const ledger = new Ledger();
      const loads: TrackedLoad[] = [];
      const probes: Array<{ at: number; ms: number; status: number; text: string }> = [];
      let probing = true;
      try {
        const ns = `ha-partition-${PARTITION_MS / 1000}s`;
        const cms = `/api/v1/namespaces/${ns}/configmaps`;
        assert.equal((await ca.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
        assert.equal((await ca.json('POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fixed' }, data: { v: '0' } })).status, 201);
        const list = await ca.json('GET', cms);
        const from = meta(list.body).resourceVersion;
        watchA = await wa.watch(`${cms}?watch=1&resourceVersion=${from}`);
        watchB = await wb.watch(`${cms}?watch=1&resourceVersion=${from}`);
        assert.equal(watchA.status, 200);
        assert.equal(watchB.status, 200);

        const prober = (async () => {
          while (probing) {
            const at = performance.now();
            try {
              const r = await probe.request({ path: '/readyz?verbose', timeoutMs: 120_000 });
              probes.push({ at, ms: performance.now() - at, status: r.status, text: r.text });
            } catch (e) {
              probes.push({ at, ms: performance.now() - at, status: 0, text: (e as Error).message });
            }
            await sleep(500);
          }
        })();

        loads.push(new TrackedLoad('A', ca, ns, ledger, 'fixed'), new TrackedLoad('B', cb, ns, ledger, 'fixed'));
        for (const l of loads) l.start(4);
        await sleep(5000);

        const cutAt = performance.now();
        for (const p of proxies) p.partition();
        await sleep(PARTITION_MS);
        const healedAt = performance.now();
        for (const p of proxies) p.heal();

        // 1. B said so, and is ready again after the heal.
        const readyAgain = await (async () => {
          for (;;) {
            const ok = probes.find((p) => p.at >= healedAt && p.status === 200);
            if (ok !== undefined) return ok.at + ok.ms;
            if (performance.now() - healedAt > 60_000) return undefined;
            await sleep(250);
          }
        })();
        await sleep(5000);
        for (const l of loads) await l.stop();
        probing = false;
        await prober;

        const failed = probes.filter((p) => p.at >= cutAt && p.at < healedAt && p.status === 500);
        const firstFail = failed[0];
        const slowestProbe = Math.max(...probes.map((p) => p.ms));
        const during = ledger.sent.filter((s) => s.replica === 'B' && s.startedAt >= cutAt && s.startedAt < healedAt);
        const bAfter = ledger.sent.filter((s) => s.replica === 'B' && s.startedAt >= (readyAgain ?? Infinity) && (s.op === 'create' || s.op === 'update') && s.answer === '2xx');
        log(
          `partition of B for ${PARTITION_MS} ms: /readyz failed ${firstFail === undefined ? 'never' : `${Math.round(firstFail.at + firstFail.ms - cutAt)} ms after the cut`}, ok again ${readyAgain === undefined ? 'never' : `${Math.round(readyAgain - healedAt)} ms after the heal`}, slowest probe ${Math.round(slowestProbe)} ms; ` +
            `requests to B sent during it ${during.length}, slowest ${Math.round(Math.max(0, ...during.map((s) => s.ms)))} ms: ${distribution(during)}; ` +
            `all requests: A ${distribution(ledger.sent.filter((s) => s.replica === 'A'))}; B ${distribution(ledger.sent.filter((s) => s.replica === 'B'))}; acknowledged writes ${ledger.acks.length}, on B after the heal ${bAfter.length}`,
        );
        // Each request to B sent during the partition: sent at (ms after the cut) + took (ms) → answer.
        log(
          `B during the partition: ${during.map((s) => `${s.op}@${Math.round(s.startedAt - cutAt)}+${Math.round(s.ms)}→${s.answer}${s.answer === 'uncertain' ? `(${/"message":"([^"]{0,60})/.exec(s.detail)?.[1] ?? ''})` : ''}`).join(' ')}`,
        );
        assert.ok(firstFail !== undefined, `B's /readyz never failed during the partition: ${JSON.stringify(probes.slice(-5))}`);
        assert.ok(firstFail.at + firstFail.ms - cutAt < PARTITION_MS, '/readyz failed while B was cut off');
        assert.ok(
          failed.some((p) => p.text.split('\n').includes('[-]etcd-readiness failed: reason withheld')),
          failed.map((p) => p.text).join('\n---\n'),
        );
        assert.ok(readyAgain !== undefined && readyAgain - healedAt < 30_000, 'B ready again within 30 s of the heal');
        assert.ok(slowestProbe < 15_000, `a /readyz took ${slowestProbe} ms`);

        // 2. Nothing sent to B hung, and every answer is one kube gives (checked by classify; a
        // write answered 'uncertain' has no Retry-After, one answered ServerTimeout has it).
        const bSent = ledger.sent.filter((s) => s.replica === 'B');
        assert.deepEqual(
          bSent.filter((s) => s.answer === 'connection' || s.answer === 'wrong'),
          [],
          'B answered every request with one of kube answers',
        );
        for (const s of bSent) assert.ok(s.ms < REQUEST_TIMEOUT_S * 1000 + SLACK_MS, `a ${s.op} to B took ${Math.round(s.ms)} ms (${s.answer})`);
        // Not even until the heal: what was sent long enough before it is answered before it (by
        // the keepalive or the etcd client's 10 s deadline), whatever the partition's length.
        for (const s of during.filter((x) => x.startedAt < healedAt - ETCD_CALL_DEADLINE_MS - SLACK_MS)) {
          assert.ok(s.startedAt + s.ms < healedAt, `a ${s.op} sent to B ${Math.round(s.startedAt - cutAt)} ms after the cut waited for the heal`);
        }
        assert.ok(
          during.some((s) => s.answer !== '2xx'),
          'B answered errors while cut off',
        );
        assert.ok(bAfter.length > 0, 'B acknowledges writes again after the heal');

        // 3. A did not notice.
        assert.deepEqual(
          ledger.sent.filter((s) => s.replica === 'A' && s.answer !== '2xx'),
          [],
          'every request to A succeeded',
        );

        // 4. No acknowledged write lost; a write of unknown outcome is there whole or not at all
        // (one value of the object's), one said never to have left is not there.
        const final = new Map<string, bigint>();
        for (const obj of ledger.objects) {
          const r = await ca.json('GET', `${cms}/${obj.name}`);
          if (r.status === 404) {
            assert.notEqual(obj.exists, 'yes', `${obj.name}: an acknowledged create is lost`);
            continue;
          }
          assert.equal(r.status, 200, JSON.stringify(r.body));
          const v = valueOf(r.body);
          assert.ok(v !== undefined && obj.allowed.has(v), `${obj.name} holds ${v}: allowed ${[...obj.allowed].join(',')}`);
          final.set(obj.name, BigInt(meta(r.body).resourceVersion));
        }
        const unsent = new Set(ledger.objects.flatMap((o) => [...o.unsent]));

        // 5. A's watch: every committed write once, in order, and nothing B said never left.
        const maxRV = [...final.values(), ...ledger.acks.map((x) => x.rv)].reduce((x, y) => (x > y ? x : y), 0n);
        await watchA.until((evs) => ours(evs).some((e) => e.rv >= maxRV), 60_000);
        const evA = ours(watchA.events);
        checkExact('A', evA, ledger.acks, final, unsent);

        // B's watch continues exactly, or has ended (closed, or an ERROR such as 410), in which case
        // what it delivered is a prefix of A's and a relist and watch from B catch up: kube's
        // contract for a watch from the cache. Both happen. In our runs B's cacher never relisted
        // (its etcd watch resumed from its revision after the heal), so its watchers were kept;
        // after 15 s the watch always continued; after 30 s the catch-up (about 1200 events of A's
        // writes arriving at once) sometimes outran this client and filled its watcher's buffer,
        // and the cacher ended it, as kube's ends a watcher that does not keep up.
        const ended = await (async () => {
          const deadline = performance.now() + 60_000;
          for (;;) {
            if (watchB.ended || watchB.events.some((e) => e.type === 'ERROR')) return true;
            if (ours(watchB.events).some((e) => e.rv >= maxRV)) return false;
            if (performance.now() > deadline) assert.fail(`B's watch neither reached ${maxRV} nor ended within 60 s of the heal: at ${ours(watchB.events).at(-1)?.rv}`);
            await sleep(200);
          }
        })();
        const evB = ours(watchB.events);
        if (!ended) {
          checkExact('B', evB, ledger.acks, final, unsent);
          assert.deepEqual(evB, evA, "B's watch delivered what A's did");
        } else {
          assert.deepEqual(evB, evA.slice(0, evB.length), "what B's watch delivered before it ended is a prefix of A's");
          const relist = await cb.json('GET', cms);
          assert.equal(relist.status, 200, JSON.stringify(relist.body));
          const items = relist.body['items'] as Array<Record<string, unknown>>;
          assert.deepEqual(new Map(items.filter((o) => OURS.test(meta(o).name)).map((o) => [meta(o).name, BigInt(meta(o).resourceVersion)])), final, "B's relist shows the final state");
          rewatchB = await wb.watch(`${cms}?watch=1&resourceVersion=${meta(relist.body).resourceVersion}`);
          const marker = await ca.json('POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'marker' }, data: { v: '-1' } });
          assert.equal(marker.status, 201);
          await rewatchB.until((evs) => evs.some((e) => meta(e.object).name === 'marker'), 60_000);
          assert.deepEqual(
            rewatchB.events.map((e) => meta(e.object).name),
            ['marker'],
            'the new watch from the relist starts where the list ended',
          );
        }
        const committed = new Set(evA.map((e) => e.value));
        log(`writes of unknown outcome ${ledger.uncertain.length}, of which committed ${ledger.uncertain.filter((v) => committed.has(v)).length}`);
        log(
          `watch on A: ${evA.length} events, exact; watch on B: ${ended ? `ended after ${evB.length} events (${watchB.events.find((e) => e.type === 'ERROR') ? 'ERROR event' : 'closed by the server'}); relist and watch from B caught up` : `continued through the partition, ${evB.length} events, exact`}`,
        );
      } finally {
        probing = false;
        for (const l of loads) await l.stop();
        for (const w of [watchA, watchB, rewatchB]) w?.close();
        for (const c of [ca, cb, wa, wb, probe]) c.close();
      }
    });
  }
});

/** Every acknowledged write and every final state once, in resourceVersion order; no value that never left. */
function checkExact(who: string, evs: readonly Ev[], acks: Ledger['acks'], final: ReadonlyMap<string, bigint>, unsent: ReadonlySet<number>): void {
  for (let i = 1; i < evs.length; i++) assert.ok(evs[i]!.rv > evs[i - 1]!.rv, `watch on ${who}: event ${i} at ${evs[i]!.rv} after ${evs[i - 1]!.rv} (out of order or duplicated)`);
  const byRV = new Map(evs.map((e) => [e.rv, e]));
  for (const x of acks) {
    const e = byRV.get(x.rv);
    assert.ok(e !== undefined, `watch on ${who}: no event for acknowledged ${x.name}=${x.value} at ${x.rv}`);
    assert.equal(e.name, x.name);
    assert.equal(e.value, x.value);
  }
  for (const [name, rv] of final) assert.equal(byRV.get(rv)?.name, name, `watch on ${who}: no event for the final state of ${name} at ${rv}`);
  for (const e of evs) assert.ok(e.value === undefined || !unsent.has(e.value), `watch on ${who}: ${e.name}=${e.value} was answered as never sent, but was stored`);
}
