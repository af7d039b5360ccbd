// Generated informers and listers over the HTTP REST client against the real control plane
// (a subprocess on SQLite): initial sync, watch events reaching handlers in order, a cache equal
// to the server's state, and a shutdown that leaves nothing running.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { type HTTPRESTClient, isDeletedFinalStateUnknown, newSharedInformerFactoryCore, restClientFromKubeconfig } from '../../runtime/client/index.js';
import type { DeepReadonly } from '../../runtime/client/types.js';
import { describeBackends } from '../integration/harness.js';

const NS = 'informer-e2e';

async function waitFor(cond: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const flunder = (name: string, reference?: string): Flunder => ({
  apiVersion: 'wardle.example.com/v1alpha1',
  kind: 'Flunder',
  metadata: { name, namespace: NS, labels: { batch: name.startsWith('pre') ? 'pre' : 'live' } },
  ...(reference ? { spec: { reference } } : {}),
});

describeBackends(
  'generated informers over the REST client',
  (get) => {
    let rest: HTTPRESTClient;
    let cs: Clientset;

    before(async () => {
      rest = restClientFromKubeconfig({ path: get().kubeconfigPath }).rest;
      cs = new Clientset(rest);
      await cs
        .coreV1()
        .namespaces()
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    });
    after(() => rest.close());

    test('sync, watch events in order, cache equal to the server, clean shutdown', async () => {
      const flunders = cs.wardleV1alpha1().flunders(NS);
      for (let i = 0; i < 30; i++) await flunders.create(flunder(`pre-${String(i).padStart(2, '0')}`));

      const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore({ namespace: NS }));
      const informer = factory.wardle().v1alpha1().flunders();
      assert.equal(informer.informer(), factory.wardle().v1alpha1().flunders().informer(), 'one shared informer');
      const watchErrors: unknown[] = [];
      informer.informer().setWatchErrorHandler((_name, err) => watchErrors.push(err));
      const events: string[] = [];
      const reg = informer.informer().addEventHandler({
        onAdd: (o, initial) => {
          events.push(`add ${o.metadata?.name}${initial ? ' initial' : ''}`);
        },
        onUpdate: (_old, o) => {
          events.push(`update ${o.metadata?.name} ${o.spec?.reference ?? ''}`);
        },
        onDelete: (o) => {
          events.push(`delete ${isDeletedFinalStateUnknown(o) ? o.key : o.metadata?.name}`);
        },
      });
      factory.start();
      const synced = await factory.waitForCacheSync(AbortSignal.timeout(30_000));
      assert.deepEqual(synced, new Map([['flunders.v1alpha1.wardle.example.com', true]]));
      await waitFor(() => reg.hasSynced(), 'handler synced');
      assert.equal(events.length, 30);
      assert.ok(events.every((e) => e.endsWith(' initial')));
      const lister = informer.lister();
      assert.equal(lister.namespace(NS).list().length, 30);

      await flunders.create(flunder('live-a'));
      await flunders.patch('live-a', 'application/merge-patch+json', { spec: { reference: 'pre-00' } });
      await flunders.delete('pre-01');
      await flunders.create(flunder('live-b'));
      await waitFor(() => events.length === 34, 'four watch events');
      assert.deepEqual(events.slice(30), ['add live-a', 'update live-a pre-00', 'delete pre-01', 'add live-b']);

      const server = await flunders.list();
      const describe = (o: DeepReadonly<Flunder> | Flunder): string => `${o.metadata?.name}@${o.metadata?.resourceVersion}`;
      assert.deepEqual(lister.namespace(NS).list().map(describe).sort(), server.items.map(describe).sort());
      assert.notEqual(informer.informer().lastSyncResourceVersion(), '');
      const cached = lister.namespace(NS).get('live-a');
      assert.equal(cached.spec?.reference, 'pre-00');
      assert.ok(Object.isFrozen(cached) && Object.isFrozen(cached.metadata));
      assert.deepEqual(
        lister
          .list()
          .filter((o) => o.metadata?.labels?.['batch'] === 'live')
          .map((o) => o.metadata?.name)
          .sort(),
        ['live-a', 'live-b'],
      );
      assert.deepEqual(watchErrors, []);

      await factory.shutdown();
      assert.equal(informer.informer().isStopped(), true);
    });
  },
  { only: ['sqlite'] },
);
