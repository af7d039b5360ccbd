// --workers 2: a worker killed with -9 under a steady load through the shared port is restarted
// and is handed connections only once it is ready (issue 17). In kube a replica that (re)starts
// is taken into a load balancer's rotation once its /readyz passes; under --workers the primary
// is the balancer, so a worker joins the shared socket only after its post-start hooks and the
// built-in APIServices' autoregistration are done. No kube test ports this (kube-apiserver is
// one process; its readiness contract is test/integration/apiserver/... /readyz's).
//
// The load opens a new connection for every request (the primary hands each connection to the
// next worker), and mixes what a worker still starting would answer wrongly: a consistent GET,
// a LIST served from the watch cache (resourceVersion=0: 429 while the cache initializes) and a
// GET of a custom resource (404 before the CRD informer has synced), and /readyz itself, which
// a worker answers 500 until its post-start hooks are done. Every answer must be 200.
// Requests in flight on the killed worker may fail with a reset: they are counted apart, and
// only those that started before the primary saw the worker die may fail so. None may go
// unanswered until the client's own timeout: a connection the primary was handing to the worker
// as it died is closed by the primary (workers/balancer.ts), where node:cluster's round-robin
// scheduler kept it open, unserved.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, ControlPlane, etcdUnavailable } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { eventually, LEASE_PATH, masterStatus } from './leader-election-helpers.js';

const WORKERS = 2;
/** Concurrent request loops of the load. */
const LOOPS = 16;
/** How long the load goes on once the restarted worker is ready, so that it serves a share of it. */
const AFTER_READY_MS = 4_000;
/** A request without an answer by then is a failure (generous: the machine is shared). */
const REQUEST_TIMEOUT_MS = 30_000;

interface Outcome {
  readonly startedAt: number;
  readonly path: string;
  readonly status?: number;
  readonly body?: string;
  readonly error?: string;
}

function readyWorkers(log: string): Map<number, { pid: number; url: string }> {
  const found = new Map<number, { pid: number; url: string }>();
  for (const m of log.matchAll(/^I worker (\d+) \(pid (\d+)\) ready on (\S+)$/gm)) found.set(Number(m[1]), { pid: Number(m[2]), url: m[3] ?? '' });
  return found;
}

for (const backend of backends) {
  const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
  describe(`--workers ${WORKERS} on ${backend}: a restarted worker joins the port once ready`, { skip: skip ?? false }, () => {
    let cp: ControlPlane;
    let client: HttpsClient;
    const ns = `restart-${backend}`;
    const group = `restart${backend.replace(/[^a-z0-9]/g, '')}.example.com`;
    before(async () => {
      cp = await ControlPlane.start({ backend, extraArgs: ['--workers', String(WORKERS)], readyTimeoutMs: 180_000 });
      client = new HttpsClient(cp.credentials);
    });
    after(async () => {
      client?.close();
      await cp?.stop();
    });

    test('no request fails or gets an error answer while the killed worker restarts, and the restarted one serves', { timeout: 600_000 }, async () => {
      assert.equal((await client.json('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
      assert.equal((await client.json('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'cm' }, data: { k: 'v' } })).status, 201);
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `widgets.${group}` },
        spec: {
          group,
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
        },
      };
      assert.equal((await client.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201);
      const widget = `/apis/${group}/v1/namespaces/${ns}/widgets/w`;
      await eventually('a Widget to be created', async () => {
        const r = await client.json('POST', `/apis/${group}/v1/namespaces/${ns}/widgets`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w' } });
        return r.status === 201 ? true : undefined;
      });
      // /readyz is the cheapest: it is half of the load, so that more connections reach a worker's first moments.
      const paths = ['/readyz', `/api/v1/namespaces/${ns}/configmaps/cm`, '/readyz', `/api/v1/namespaces/${ns}/configmaps?resourceVersion=0`, '/readyz', widget];
      // Every worker serves the custom resource before the load starts (each has its own CRD informer).
      await eventually('every worker to serve the Widget', async () => {
        for (let i = 0; i < 4 * WORKERS; i++) if ((await client.request({ path: widget, headers: { Connection: 'close' } })).status !== 200) return undefined;
        return true;
      });

      // The victim is the worker that does not hold the kube-controller-manager Lease, so the
      // survivor keeps it and the two can be told apart afterwards by leader_election_master_status.
      const holder = await eventually('the kube-controller-manager Lease holder', async () => {
        const h = (await client.json('GET', LEASE_PATH)).body['spec'] as { holderIdentity?: string } | undefined;
        return h?.holderIdentity === undefined || h.holderIdentity === '' ? undefined : Number(h.holderIdentity.split('_').at(-1));
      });
      const victimIndex = holder === 0 ? 1 : 0;
      const victim = readyWorkers(cp.log()).get(victimIndex)!.pid;

      const outcomes: Outcome[] = [];
      let stop = false;
      const load = async (loop: number): Promise<void> => {
        for (let n = loop; !stop; n++) {
          const path = paths[n % paths.length]!;
          const startedAt = performance.now();
          try {
            const r = await client.request({ path, headers: { Accept: 'application/json', Connection: 'close' }, timeoutMs: REQUEST_TIMEOUT_MS });
            outcomes.push({ startedAt, path, status: r.status, ...(r.status === 200 ? {} : { body: r.text.slice(0, 300) }) });
          } catch (err) {
            outcomes.push({ startedAt, path, error: err instanceof Error ? err.message : String(err) });
          }
        }
      };
      const loops = Array.from({ length: LOOPS }, (_, i) => load(i));
      try {
        await new Promise((r) => setTimeout(r, 1_000));
        process.kill(victim, 'SIGKILL');
        const died = new RegExp(`^W worker ${victimIndex} \\(pid ${victim}\\) exited unexpectedly \\(signal SIGKILL\\)`, 'm');
        await eventually('the primary to see the worker die', async () => (died.test(cp.log()) ? true : undefined));
        const seenDead = performance.now();
        await eventually(
          `worker ${victimIndex} ready again`,
          async () => {
            const w = readyWorkers(cp.log()).get(victimIndex);
            return w !== undefined && w.pid !== victim ? w : undefined;
          },
          180_000,
        );
        await new Promise((r) => setTimeout(r, AFTER_READY_MS));
        stop = true;
        await Promise.all(loops);

        const answeredBadly = outcomes.filter((o) => o.status !== undefined && o.status !== 200);
        const failedEarly = outcomes.filter((o) => o.error !== undefined && o.startedAt < seenDead);
        const failedLate = outcomes.filter((o) => o.error !== undefined && o.startedAt >= seenDead);
        const summary = `${outcomes.length} requests; ${failedEarly.length} failed without an answer before the primary saw the kill (in flight on the killed worker)`;
        const errors = new Map<string, number>();
        for (const o of failedEarly) errors.set(o.error!.replace(/^\S+ \S+: /, ''), (errors.get(o.error!.replace(/^\S+ \S+: /, '')) ?? 0) + 1);
        console.log(`# ${backend}: ${summary}: ${[...errors].map(([e, n]) => `${n}× ${e}`).join(', ')}`);
        assert.deepEqual(answeredBadly, [], `answers other than 200 (${summary})`);
        assert.deepEqual(
          outcomes.filter((o) => o.error?.includes('no response within') === true),
          [],
          `requests left without an answer until the client's timeout (${summary})`,
        );
        assert.deepEqual(failedLate, [], `requests started after the worker's death was seen failed (${summary})`);
        // In flight on the killed worker: at most one per loop.
        assert.ok(failedEarly.length <= LOOPS, summary);
      } finally {
        stop = true;
        await Promise.all(loops);
      }

      // The restarted worker serves: fresh connections reach both the leader (1) and it (0).
      const seen = await eventually('both workers behind the port', async () => {
        const statuses = new Set<number>();
        for (let i = 0; i < 4 * WORKERS; i++) {
          const c = new HttpsClient(cp.credentials, { maxSockets: 1 });
          try {
            statuses.add((await masterStatus(c)) ?? 0);
          } finally {
            c.close();
          }
        }
        return statuses.size === 2 ? statuses : undefined;
      });
      assert.deepEqual([...seen].sort(), [0, 1]);
    });
  });
}
