// Acceptance of the informers (issue 5) against the real control plane (a subprocess, as users
// run it) on SQLite and on etcd, through the generated Clientset and SharedInformerFactory over
// the HTTP REST client: 1,000 objects synced; 10,000 mixed changes in several namespaces while a
// proxy between informer and server drops every connection every ~2 s, ending with the cache
// equal to the server's state and the handler's add/update/delete calls adding up to it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { parse as parseSelector } from '../../runtime/apimachinery/labels/index.js';
import { newSharedInformerFactoryCore, type HTTPRESTClient } from '../../runtime/client/index.js';
import type { Logger } from '../../runtime/client/cache/index.js';
import { describeBackends } from '../integration/harness.js';
import {
  adminClient, CountingRESTClient, diffStates, eventually, inParallel, ReplayingHandler, sameState, seededRandom, stateOf,
} from './integration/informer-harness.js';
import { TcpProxy } from './integration/tcp-proxy.js';

const ALPHA = 'wardle.example.com/v1alpha1';
const LONG = 5 * 60_000;

function flunder(name: string, labels: Record<string, string>): Flunder {
  return { apiVersion: ALPHA, kind: 'Flunder', metadata: { name, labels } };
}

/** Counts what the reflector reports instead of printing it: drops are provoked on purpose here. */
function countingLogger(): Logger & { errors: number; infos: number } {
  const l = { errors: 0, infos: 0, error: () => void l.errors++, info: () => void l.infos++ };
  return l;
}

describeBackends('informers against the control plane', (get) => {
  let writer: HTTPRESTClient;
  let cs: Clientset;

  before(() => {
    writer = adminClient(get().kubeconfigPath);
    cs = new Clientset(writer);
  });
  after(() => writer.close());

  const createNamespace = (name: string): Promise<unknown> =>
    cs.coreV1().namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  test('1,000 objects synced: hasSynced, lister equal to a server list, initial adds', { timeout: LONG }, async () => {
    await createNamespace('sync');
    const fl = cs.wardleV1alpha1().flunders('sync');
    const names = Array.from({ length: 1000 }, (_, i) => `f-${String(i).padStart(4, '0')}`);
    await inParallel(names, 32, async (n, i) => {
      await fl.create(flunder(n, { suite: 'sync', half: i % 2 === 0 ? 'even' : 'odd' }));
    });

    const rest = adminClient(get().kubeconfigPath);
    const factory = new SharedInformerFactory(new Clientset(rest), newSharedInformerFactoryCore({ namespace: 'sync', tuning: { logger: countingLogger() } }));
    try {
      const flunders = factory.wardle().v1alpha1().flunders();
      assert.equal(factory.wardle().v1alpha1().flunders().informer(), flunders.informer(), 'one shared informer per resource');
      const handler = new ReplayingHandler<Flunder>();
      const registration = flunders.informer().addEventHandler(handler);
      assert.equal(flunders.informer().hasSynced(), false);
      factory.start();
      const synced = await factory.waitForCacheSync();
      assert.deepEqual([...synced], [['flunders.v1alpha1.wardle.example.com', true]]);
      assert.equal(flunders.informer().hasSynced(), true);

      const server = await fl.list();
      assert.equal(server.items.length, 1000);
      const lister = flunders.lister();
      assert.ok(sameState(stateOf(lister.namespace('sync').list()), stateOf(server.items)), diffStates(stateOf(server.items), stateOf(lister.namespace('sync').list())).join('\n'));
      const even = await fl.list({ labelSelector: 'half=even' });
      assert.equal(even.items.length, 500);
      assert.ok(sameState(stateOf(lister.list(parseSelector('half=even'))), stateOf(even.items)));
      const one = lister.namespace('sync').get('f-0042');
      assert.deepEqual(one, await fl.get('f-0042'), 'the cached object is the object a get returns');
      assert.ok(Object.isFrozen(one) && Object.isFrozen(one.metadata), 'cached objects are frozen');

      await eventually(() => registration.hasSynced(), LONG, () => `handler saw ${handler.log.length} of 1000 initial adds`);
      assert.equal(handler.log.length, 1000);
      assert.ok(handler.log.every((n) => n.kind === 'add' && n.initial));
      assert.deepEqual(handler.violations, []);
      assert.ok(sameState(handler.state, stateOf(server.items)));
    } finally {
      await factory.shutdown();
      rest.close();
    }
  });

  test('10,000 changes in 4 namespaces, connections dropped every 2 s: cache and handler end equal to the server', { timeout: 15 * 60_000 }, async (t) => {
    const namespaces = ['churn-0', 'churn-1', 'churn-2', 'churn-3'];
    for (const ns of namespaces) await createNamespace(ns);
    const proxy = await TcpProxy.start(get().port);
    const rest = adminClient(get().kubeconfigPath, { host: proxy.url });
    const counting = new CountingRESTClient(rest);
    const logger = countingLogger();
    const factory = new SharedInformerFactory(new Clientset(counting), newSharedInformerFactoryCore({
      tweakListOptions: (o) => ({ ...o, labelSelector: 'suite=churn' }),
      tuning: { logger, backoff: { initialMs: 100, capMs: 2000 } },
    }));
    const informer = factory.wardle().v1alpha1().flunders().informer();
    const handler = new ReplayingHandler<Flunder>();
    informer.addEventHandler(handler);
    const watchErrors: unknown[] = [];
    informer.setWatchErrorHandler((_name, err) => watchErrors.push(err));
    let stopDropping = (): void => {};
    try {
      factory.start();
      await factory.waitForCacheSync();
      stopDropping = proxy.dropEvery(2000);

      // 16 writers, each the only writer of its objects (so updates never conflict), 625 changes each.
      const WRITERS = 16;
      const PER_WRITER = 625;
      let changes = 0;
      await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
        const random = seededRandom(1000 + w);
        const ns = namespaces[w % namespaces.length] as string;
        const client = cs.wardleV1alpha1().flunders(ns);
        const live = new Map<string, Flunder>();
        let serial = 0;
        for (let i = 0; i < PER_WRITER; i++) {
          const r = random();
          const names = [...live.keys()];
          if (names.length < 3 || r < 0.4) {
            const name = `w${w}-${serial++}`;
            live.set(name, await client.create(flunder(name, { suite: 'churn', gen: '0' })));
          } else if (r < 0.8) {
            const name = names[Math.floor(random() * names.length)] as string;
            const cur = live.get(name) as Flunder;
            live.set(name, await client.update({ ...cur, metadata: { ...cur.metadata, labels: { suite: 'churn', gen: String(i) } } }));
          } else {
            const name = names[Math.floor(random() * names.length)] as string;
            await client.delete(name);
            live.delete(name);
          }
          changes++;
        }
      }));
      stopDropping();
      assert.equal(changes, WRITERS * PER_WRITER);

      let server = new Map<string, string>();
      const cached = (): Map<string, string> => stateOf(informer.getIndexer().list());
      await eventually(async () => {
        server = stateOf((await cs.wardleV1alpha1().flunders('').list({ labelSelector: 'suite=churn' })).items);
        return sameState(cached(), server);
      }, LONG, () => `cache differs from the server:\n${diffStates(server, cached()).join('\n')}`);
      await eventually(() => sameState(handler.state, server), LONG, () => `handler state differs:\n${diffStates(server, handler.state).join('\n')}`);
      assert.deepEqual(handler.violations, []);
      assert.ok(server.size > 0);
      t.diagnostic(`${changes} changes, ${server.size} objects at the end; ${proxy.drops} drops; `
        + `${counting.lists} lists, ${counting.watches} watches; ${watchErrors.length} watch errors; `
        + `${handler.log.length} notifications; reflector logged ${logger.errors} errors, ${logger.infos} infos`);
      assert.ok(proxy.drops >= 2, `connections were dropped during the run (${proxy.drops})`);
    } finally {
      stopDropping();
      await factory.shutdown();
      rest.close();
      await proxy.close();
    }
  });
});
