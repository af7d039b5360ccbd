// The generated informers and listers over the generated fake clientset: the controller-test
// setup (no server). The fake must behave like the server for the reflector: lists with a
// resourceVersion, watches from it, copies handed out (the informer freezes what it receives).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { isDeletedFinalStateUnknown, newSharedInformerFactoryCore } from '../../runtime/client/index.js';
import { silentLogger } from '../../runtime/client/cache/index.js';
import { until } from './cache-testing.js';

const flunder = (name: string, namespace: string): Flunder => ({
  apiVersion: 'wardle.example.com/v1alpha1',
  kind: 'Flunder',
  metadata: { name, namespace },
  spec: { reference: 'r', referenceType: 'Flunder' },
});

test("informers over the fake clientset: sync, events, lister equal to the fake's state", async () => {
  const cs = newSimpleClientset(flunder('a', 'ns1'), flunder('b', 'ns1'), flunder('c', 'ns2'));
  const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore({ tuning: { logger: silentLogger } }));
  const flunders = factory.wardle().v1alpha1().flunders();
  const view = new Map<string, string>();
  const key = (o: { metadata?: { namespace?: string; name?: string } }): string => `${o.metadata?.namespace}/${o.metadata?.name}`;
  const initial: string[] = [];
  flunders.informer().addEventHandler({
    onAdd: (o, isInitial) => {
      view.set(key(o), o.metadata?.resourceVersion ?? '');
      if (isInitial) initial.push(key(o));
    },
    onUpdate: (_old, o) => {
      view.set(key(o), o.metadata?.resourceVersion ?? '');
    },
    onDelete: (o) => {
      view.delete(isDeletedFinalStateUnknown(o) ? o.key : key(o));
    },
  });
  factory.start();
  assert.deepEqual(await factory.waitForCacheSync(), new Map([['flunders.v1alpha1.wardle.example.com', true]]));
  await until(() => initial.length === 3, 'initial adds');

  const client = cs.wardleV1alpha1().flunders('ns1');
  await client.create(flunder('d', 'ns1'));
  await client.patch('a', 'application/merge-patch+json', { spec: { reference: 'changed' } });
  await client.delete('b');
  // What the fake holds is untouched by the informer's freezing: it can still be updated.
  const d = await client.get('d');
  await client.update({ ...d, spec: { ...d.spec, reference: 'again' } });

  const server = async (): Promise<string[]> => (await cs.wardleV1alpha1().flunders('').list()).items.map((o) => `${key(o)}@${o.metadata?.resourceVersion}`).sort();
  const expected = await server();
  await until(() => JSON.stringify([...view].map(([k, rv]) => `${k}@${rv}`).sort()) === JSON.stringify(expected), 'handler view equal to the fake');
  assert.deepEqual(
    flunders
      .lister()
      .list()
      .map((o) => `${key(o)}@${o.metadata?.resourceVersion}`)
      .sort(),
    expected,
  );
  assert.equal(flunders.lister().namespace('ns1').get('a').spec?.reference, 'changed');
  await factory.shutdown();
});
