import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newResourceExpired } from '../../runtime/apimachinery/errors/index.js';
import { DeletedFinalStateUnknown } from '../../runtime/client/cache.js';
import {
  DeltaFIFO,
  type Deltas,
  deepFreeze,
  deletionHandlingMetaNamespaceKeyFunc,
  ExponentialBackoff,
  listInPages,
  metaNamespaceIndexFunc,
  NAMESPACE_INDEX,
  newIndexer,
  splitMetaNamespaceKey,
} from '../../runtime/client/cache/index.js';
import type { DeepReadonly } from '../../runtime/client/types.js';
import { FakeAPI, type Obj } from './cache-fake-api.js';
import { FakeClock } from './cache-fake-clock.js';

const obj = (name: string, namespace: string | undefined, rv: number, labels: Record<string, string> = {}): DeepReadonly<Obj> =>
  deepFreeze({ metadata: { name, ...(namespace ? { namespace } : {}), resourceVersion: String(rv), labels } });

const summary = (deltas: Deltas<Obj>): string[] =>
  deltas.map((d) => {
    const o = d.object;
    return o instanceof DeletedFinalStateUnknown ? `${d.type}:tombstone(${o.key}@${o.obj.metadata.resourceVersion})` : `${d.type}:${o.metadata.name}@${o.metadata.resourceVersion}`;
  });

describe('indexer', () => {
  const byApp = { app: (o: DeepReadonly<Obj>) => (o.metadata.labels?.['app'] ? [o.metadata.labels['app']] : []) };

  it('keeps objects by namespace/name and the namespace index in step with writes', () => {
    const idx = newIndexer<Obj>(deletionHandlingMetaNamespaceKeyFunc, { [NAMESPACE_INDEX]: metaNamespaceIndexFunc });
    idx.add(obj('a', 'ns1', 1));
    idx.add(obj('b', 'ns1', 2));
    idx.add(obj('c', 'ns2', 3));
    idx.add(obj('cluster', undefined, 4));
    assert.equal(idx.getByKey('ns1/a')?.metadata.resourceVersion, '1');
    assert.equal(idx.getByKey('cluster')?.metadata.name, 'cluster');
    assert.equal(idx.getByKey('ns1/missing'), undefined);
    assert.deepEqual(idx.listKeys(), ['ns1/a', 'ns1/b', 'ns2/c', 'cluster']);
    assert.deepEqual(
      idx.byIndex(NAMESPACE_INDEX, 'ns1').map((o) => o.metadata.name),
      ['a', 'b'],
    );
    assert.deepEqual(idx.listIndexFuncValues(NAMESPACE_INDEX), ['ns1', 'ns2', '']);
    idx.update(obj('a', 'ns1', 5));
    assert.equal(idx.getByKey('ns1/a')?.metadata.resourceVersion, '5');
    idx.delete(obj('b', 'ns1', 2));
    idx.delete(new DeletedFinalStateUnknown<Obj>('ns2/c', obj('c', 'ns2', 3)));
    assert.deepEqual(
      idx.byIndex(NAMESPACE_INDEX, 'ns1').map((o) => o.metadata.name),
      ['a'],
    );
    assert.deepEqual(idx.listIndexFuncValues(NAMESPACE_INDEX), ['ns1', '']);
    assert.deepEqual(idx.indexKeys(NAMESPACE_INDEX, 'ns2'), []);
  });

  it('moves an object between index values when an update changes them', () => {
    const idx = newIndexer<Obj>(deletionHandlingMetaNamespaceKeyFunc, byApp);
    idx.add(obj('a', 'ns', 1, { app: 'web' }));
    idx.update(obj('a', 'ns', 2, { app: 'db' }));
    assert.deepEqual(idx.byIndex('app', 'web'), []);
    assert.deepEqual(idx.indexKeys('app', 'db'), ['ns/a']);
    assert.deepEqual(idx.listIndexFuncValues('app'), ['db']);
  });

  it('builds an index added later over the objects already stored, and refuses a taken name', () => {
    const idx = newIndexer<Obj>(deletionHandlingMetaNamespaceKeyFunc, { [NAMESPACE_INDEX]: metaNamespaceIndexFunc });
    idx.add(obj('a', 'ns', 1, { app: 'web' }));
    idx.add(obj('b', 'ns', 2, { app: 'db' }));
    idx.addIndexers(byApp);
    assert.deepEqual(idx.indexKeys('app', 'web'), ['ns/a']);
    idx.add(obj('c', 'ns', 3, { app: 'web' }));
    assert.deepEqual(
      idx.byIndex('app', 'web').map((o) => o.metadata.name),
      ['a', 'c'],
    );
    assert.throws(() => idx.addIndexers({ [NAMESPACE_INDEX]: metaNamespaceIndexFunc }), /indexer conflict: namespace/);
    assert.throws(() => idx.byIndex('nope', 'x'), /index with name nope does not exist/);
  });

  it('leaves the store unchanged when an index function throws', () => {
    const idx = newIndexer<Obj>(deletionHandlingMetaNamespaceKeyFunc, {
      picky: (o) => {
        if (o.metadata.name === 'bad') throw new Error('cannot index');
        return [o.metadata.name];
      },
    });
    idx.add(obj('good', 'ns', 1));
    assert.throws(() => idx.add(obj('bad', 'ns', 2)), /cannot index/);
    assert.deepEqual(idx.listKeys(), ['ns/good']);
    assert.deepEqual(idx.listIndexFuncValues('picky'), ['good']);
  });

  it('rejects objects without a name and splits keys back', () => {
    const idx = newIndexer<Obj>(deletionHandlingMetaNamespaceKeyFunc);
    assert.throws(() => idx.add(deepFreeze({ metadata: { name: '' } })), /no metadata.name/);
    assert.deepEqual(splitMetaNamespaceKey('ns/a'), { namespace: 'ns', name: 'a' });
    assert.deepEqual(splitMetaNamespaceKey('a'), { namespace: '', name: 'a' });
    assert.throws(() => splitMetaNamespaceKey('a/b/c'), /unexpected key format/);
  });
});

describe('DeltaFIFO', () => {
  const setup = () => {
    const known = newIndexer<Obj>(deletionHandlingMetaNamespaceKeyFunc);
    let synced = 0;
    const fifo = new DeltaFIFO<Obj>({
      keyFunc: deletionHandlingMetaNamespaceKeyFunc,
      knownObjects: known,
      onSynced: () => {
        synced++;
      },
    });
    const popAll = async (): Promise<{ deltas: string[]; initial: boolean }[]> => {
      const out: { deltas: string[]; initial: boolean }[] = [];
      while (fifo.listKeys().length > 0) {
        await fifo.pop((deltas, initial) => {
          out.push({ deltas: summary(deltas), initial });
          // Apply as an informer would, so knownObjects follows.
          for (const d of deltas)
            if (d.type === 'Deleted') known.delete(d.object);
            else known.add(d.object as DeepReadonly<Obj>);
        });
      }
      return out;
    };
    return { known, fifo, popAll, synced: () => synced };
  };

  it('accumulates the deltas of one object under one key, in order', async () => {
    const { fifo, popAll } = setup();
    fifo.add(obj('a', 'ns', 1));
    fifo.add(obj('b', 'ns', 2));
    fifo.update(obj('a', 'ns', 3));
    fifo.delete(obj('a', 'ns', 3));
    assert.deepEqual(fifo.listKeys(), ['ns/a', 'ns/b']);
    assert.deepEqual(await popAll(), [
      { deltas: ['Added:a@1', 'Updated:a@3', 'Deleted:a@3'], initial: false },
      { deltas: ['Added:b@2'], initial: false },
    ]);
  });

  it('collapses consecutive deletions, keeping the observed one over a tombstone', async () => {
    const { fifo, known } = setup();
    known.add(obj('a', 'ns', 1));
    fifo.delete(obj('a', 'ns', 2));
    fifo.replace([], '3'); // would add a tombstone for a: deduplicated away
    assert.deepEqual(summary(fifo.pending('ns/a')), ['Deleted:a@2']);
  });

  it('ignores the deletion of an object it has never heard of', () => {
    const { fifo } = setup();
    fifo.delete(obj('ghost', 'ns', 1));
    assert.deepEqual(fifo.listKeys(), []);
  });

  it('replace emits Replaced deltas and tombstones for objects gone from the store and from the queue', async () => {
    const { fifo, known, popAll } = setup();
    fifo.replace([obj('a', 'ns', 1), obj('b', 'ns', 2), obj('c', 'ns', 3)], '3');
    await popAll();
    fifo.add(obj('d', 'ns', 4)); // pending in the queue, then missing from the relist
    fifo.replace([obj('a', 'ns', 1), obj('b', 'ns', 5)], '6');
    assert.deepEqual(await popAll(), [
      { deltas: ['Added:d@4', 'Deleted:tombstone(ns/d@4)'], initial: false },
      { deltas: ['Replaced:a@1'], initial: false },
      { deltas: ['Replaced:b@5'], initial: false },
      { deltas: ['Deleted:tombstone(ns/c@3)'], initial: false },
    ]);
    assert.deepEqual(known.listKeys(), ['ns/a', 'ns/b']);
  });

  it('is synced once the first replace has been popped completely, marking those pops as the initial list', async () => {
    const { fifo, popAll, synced } = setup();
    assert.equal(fifo.hasSynced(), false);
    fifo.replace([obj('a', 'ns', 1), obj('b', 'ns', 2)], '2');
    assert.equal(fifo.hasSynced(), false);
    const popped = await popAll();
    assert.deepEqual(
      popped.map((p) => p.initial),
      [true, true],
    );
    assert.equal(fifo.hasSynced(), true);
    assert.equal(synced(), 1);
    fifo.add(obj('c', 'ns', 3));
    assert.deepEqual(
      (await popAll()).map((p) => p.initial),
      [false],
    );
  });

  it('is synced at once when the first list is empty', () => {
    const { fifo, synced } = setup();
    fifo.replace([], '1');
    assert.equal(fifo.hasSynced(), true);
    assert.equal(synced(), 1);
  });

  it('resync queues Sync deltas for stored objects without pending changes', async () => {
    const { fifo, popAll } = setup();
    fifo.replace([obj('a', 'ns', 1), obj('b', 'ns', 2)], '2');
    await popAll();
    fifo.update(obj('b', 'ns', 3));
    fifo.resync();
    assert.deepEqual(await popAll(), [
      { deltas: ['Updated:b@3'], initial: false },
      { deltas: ['Sync:a@1'], initial: false },
    ]);
  });

  it('pop waits for work and resolves false once closed', async () => {
    const { fifo } = setup();
    const seen: string[] = [];
    const first = fifo.pop((d) => {
      seen.push(...summary(d));
    });
    fifo.add(obj('a', 'ns', 1));
    assert.equal(await first, true);
    assert.deepEqual(seen, ['Added:a@1']);
    const second = fifo.pop(() => assert.fail('nothing to pop'));
    fifo.close();
    assert.equal(await second, false);
    assert.equal(await fifo.pop(() => assert.fail('closed')), false);
  });
});

describe('listInPages', () => {
  const api = (): FakeAPI => {
    const a = new FakeAPI();
    for (let i = 0; i < 7; i++) a.create(`o${i}`, 'ns');
    return a;
  };

  it("follows continue tokens without a resourceVersion and reports the first page's", async () => {
    const a = api();
    const result = await listInPages((o) => a.list(o), { resourceVersion: '' }, 3);
    assert.equal(result.items.length, 7);
    assert.equal(result.resourceVersion, '107');
    assert.equal(result.paginated, true);
    assert.deepEqual(
      a.calls.map((c) => [c.options.limit, c.options.resourceVersion, c.options.continue !== undefined]),
      [
        [3, '', false],
        [3, undefined, true],
        [3, undefined, true],
      ],
    );
  });

  it('returns a single page as is', async () => {
    const a = api();
    const result = await listInPages((o) => a.list(o), { resourceVersion: '0' }, 3);
    assert.equal(result.items.length, 7); // resourceVersion "0" is served whole, as from the watch cache
    assert.equal(result.paginated, false);
    assert.equal(a.calls.length, 1);
  });

  it('falls back to one full list at the first resourceVersion when a continue token expires', async () => {
    const a = api();
    let pages = 0;
    const result = await listInPages(
      async (o) => {
        const page = await a.list(o);
        if (++pages === 1) {
          a.create('late', 'ns');
          a.compact();
        }
        return page;
      },
      { resourceVersion: '' },
      3,
    );
    assert.deepEqual(
      a.calls.map((c) => [c.options.limit, c.options.continue !== undefined]),
      [
        [3, false],
        [3, true],
        [undefined, false],
      ],
    );
    assert.equal(result.items.length, 8);
    assert.equal(result.resourceVersion, '108');
  });

  it('passes other errors, and an expiry of the first page, through', async () => {
    const a = api();
    a.failLists.push(new Error('boom'));
    await assert.rejects(
      listInPages((o) => a.list(o), { resourceVersion: '' }, 3),
      /boom/,
    );
    a.failLists.push(newResourceExpired('too old'));
    await assert.rejects(
      listInPages((o) => a.list(o), { resourceVersion: '0' }, 3),
      (e: unknown) => (e as { code?: number }).code === 410,
    );
  });
});

describe('ExponentialBackoff', () => {
  it('doubles from 800 ms to the 30 s cap, adds jitter on top, and restarts after a quiet period', () => {
    const clock = new FakeClock();
    const noJitter = new ExponentialBackoff({}, clock, () => 0);
    const delays = Array.from({ length: 8 }, () => noJitter.next());
    assert.deepEqual(delays, [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    clock.advance(120_001);
    assert.equal(noJitter.next(), 800);
    const fullJitter = new ExponentialBackoff({}, new FakeClock(), () => 0.5);
    assert.deepEqual([fullJitter.next(), fullJitter.next()], [1200, 2400]);
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays in place', () => {
    const o = { metadata: { name: 'a', labels: { x: 'y' } }, list: [{ v: 1 }] };
    const frozen = deepFreeze(o);
    assert.equal(frozen, o);
    assert.throws(() => {
      (o.metadata.labels as Record<string, string>)['x'] = 'z';
    }, TypeError);
    assert.throws(() => {
      o.list.push({ v: 2 });
    }, TypeError);
    assert.throws(() => {
      (o.list[0] as { v: number }).v = 2;
    }, TypeError);
  });
});
