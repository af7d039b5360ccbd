import { performance } from 'node:perf_hooks';
import type { StorageFactory } from '../../../runtime/storage/factory.js';
import type { Interface, Watcher } from '../../../runtime/storage/interfaces.js';
import type { Sizes } from './raw.js';
import { configMap, medianMs, pad, percentile, throughput, type Throughput } from './stats.js';

export interface LayerFigures {
  seqCreate: Throughput;
  concCreate: Throughput;
  get: Throughput;
  /** 10k-object list: backend store, consistent. */
  listStore: number;
  /** From the watch cache at RV=0. */
  listCacheRV0: number;
  /** Consistent list through the cacher (from cache when the backend supports it). */
  listCacheConsistent: number;
  consistentFromCache: boolean;
  watch1: { p50: number; p99: number; max: number };
  watchN: { p50: number; p99: number; max: number; deliveries: number };
}

async function ready(s: Interface): Promise<void> {
  for (;;) {
    try {
      await s.readinessCheck();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

export async function layerFigures(f: StorageFactory, s: Sizes, consistentFromCache: boolean): Promise<LayerFigures> {
  const seq = await f.forResource({ resourcePrefix: '/seq/', watchCache: false });
  const seqCreate = await throughput(s.seq, 1, (i) => seq.create(`/seq/default/${pad(i)}`, configMap(pad(i))));
  const conc = await f.forResource({ resourcePrefix: '/conc/', watchCache: false });
  const concCreate = await throughput(s.conc, 64, (i) => conc.create(`/conc/default/${pad(i)}`, configMap(pad(i))));
  const get = await throughput(s.gets, 1, (i) => seq.get(`/seq/default/${pad(i % s.seq)}`));

  const listStore = await f.forResource({ resourcePrefix: '/list/', watchCache: false });
  await throughput(s.listObjects, 64, (i) => listStore.create(`/list/default/${pad(i)}`, configMap(pad(i))));
  const listStoreMs = await medianMs(s.listIterations, () => listStore.getList('/list/', { recursive: true }));
  const cached = await f.forResource({ resourcePrefix: '/list/' });
  await ready(cached);
  const check = await cached.getList('/list/', { recursive: true, resourceVersion: '0' });
  if (check.items.length !== s.listObjects) throw new Error(`cache holds ${check.items.length} of ${s.listObjects} objects`);
  const listCacheRV0 = await medianMs(s.listIterations, () => cached.getList('/list/', { recursive: true, resourceVersion: '0' }));
  const listCacheConsistent = await medianMs(s.listIterations, () => cached.getList('/list/', { recursive: true }));

  const watched = await f.forResource({ resourcePrefix: '/watch/' });
  await ready(watched);
  const watch1 = await watchLatency(watched, 1, s.watchEvents, 'one');
  const watchN = await watchLatency(watched, s.watchers, s.watchEvents, 'many');
  return { seqCreate, concCreate, get, listStore: listStoreMs, listCacheRV0, listCacheConsistent, consistentFromCache, watch1, watchN };
}

/**
 * Delivery latency: from the moment a create is issued to the moment each watcher's consumer
 * receives the event. Writes are paced (one every 5 ms) as a steady stream, not a burst.
 */
async function watchLatency(store: Interface, watchers: number, events: number, tag: string): Promise<{ p50: number; p99: number; max: number; deliveries: number }> {
  const list = await store.getList('/watch/', { recursive: true, resourceVersion: '0' });
  const ws: Watcher[] = [];
  for (let i = 0; i < watchers; i++) ws.push(await store.watch('/watch/', { recursive: true, resourceVersion: list.resourceVersion }));
  const sent = new Map<string, number>();
  const lat: number[] = [];
  const consumers = ws.map(async (w) => {
    let got = 0;
    for await (const ev of w) {
      if (ev.type !== 'ADDED') continue;
      lat.push(performance.now() - (sent.get(String((ev.object as { metadata?: { name?: string } }).metadata?.name)) ?? 0));
      if (++got === events) break;
    }
  });
  for (let i = 0; i < events; i++) {
    const name = `${tag}-${pad(i)}`;
    sent.set(name, performance.now());
    await store.create(`/watch/default/${name}`, configMap(name));
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(consumers);
  lat.sort((a, b) => a - b);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99), max: lat[lat.length - 1] ?? NaN, deliveries: lat.length };
}
