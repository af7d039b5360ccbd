// The informer acceptance scenarios of issue 5, written once against an environment: the real
// control plane behind a TCP proxy (informer*.integration.test.ts) or the generated fake
// clientset behind a FakeNetwork (informer-fake.integration.test.ts). Each uses only the
// generated Clientset and SharedInformerFactory, and asserts conditions, never timings.
import assert from 'node:assert/strict';
import type { Flunder } from '../../../apis/wardle/v1alpha1/types.js';
import { Clientset } from '../../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../../generated/informers/factory.js';
import { isStatusError } from '../../../runtime/apimachinery/errors/index.js';
import { parse as parseSelector } from '../../../runtime/apimachinery/labels/index.js';
import { newSharedInformerFactoryCore, type SharedInformerFactoryOptions, type WatchEvent } from '../../../runtime/client/index.js';
import { isExpiredError, type Logger } from '../../../runtime/client/cache/index.js';
import { type CountingRESTClient, diffStates, eventually, inParallel, type Notification, ReplayingHandler, sameState, seededRandom, stateOf } from './informer-harness.js';

export const LONG = 5 * 60_000;
const ALPHA = 'wardle.example.com/v1alpha1';

/** Where the scenarios run. */
export interface InformerEnv {
  /** A client of the current state (writes, fresh lists) that does not go through the network. */
  readonly cs: Clientset;
  /** The informer's transport: through the network that drop() and cutOff() break. */
  informerTransport(): CountingRESTClient;
  /** Breaks every open connection of the informer once. */
  drop(): void;
  /** Refuses the informer's connections (and breaks the open ones) until reconnect(). */
  cutOff(): Promise<void>;
  reconnect(): Promise<void>;
  /**
   * Drops connections while the churn runs: on a timer, or every so many changes. afterChange
   * is awaited after each change (the fake yields to the event loop there, as network I/O does).
   */
  startDropping(): { afterChange(changes: number): void | Promise<void>; stop(): void; drops(): number };
  createNamespace(name: string): Promise<void>;
}

export function flunder(name: string, labels: Record<string, string> = {}): Flunder {
  return { apiVersion: ALPHA, kind: 'Flunder', metadata: { name, labels } };
}

/** Counts what the reflector reports instead of printing it: failures are provoked on purpose. */
function countingLogger(): Logger & { errors: number; infos: number } {
  const l = { errors: 0, infos: 0, error: () => void l.errors++, info: () => void l.infos++ };
  return l;
}

/** A factory over the env's informer transport, with short reflector backoffs (the scenarios cut connections). */
function newFactory(env: InformerEnv, options: SharedInformerFactoryOptions = {}) {
  const transport = env.informerTransport();
  const logger = countingLogger();
  const factory = new SharedInformerFactory(
    new Clientset(transport),
    newSharedInformerFactoryCore({
      ...options,
      tuning: { logger, backoff: { initialMs: 100, capMs: 2000 } },
    }),
  );
  return { factory, transport, logger };
}

/** 1,000 objects synced: hasSynced, lister contents equal to a list, initial adds, frozen objects. */
export async function syncThousand(env: InformerEnv): Promise<void> {
  await env.createNamespace('sync');
  const fl = env.cs.wardleV1alpha1().flunders('sync');
  const names = Array.from({ length: 1000 }, (_, i) => `f-${String(i).padStart(4, '0')}`);
  await inParallel(names, 32, async (n, i) => {
    await fl.create(flunder(n, { suite: 'sync', half: i % 2 === 0 ? 'even' : 'odd' }));
  });

  const { factory } = newFactory(env, { namespace: 'sync' });
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
    const cached = stateOf(lister.namespace('sync').list());
    assert.ok(sameState(cached, stateOf(server.items)), diffStates(stateOf(server.items), cached).join('\n'));
    const even = await fl.list({ labelSelector: 'half=even' });
    assert.equal(even.items.length, 500);
    assert.ok(sameState(stateOf(lister.list(parseSelector('half=even'))), stateOf(even.items)));
    const one = lister.namespace('sync').get('f-0042');
    assert.deepEqual(one, await fl.get('f-0042'), 'the cached object is the object a get returns');
    assert.ok(Object.isFrozen(one) && Object.isFrozen(one.metadata), 'cached objects are frozen');

    await eventually(
      () => registration.hasSynced(),
      LONG,
      () => `handler saw ${handler.log.length} of 1000 initial adds`,
    );
    assert.equal(handler.log.length, 1000);
    assert.ok(handler.log.every((n) => n.kind === 'add' && n.initial));
    assert.deepEqual(handler.violations, []);
    assert.ok(sameState(handler.state, stateOf(server.items)));
  } finally {
    await factory.shutdown();
  }
}

/** A typed watch from a list's resourceVersion gets exactly the later changes, in order, decoded like a get. */
export async function watchFromResourceVersion(env: InformerEnv): Promise<void> {
  await env.createNamespace('watch-rv');
  const fl = env.cs.wardleV1alpha1().flunders('watch-rv');
  await fl.create(flunder('before'));
  const rv = (await fl.list()).metadata?.resourceVersion;
  const a = await fl.create(flunder('a'));
  const a2 = await fl.update({ ...a, metadata: { ...a.metadata, labels: { changed: 'yes' } } });
  await fl.delete('before');
  const w = await fl.watch({ resourceVersion: rv });
  const seen: WatchEvent<Flunder>[] = [];
  try {
    for await (const e of w) {
      seen.push(e);
      if (seen.length === 3) break;
    }
  } finally {
    w.stop();
  }
  const summary = seen.map((e) => (e.type === 'ERROR' ? `ERROR ${e.object.code}` : `${e.type} ${e.object.metadata?.name}`));
  assert.deepEqual(summary, ['ADDED a', 'MODIFIED a', 'DELETED before']);
  const modified = seen[1];
  assert.ok(modified !== undefined && modified.type === 'MODIFIED');
  assert.deepEqual(modified.object, a2, 'a watch event carries the object a write returned');
}

/**
 * `writers × perWriter` mixed creates, updates and deletes in 4 namespaces while the informer's
 * connections are dropped; ends with cache and handler state equal to a fresh list. Returns a
 * line of diagnostics.
 */
export async function churn(env: InformerEnv, o: { writers: number; perWriter: number }): Promise<string> {
  const namespaces = ['churn-0', 'churn-1', 'churn-2', 'churn-3'];
  for (const ns of namespaces) await env.createNamespace(ns);
  const { factory, transport, logger } = newFactory(env, { tweakListOptions: (lo) => ({ ...lo, labelSelector: 'suite=churn' }) });
  const informer = factory.wardle().v1alpha1().flunders().informer();
  const handler = new ReplayingHandler<Flunder>();
  informer.addEventHandler(handler);
  const watchErrors: unknown[] = [];
  informer.setWatchErrorHandler((_name, err) => watchErrors.push(err));
  const dropping = env.startDropping();
  try {
    factory.start();
    await factory.waitForCacheSync();
    // Each writer is the only writer of its objects, so updates never conflict.
    let changes = 0;
    await Promise.all(
      Array.from({ length: o.writers }, async (_, w) => {
        const random = seededRandom(1000 + w);
        const client = env.cs.wardleV1alpha1().flunders(namespaces[w % namespaces.length] as string);
        const live = new Map<string, Flunder>();
        let serial = 0;
        for (let i = 0; i < o.perWriter; i++) {
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
          await dropping.afterChange(++changes);
        }
      }),
    );
    dropping.stop();
    assert.equal(changes, o.writers * o.perWriter);

    let server = new Map<string, string>();
    const cached = (): Map<string, string> => stateOf(informer.getIndexer().list());
    await eventually(
      async () => {
        server = stateOf((await env.cs.wardleV1alpha1().flunders('').list({ labelSelector: 'suite=churn' })).items);
        return sameState(cached(), server);
      },
      LONG,
      () => `cache differs from the server:\n${diffStates(server, cached()).join('\n')}`,
    );
    await eventually(
      () => sameState(handler.state, server),
      LONG,
      () => `handler state differs:\n${diffStates(server, handler.state).join('\n')}`,
    );
    assert.deepEqual(handler.violations, []);
    assert.ok(server.size > 0);
    assert.ok(dropping.drops() >= 2, `connections were dropped during the run (${dropping.drops()})`);
    return (
      `${changes} changes, ${server.size} objects at the end; ${dropping.drops()} drops; ` +
      `${transport.lists} lists, ${transport.watches} watches; ${watchErrors.length} watch errors; ` +
      `${handler.log.length} notifications; reflector logged ${logger.errors} errors, ${logger.infos} infos`
    );
  } finally {
    dropping.stop();
    await factory.shutdown();
  }
}

const relistName = (i: number): string => `f-${String(i).padStart(2, '0')}`;
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/**
 * The informer is cut off while 10 Flunders are deleted, 10 updated and 10 created, until a
 * watch from its resourceVersion is 410 (the environment's history no longer reaches back:
 * compaction, or a bounded history). Let back, its resumed watch gets 410, it relists, and the
 * handler is told exactly what changed: DeletedFinalStateUnknown tombstones for the deletions,
 * updates from the last known state, adds, and same-resourceVersion sync updates for the rest.
 */
export async function relistAfterExpiry(env: InformerEnv): Promise<string> {
  const NS = 'relist';
  const key = (i: number): string => `${NS}/${relistName(i)}`;
  await env.createNamespace(NS);
  const fl = env.cs.wardleV1alpha1().flunders(NS);
  const original = new Map<number, Flunder>();
  await inParallel(range(0, 30), 10, async (i) => {
    original.set(i, await fl.create(flunder(relistName(i), { v: '1' })));
  });

  const { factory, transport } = newFactory(env, { namespace: NS });
  const informer = factory.wardle().v1alpha1().flunders().informer();
  const handler = new ReplayingHandler<Flunder>();
  informer.addEventHandler(handler);
  const watchErrors: unknown[] = [];
  informer.setWatchErrorHandler((_name, err) => watchErrors.push(err));
  try {
    factory.start();
    await factory.waitForCacheSync();
    await eventually(
      () => handler.state.size === 30,
      LONG,
      () => `handler holds ${handler.state.size} of 30`,
    );

    await env.cutOff();
    const seenBefore = handler.log.length;
    const errorsBefore = watchErrors.length;
    const listsBefore = transport.lists;
    const lastRV = informer.lastSyncResourceVersion();
    await inParallel(range(0, 10), 5, (i) => fl.delete(relistName(i)));
    const updated = new Map<number, Flunder>();
    await inParallel(range(10, 20), 5, async (i) => {
      const cur = original.get(i) as Flunder;
      updated.set(i, await fl.update({ ...cur, metadata: { ...cur.metadata, labels: { v: '2' } } }));
    });
    await inParallel(range(30, 40), 5, async (i) => {
      await fl.create(flunder(relistName(i), { v: '1' }));
    });
    await eventually(
      () => watchIsExpired(env, NS, lastRV),
      LONG,
      () => `a watch from resourceVersion ${lastRV} is not 410 yet`,
    );
    assert.equal(handler.log.length, seenBefore, 'nothing reached the informer while it was cut off');

    await env.reconnect();
    let server = new Map<string, string>();
    await eventually(
      async () => {
        server = stateOf((await fl.list()).items);
        return sameState(stateOf(informer.getIndexer().list()), server) && sameState(handler.state, server);
      },
      LONG,
      () => `informer differs from the server:\n${diffStates(server, stateOf(informer.getIndexer().list())).join('\n')}`,
    );

    const expired = watchErrors.slice(errorsBefore).filter((e) => isExpiredError(e));
    assert.ok(expired.length >= 1, `the resumed watch failed with 410 Expired (watch errors: ${watchErrors.slice(errorsBefore).map(String).join('; ')})`);
    assert.ok(transport.lists > listsBefore, 'the informer relisted');
    assert.deepEqual(handler.violations, []);

    // A relist also hands every object it did not change to the handler as an update with the
    // same resourceVersion (client-go: a handler without resync keeps receiving sync deliveries).
    const all = handler.log.slice(seenBefore);
    const isSync = (n: Notification): boolean => n.kind === 'update' && n.oldRV === n.rv;
    const syncs = all.filter(isSync);
    const changed = all.filter((n) => !isSync(n));
    const byKind = (kind: Notification['kind']): Notification[] => changed.filter((n) => n.kind === kind).sort((a, b) => a.key.localeCompare(b.key));
    assert.deepEqual(
      byKind('delete'),
      range(0, 10).map((i) => ({
        kind: 'delete',
        key: key(i),
        rv: original.get(i)?.metadata?.resourceVersion,
        tombstone: true,
      })),
      'deletions missed while cut off arrive as DeletedFinalStateUnknown with the last state known',
    );
    assert.deepEqual(
      byKind('update'),
      range(10, 20).map((i) => ({
        kind: 'update',
        key: key(i),
        oldRV: original.get(i)?.metadata?.resourceVersion,
        rv: updated.get(i)?.metadata?.resourceVersion,
      })),
    );
    assert.deepEqual(
      byKind('add'),
      range(30, 40).map((i) => ({ kind: 'add', key: key(i), rv: server.get(key(i)), initial: false })),
    );
    assert.equal(changed.length, 30, 'nothing else changed');
    for (const i of range(20, 30))
      assert.ok(
        syncs.some((n) => n.key === key(i)),
        `${key(i)}, unchanged, is resynced by the relist`,
      );
    for (const n of syncs) assert.equal(n.rv, server.get(n.key), `sync of ${n.key} carries the current object`);
    return `lastRV ${lastRV}; ${watchErrors.length - errorsBefore} watch errors after the cut (${expired.length} expired); ` + `${transport.lists - listsBefore} relists; ${syncs.length} sync updates`;
  } finally {
    await factory.shutdown();
  }
}

/** Whether a watch from `rv` starts with a 410 ERROR event (the history no longer reaches back). */
async function watchIsExpired(env: InformerEnv, namespace: string, rv: string): Promise<boolean> {
  let w;
  try {
    w = await env.cs.wardleV1alpha1().flunders(namespace).watch({ resourceVersion: rv });
  } catch (e) {
    if (isStatusError(e) && e.code === 410) return true;
    throw e;
  }
  try {
    for await (const e of w) return e.type === 'ERROR' && e.object.code === 410;
    return false;
  } finally {
    w.stop();
  }
}
