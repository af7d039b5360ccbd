// Acceptance of the informers (issue 5): the server restarts mid-watch (stopped, then started on
// the same data dir; on etcd, the same etcd) and comes back on another port, which the proxy in
// front of it follows. The informer keeps retrying while the server is down, never stops, and
// converges: changes made while it was down (on etcd by a second server sharing the storage)
// and after the restart reach the cache and the handler.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { newSharedInformerFactoryCore, type HTTPRESTClient } from '../../runtime/client/index.js';
import { silentLogger } from '../../runtime/client/cache/index.js';
import { backends, ControlPlane, etcdUnavailable, type Backend } from '../integration/harness.js';
import { adminClient, diffStates, eventually, inParallel, ReplayingHandler, sameState, stateOf } from './integration/informer-harness.js';
import { TcpProxy } from './integration/tcp-proxy.js';

const LONG = 5 * 60_000;
const NS = 'restart';
const flunder = (name: string, labels: Record<string, string> = {}): Flunder => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, labels } });
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** A typed client of the server now running, and how to let go of it. */
function clients(cp: ControlPlane): { cs: Clientset; rest: HTTPRESTClient } {
  const rest = adminClient(cp.kubeconfigPath);
  return { cs: new Clientset(rest), rest };
}

for (const backend of backends as readonly Backend[]) {
  const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
  describe(`informer across a server restart on ${backend}`, { skip: skip ?? false }, () => {
    let cp: ControlPlane | undefined;
    after(async () => {
      await cp?.stop();
    });

    test('the informer recovers and converges; changes made while the server was down arrive', { timeout: 10 * 60_000 }, async (t) => {
      cp = await ControlPlane.start({ backend });
      let { cs, rest } = clients(cp);
      await cs
        .coreV1()
        .namespaces()
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      await inParallel(range(0, 20), 10, async (i) => {
        await cs
          .wardleV1alpha1()
          .flunders(NS)
          .create(flunder(`before-${i}`));
      });

      const proxy = await TcpProxy.start(cp.port);
      const informerRest = adminClient(cp.kubeconfigPath, { host: proxy.url, options: { backoff: { initialMs: 100, maxMs: 1000 } } });
      const factory = new SharedInformerFactory(
        new Clientset(informerRest),
        newSharedInformerFactoryCore({
          namespace: NS,
          tuning: { logger: silentLogger, backoff: { initialMs: 100, capMs: 2000 } },
        }),
      );
      const informer = factory.wardle().v1alpha1().flunders().informer();
      const handler = new ReplayingHandler<Flunder>();
      informer.addEventHandler(handler);
      let watchErrors = 0;
      informer.setWatchErrorHandler(() => void watchErrors++);
      const converged = async (): Promise<Map<string, string>> => {
        let server = new Map<string, string>();
        await eventually(
          async () => {
            server = stateOf((await cs.wardleV1alpha1().flunders(NS).list()).items);
            return sameState(stateOf(informer.getIndexer().list()), server) && sameState(handler.state, server);
          },
          LONG,
          () => `informer differs from the server:\n${diffStates(server, stateOf(informer.getIndexer().list())).join('\n')}`,
        );
        return server;
      };
      try {
        factory.start();
        await factory.waitForCacheSync();
        await cs.wardleV1alpha1().flunders(NS).create(flunder('watched'));
        await converged();

        // Down: the server stops mid-watch.
        await cp.terminate();
        rest.close();
        const downWrites: string[] = [];
        if (backend === 'etcd3') {
          // A second server on the same etcd writes while the first is down.
          const other = await ControlPlane.start({ backend, etcd: cp.etcd, etcdPrefix: cp.etcdPrefix });
          try {
            const o = clients(other);
            const fl = o.cs.wardleV1alpha1().flunders(NS);
            for (const i of range(0, 5)) {
              await fl.create(flunder(`down-${i}`));
              downWrites.push(`${NS}/down-${i}`);
            }
            for (const i of range(0, 5)) await fl.delete(`before-${i}`);
            for (const i of range(5, 10)) {
              const cur = await fl.get(`before-${i}`);
              await fl.update({ ...cur, metadata: { ...cur.metadata, labels: { changed: 'down' } } });
            }
            o.rest.close();
          } finally {
            await other.stop();
          }
        }
        assert.ok(!informer.isStopped(), 'the informer keeps running while the server is down');

        // Up again, on the same storage and another port.
        cp = await cp.restart();
        proxy.retarget(cp.port);
        ({ cs, rest } = clients(cp));
        const fl = cs.wardleV1alpha1().flunders(NS);
        for (const i of range(0, 5)) await fl.create(flunder(`after-${i}`));
        for (const i of range(10, 13)) await fl.delete(`before-${i}`);
        const server = await converged();

        for (const k of [...downWrites, ...range(0, 5).map((i) => `${NS}/after-${i}`)]) {
          assert.ok(server.has(k) && handler.log.some((n) => n.kind === 'add' && n.key === k), `${k} reached the handler`);
        }
        const deleted = backend === 'etcd3' ? [...range(0, 5), ...range(10, 13)] : range(10, 13);
        for (const i of deleted) {
          assert.ok(
            handler.log.some((n) => n.kind === 'delete' && n.key === `${NS}/before-${i}`),
            `before-${i}'s deletion reached the handler`,
          );
        }
        assert.deepEqual(handler.violations, []);
        t.diagnostic(`${watchErrors} watch errors while the server was away; ${handler.log.length} notifications; ${server.size} objects`);
      } finally {
        await factory.shutdown();
        informerRest.close();
        rest.close();
        await proxy.close();
      }
    });
  });
}
