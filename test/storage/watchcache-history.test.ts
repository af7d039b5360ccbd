// The watch cache's event history (kube's watch_cache.go ring): it starts small and doubles up to
// its capacity, so an idle resource holds little, and only at capacity does it drop its oldest
// events, moving the floor below which a watch is 410 Gone. Growing must keep every event in order,
// also after the ring wrapped around.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WatchCache } from '../../runtime/storage/cacher/watchCache.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';

function object(name: string, rv: number): StoredObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, resourceVersion: String(rv) } } as StoredObject;
}

function fill(cache: WatchCache<StoredObject>, from: number, to: number): void {
  for (let rv = from; rv <= to; rv++) cache.apply('ADDED', `/cm/${rv}`, object(String(rv), rv), rv);
}

describe('watch cache history', () => {
  it('keeps every event in order while it grows past its first size, from any revision', () => {
    const cache = new WatchCache<StoredObject>(1000);
    cache.replace([], 1);
    fill(cache, 2, 700);
    assert.deepEqual(
      cache.eventsAfter(1)?.map((e) => e.rv),
      Array.from({ length: 699 }, (_, i) => i + 2),
    );
    assert.deepEqual(
      cache.eventsAfter(650)?.map((e) => e.rv),
      Array.from({ length: 50 }, (_, i) => i + 651),
    );
  });

  it('grows a ring that has wrapped around (compaction moved its start) without reordering', () => {
    const cache = new WatchCache<StoredObject>(1000);
    cache.replace([], 1);
    fill(cache, 2, 101);
    cache.compactTo(60);
    fill(cache, 102, 400);
    assert.deepEqual(
      cache.eventsAfter(60)?.map((e) => e.rv),
      Array.from({ length: 340 }, (_, i) => i + 61),
    );
    assert.equal(cache.eventsAfter(59), undefined);
  });

  it('drops the oldest events only at capacity, and a watch from before them is refused', () => {
    const cache = new WatchCache<StoredObject>(250);
    cache.replace([], 1);
    fill(cache, 2, 251);
    assert.equal(cache.eventsAfter(1)?.length, 250);
    fill(cache, 252, 300);
    assert.equal(cache.eventsAfter(1), undefined);
    assert.equal(cache.eventsAfter(49), undefined);
    assert.deepEqual(
      cache.eventsAfter(50)?.map((e) => e.rv),
      Array.from({ length: 250 }, (_, i) => i + 51),
    );
  });
});
