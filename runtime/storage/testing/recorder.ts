import { AsyncLocalStorage } from 'node:async_hooks';
import type { KV, KVWatch, KVWatchHandler, KVWatchRequest, ListRequest, PutOptions } from '../kv.js';

/** A list request as the backend saw it (kube's RecordedList); continue pages fold into key. */
export interface RecordedList {
  key: string;
  revision: number;
  limit: number;
}

/** The recorder key of the current async context (kube's RecorderContextKey). */
export const recorderContext = new AsyncLocalStorage<string>();

/**
 * RecordingKV wraps a KV to count reads and record list requests per recorder key, so tests can
 * assert how many backend calls a list took and whether the watch cache served it.
 */
export class RecordingKV implements KV {
  private readsCount = 0;
  private readonly lists = new Map<string, RecordedList[]>();

  constructor(private readonly inner: KV) {}

  getReadsAndReset(): number {
    const r = this.readsCount;
    this.readsCount = 0;
    return r;
  }

  listRequestsForKey(key: string): RecordedList[] {
    return this.lists.get(key) ?? [];
  }

  get(key: string, opts?: { revision?: number }) {
    this.readsCount++;
    return this.inner.get(key, opts);
  }
  list(req: ListRequest) {
    this.readsCount++;
    const rk = recorderContext.getStore();
    if (rk !== undefined) {
      const arr = this.lists.get(rk) ?? [];
      arr.push({ key: req.key, revision: req.revision ?? 0, limit: req.limit ?? 0 });
      this.lists.set(rk, arr);
    }
    return this.inner.list(req);
  }
  count(key: string, rangeEnd: string) {
    return this.inner.count(key, rangeEnd);
  }
  valueBytes(key: string, rangeEnd: string) {
    return this.inner.valueBytes ? this.inner.valueBytes(key, rangeEnd) : Promise.resolve(undefined);
  }
  optimisticPut(key: string, value: Buffer, expectedRevision: number, opts?: PutOptions) {
    return this.inner.optimisticPut(key, value, expectedRevision, opts);
  }
  optimisticDelete(key: string, expectedRevision: number) {
    return this.inner.optimisticDelete(key, expectedRevision);
  }
  watch(req: KVWatchRequest, handler: KVWatchHandler): KVWatch {
    return this.inner.watch(req, handler);
  }
  requestProgress() {
    return this.inner.requestProgress();
  }
  supportsRequestWatchProgress() {
    return this.inner.supportsRequestWatchProgress();
  }
  compact(revision: number) {
    return this.inner.compact(revision);
  }
  compactRevision() {
    return this.inner.compactRevision();
  }
  healthCheck() {
    return this.inner.healthCheck();
  }
  close() {
    return this.inner.close();
  }
}
