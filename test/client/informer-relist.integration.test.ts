// Acceptance of the informers (issue 5): a compaction that expires the informer's
// resourceVersion makes it relist, with the handler told exactly what changed meanwhile. The
// control plane runs with kube's --etcd-compaction-interval=1s (on etcd its compactor keeps one
// interval of history; on SQLite each round drops the history before the current revision), so
// the watch cache answers the informer's resumed watch with 410 Expired once the storage
// compacted past it. The informer is cut off by a proxy that refuses connections meanwhile.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { isStatusError } from '../../runtime/apimachinery/errors/index.js';
import { newSharedInformerFactoryCore, type HTTPRESTClient } from '../../runtime/client/index.js';
import { isExpiredError, silentLogger } from '../../runtime/client/cache/index.js';
import { describeBackends } from '../integration/harness.js';
import {
  adminClient, CountingRESTClient, diffStates, eventually, inParallel, type Notification, ReplayingHandler, sameState, stateOf,
} from './integration/informer-harness.js';
import { TcpProxy } from './integration/tcp-proxy.js';

const LONG = 5 * 60_000;
const NS = 'relist';
const name = (i: number): string => `f-${String(i).padStart(2, '0')}`;
const key = (i: number): string => `${NS}/${name(i)}`;
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

describeBackends('informer relist after compaction', (get) => {
  let writer: HTTPRESTClient;
  let cs: Clientset;

  before(() => {
    writer = adminClient(get().kubeconfigPath);
    cs = new Clientset(writer);
  });
  after(() => writer.close());

  test('410 on the resumed watch → relist: adds, updates and DeletedFinalStateUnknown deletes for what changed while cut off', { timeout: 10 * 60_000 }, async (t) => {
    await cs.coreV1().namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    const fl = cs.wardleV1alpha1().flunders(NS);
    const original = new Map<number, Flunder>();
    await inParallel(range(0, 30), 10, async (i) => {
      original.set(i, await fl.create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: name(i), labels: { v: '1' } } }));
    });

    const proxy = await TcpProxy.start(get().port);
    const rest = adminClient(get().kubeconfigPath, { host: proxy.url, options: { backoff: { initialMs: 100, maxMs: 1000 } } });
    const counting = new CountingRESTClient(rest);
    const factory = new SharedInformerFactory(new Clientset(counting), newSharedInformerFactoryCore({
      namespace: NS, tuning: { logger: silentLogger, backoff: { initialMs: 100, capMs: 1000 } },
    }));
    const informer = factory.wardle().v1alpha1().flunders().informer();
    const handler = new ReplayingHandler<Flunder>();
    informer.addEventHandler(handler);
    const watchErrors: unknown[] = [];
    informer.setWatchErrorHandler((_name, err) => watchErrors.push(err));
    try {
      factory.start();
      await factory.waitForCacheSync();
      await eventually(() => handler.state.size === 30, LONG, () => `handler holds ${handler.state.size} of 30`);

      // Cut off: the informer keeps retrying its watch from the resourceVersion it last saw.
      await proxy.pause();
      const seenBefore = handler.log.length;
      const errorsBefore = watchErrors.length;
      const listsBefore = counting.lists;
      const lastRV = informer.lastSyncResourceVersion();
      await inParallel(range(0, 10), 5, (i) => fl.delete(name(i)));
      const updated = new Map<number, Flunder>();
      await inParallel(range(10, 20), 5, async (i) => {
        const cur = original.get(i) as Flunder;
        updated.set(i, await fl.update({ ...cur, metadata: { ...cur.metadata, labels: { v: '2' } } }));
      });
      await inParallel(range(30, 40), 5, async (i) => {
        await fl.create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: name(i), labels: { v: '1' } } });
      });
      // The storage has compacted past the informer's resourceVersion once an exact list there is 410.
      await eventually(async () => {
        try {
          await fl.list({ resourceVersion: lastRV, resourceVersionMatch: 'Exact', limit: 1 });
          return false;
        } catch (e) {
          if (isStatusError(e) && e.code === 410) return true;
          throw e;
        }
      }, LONG, () => `resourceVersion ${lastRV} was not compacted`);
      assert.equal(handler.log.length, seenBefore, 'nothing reached the informer while it was cut off');

      await proxy.resume();
      let server = new Map<string, string>();
      await eventually(async () => {
        server = stateOf((await fl.list()).items);
        return sameState(stateOf(informer.getIndexer().list()), server) && sameState(handler.state, server);
      }, LONG, () => `informer differs from the server:\n${diffStates(server, stateOf(informer.getIndexer().list())).join('\n')}`);

      const expired = watchErrors.slice(errorsBefore).filter((e) => isExpiredError(e));
      assert.ok(expired.length >= 1, `the resumed watch failed with 410 Expired (watch errors: ${watchErrors.slice(errorsBefore).map(String).join('; ')})`);
      assert.ok(counting.lists > listsBefore, 'the informer relisted');
      assert.deepEqual(handler.violations, []);

      // A relist also hands every object it did not change to the handler as an update with the
      // same resourceVersion (client-go: a handler without resync keeps receiving sync deliveries).
      const all = handler.log.slice(seenBefore);
      const isSync = (n: Notification): boolean => n.kind === 'update' && n.oldRV === n.rv;
      const syncs = all.filter(isSync);
      const after = all.filter((n) => !isSync(n));
      const byKind = (kind: Notification['kind']): Notification[] => after.filter((n) => n.kind === kind).sort((a, b) => a.key.localeCompare(b.key));
      assert.deepEqual(byKind('delete'), range(0, 10).map((i) => ({
        kind: 'delete', key: key(i), rv: original.get(i)?.metadata?.resourceVersion, tombstone: true,
      })), 'deletions missed while cut off arrive as DeletedFinalStateUnknown with the last state known');
      assert.deepEqual(byKind('update'), range(10, 20).map((i) => ({
        kind: 'update', key: key(i), oldRV: original.get(i)?.metadata?.resourceVersion, rv: updated.get(i)?.metadata?.resourceVersion,
      })));
      assert.deepEqual(byKind('add'), range(30, 40).map((i) => ({ kind: 'add', key: key(i), rv: server.get(key(i)), initial: false })));
      assert.equal(after.length, 30, 'nothing else changed');
      for (const i of range(20, 30)) assert.ok(syncs.some((n) => n.key === key(i)), `${key(i)}, unchanged, is resynced by the relist`);
      for (const n of syncs) assert.equal(n.rv, server.get(n.key), `sync of ${n.key} carries the current object`);
      t.diagnostic(`lastRV ${lastRV}; ${watchErrors.length - errorsBefore} watch errors after the cut (${expired.length} expired); ${counting.lists - listsBefore} relists; ${syncs.length} sync updates`);
    } finally {
      await factory.shutdown();
      rest.close();
      await proxy.close();
    }
  });
}, { extraArgs: ['--etcd-compaction-interval=1s'] });
