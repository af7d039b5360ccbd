// --workers 2: one command, two server processes behind the one secure port (issue 17; no kube
// test ports this: kube-apiserver scales by separate replicas behind a load balancer, which is
// what each worker is). On SQLite (shared mode) and on etcd: both workers answer (told apart by
// leader_election_master_status, which only the holder of the kube-controller-manager Lease
// reports as 1), each Lease is held by exactly one worker (`<identity>_<index>`), a write made
// through one connection is read and watched, in order and without gaps, through the others,
// kubectl works, a worker killed with -9 is restarted while the service keeps answering, and
// SIGTERM to the primary drains every worker and exits 0.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { backends, ControlPlane, etcdUnavailable } from '../integration/harness.js';
import { HttpsClient, type WatchEvent, type WatchStream } from '../integration/https.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';
import { APISERVER_LEASE_PATH, eventually, LEASE_PATH, masterStatus } from './leader-election-helpers.js';

const WORKERS = 2;
/** Separate connections opened to see both workers (the primary hands connections round-robin). */
const CONNECTIONS = 8;
const WRITES = 20;

/** The latest `I worker <index> (pid <pid>) ready on <url>` line per index in the primary's log. */
function readyWorkers(log: string): Map<number, { pid: number; url: string }> {
  const found = new Map<number, { pid: number; url: string }>();
  for (const m of log.matchAll(/^I worker (\d+) \(pid (\d+)\) ready on (\S+)$/gm)) found.set(Number(m[1]), { pid: Number(m[2]), url: m[3] ?? '' });
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One client per connection: its own agent, one socket. */
function connections(cp: ControlPlane, n: number): HttpsClient[] {
  return Array.from({ length: n }, () => new HttpsClient(cp.credentials, { maxSockets: 1 }));
}

async function holder(client: HttpsClient, path: string): Promise<string | undefined> {
  const r = await client.json('GET', path);
  if (r.status !== 200) return undefined;
  const h = (r.body['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity;
  return h === undefined || h === '' ? undefined : h;
}

for (const backend of backends) {
  const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
  describe(`--workers ${WORKERS} on ${backend}`, { skip: skip ?? false }, () => {
    let cp: ControlPlane;
    let client: HttpsClient;
    before(async () => {
      cp = await ControlPlane.start({ backend, extraArgs: ['--workers', String(WORKERS)], readyTimeoutMs: 180_000 });
      client = new HttpsClient(cp.credentials);
    });
    after(async () => {
      client?.close();
      await cp?.stop();
    });

    test('the primary reports ready once every worker serves the one port', () => {
      assert.match(cp.log(), new RegExp(`ready in \\d+ ms \\(${WORKERS} workers\\)`));
      const workers = readyWorkers(cp.log());
      assert.deepEqual([...workers.keys()].sort(), [0, 1]);
      const pids = new Set([...workers.values()].map((w) => w.pid));
      assert.equal(pids.size, WORKERS, 'distinct worker processes');
      assert.ok(!pids.has(cp.pid), 'the primary serves nothing itself');
      for (const w of workers.values()) assert.equal(w.url, cp.url, 'port 0: every worker got the same port');
      if (backend === 'sqlite') assert.match(cp.log(), /storage: sqlite \S+ \(shared\)/);
    });

    test('each Lease is held by exactly one worker, as <identity>_<index>', async () => {
      const identity = readFileSync(join(cp.dataDir, 'leader-election-identity'), 'utf8').trim();
      for (const path of [LEASE_PATH, APISERVER_LEASE_PATH]) {
        const h = await eventually(`a holder of ${path}`, () => holder(client, path));
        assert.match(h, new RegExp(`^${identity.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_[01]$`), path);
      }
    });

    test('separate connections reach both workers: one reports the kube-controller-manager Lease, the other not', async () => {
      await eventually('a kube-controller-manager leader', () => holder(client, LEASE_PATH));
      const seen = await eventually('both workers behind the port', async () => {
        const conns = connections(cp, CONNECTIONS);
        try {
          const statuses = new Set<number>();
          for (const c of conns) statuses.add((await masterStatus(c)) ?? 0);
          return statuses.size === 2 ? statuses : undefined;
        } finally {
          for (const c of conns) c.close();
        }
      });
      assert.deepEqual([...seen].sort(), [0, 1]);
    });

    test('writes through some connections are read and watched, in order and without gaps, through others', async () => {
      const ns = `workers-${backend}`;
      assert.equal((await client.json('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
      const list = await client.json('GET', `/api/v1/namespaces/${ns}/configmaps`);
      const rv = (list.body['metadata'] as { resourceVersion: string }).resourceVersion;
      // Watches opened first, each on its own connection: both workers have some.
      const watchConns = connections(cp, 4);
      const writeConns = connections(cp, 4);
      const watches: WatchStream[] = [];
      try {
        for (const c of watchConns) watches.push(await c.watch(`/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv}`));
        for (const w of watches) assert.equal(w.status, 200);
        const created: string[] = [];
        for (let i = 0; i < WRITES; i++) {
          const name = `cm-${i}`;
          const r = await writeConns[i % writeConns.length]!.json('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data: { i: String(i) } });
          assert.equal(r.status, 201, JSON.stringify(r.body));
          created.push(name);
          // Read back at once through another connection (a consistent read: resourceVersion unset).
          const g = await writeConns[(i + 1) % writeConns.length]!.json('GET', `/api/v1/namespaces/${ns}/configmaps/${name}`);
          assert.equal(g.status, 200, JSON.stringify(g.body));
        }
        // The root CA publisher (kube-controller-manager's, in the leading worker) adds its
        // kube-root-ca.crt to the new namespace at some point: the written ones are compared.
        const name = (e: WatchEvent): string => (e.object['metadata'] as { name: string }).name;
        const written = (es: readonly WatchEvent[]): WatchEvent[] => es.filter((e) => name(e).startsWith('cm-'));
        for (const w of watches) {
          const events = await w.until((es) => written(es).length >= WRITES, 60_000);
          assert.deepEqual(
            written(events).map((e) => [e.type, name(e)]),
            created.map((n) => ['ADDED', n]),
          );
          const rvs = events.map((e) => BigInt((e.object['metadata'] as { resourceVersion: string }).resourceVersion));
          for (let i = 1; i < rvs.length; i++) assert.ok(rvs[i]! > rvs[i - 1]!, 'resourceVersions increase');
        }
      } finally {
        for (const w of watches) w.close();
        for (const c of [...watchConns, ...writeConns]) c.close();
      }
    });

    test('kubectl works against the workers', { skip: kubectlUnavailable() ?? false }, async () => {
      const kubectl = new Kubectl(() => cp);
      try {
        const ns = await kubectl.run(['get', 'ns']);
        assert.equal(ns.code, 0, ns.stderr);
        assert.match(ns.stdout, /^kube-system\s+Active/m);
        const created = await kubectl.run(['create', 'configmap', 'from-kubectl', '--from-literal=k=v']);
        assert.equal(created.code, 0, created.stderr);
        // Several gets: kubectl's connections land on either worker.
        for (let i = 0; i < 4; i++) {
          const got = await kubectl.run(['get', 'configmap', 'from-kubectl', '-o', 'jsonpath={.data.k}']);
          assert.equal(got.code, 0, got.stderr);
          assert.equal(got.stdout, 'v');
        }
      } finally {
        kubectl.dispose();
      }
    });

    test('a worker killed with -9 is restarted and the service keeps answering', async () => {
      const before = readyWorkers(cp.log());
      const victim = before.get(0)!.pid;
      process.kill(victim, 'SIGKILL');
      await eventually('the primary to see the worker die', async () =>
        new RegExp(`^W worker 0 \\(pid ${victim}\\) exited unexpectedly \\(signal SIGKILL\\); restarting it in \\S+$`, 'm').test(cp.log()) ? true : undefined,
      );
      // The other worker answers every new connection meanwhile.
      for (let i = 0; i < 5; i++) {
        const [c] = connections(cp, 1);
        try {
          assert.equal((await c!.json('GET', '/api/v1/namespaces/default')).status, 200);
        } finally {
          c!.close();
        }
      }
      const restarted = await eventually(
        'worker 0 ready again',
        async () => {
          const w = readyWorkers(cp.log()).get(0);
          return w !== undefined && w.pid !== victim ? w : undefined;
        },
        180_000,
      );
      assert.ok(alive(restarted.pid));
      assert.equal(restarted.url, cp.url);
      const conns = connections(cp, CONNECTIONS);
      try {
        for (const c of conns) assert.equal((await c.json('GET', '/api/v1/namespaces/default')).status, 200);
      } finally {
        for (const c of conns) c.close();
      }
    });

    test('SIGTERM to the primary drains every worker and exits 0', async () => {
      const pids = [...readyWorkers(cp.log()).values()].map((w) => w.pid);
      client.close();
      const status = await cp.terminate();
      assert.deepEqual(status, { code: 0, signal: null }, cp.log().slice(-3000));
      for (const pid of pids) await eventually(`worker pid ${pid} to exit`, async () => (alive(pid) ? undefined : true), 20_000);
      for (const i of [0, 1]) assert.match(cp.log(), new RegExp(`kube-ts-apiserver worker ${i}: SIGTERM received, draining in-flight requests`));
    });
  });
}
