import { ExpiredError, expiredMessages, statusForError, TooLargeResourceVersionError } from '../errors.js';
import { initialEventsAnnotationKey, type WatchEvent, type WatchOptions, type Watcher } from '../interfaces.js';
import { prefixRangeEnd } from '../keys.js';
import { CompactedError, type KVEvent, type KVWatch, type KeyValue } from '../kv.js';
import type { Status, StoredObject } from '../../apimachinery/object.js';
import { everything, predicateEmpty, predicateMatches, type SelectionPredicate } from '../selectionPredicate.js';
import { WatchQueue } from '../watchQueue.js';
import { maxLimit } from './list.js';
import { isCorrupt, type Store } from './store.js';

/** Events buffered for a client before its backend watch is paused (kube's etcd3 watcher: incoming + outgoing buffers). */
const watchBufferSize = 1000;

/**
 * Watch as kube's etcd3 watcher: optionally list the current state as ADDED events (RV 0/unset,
 * or sendInitialEvents), then follow the backend's event stream from the next revision,
 * turning PUT/DELETE into ADDED/MODIFIED/DELETED as seen through the predicate (an update that
 * stops matching is a DELETED, one that starts matching an ADDED). The initial state is read in
 * pages and decoded as the client reads it; the backend watch starts once it has all been read
 * (kube's sync, then watch). A client slower than its events pauses the backend stream, which
 * keeps them (etcd's history, SQLite's log) until it catches up: memory stays bounded and
 * nothing is dropped; if they are compacted away meanwhile the watch ends with 410.
 */
export async function watch<T extends StoredObject>(s: Store<T>, key: string, opts: WatchOptions): Promise<Watcher<T>> {
  const recursive = opts.recursive ?? false;
  const pk = s.prepareKey(key, recursive);
  const rev = s.versioner.parseResourceVersion(opts.resourceVersion);
  const given = (opts.predicate ?? everything) as SelectionPredicate<T>;
  const pred = predicateEmpty(given as SelectionPredicate<never>) ? (everything as SelectionPredicate<T>) : given;
  let initialRev = rev;
  if (rev === 0 && opts.sendInitialEvents === false) initialRev = await s.getCurrentResourceVersion();
  const forceInitialEvents = (opts.sendInitialEvents === undefined && rev === 0) || opts.sendInitialEvents === true;
  const initialEventsEndBookmark = opts.sendInitialEvents === true && (given.allowWatchBookmarks ?? false);

  let kvWatch: KVWatch | undefined;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = (): void => queue.stop();
  const queue = new WatchQueue<T>({
    capacity: watchBufferSize,
    flowControl: { pause: () => kvWatch?.pause(), resume: () => kvWatch?.resume() },
    onClose: () => {
      kvWatch?.cancel();
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    },
  });
  if (opts.signal?.aborted) {
    queue.end();
    return queue;
  }
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.timeoutMs !== undefined) timer = setTimeout(() => queue.end(), opts.timeoutMs);

  const wc = new WatchChan(s, pred, queue);
  const startWatching = (fromRev: number): void => {
    if (queue.stopped) return;
    kvWatch = s.kv.watch(
      { key: pk, rangeEnd: recursive ? prefixRangeEnd(pk) : undefined, startRevision: fromRev + 1, progressNotify: opts.progressNotify ?? false },
      {
        onEvents: (events) => {
          for (const e of events) if (!wc.process(e)) return;
        },
        onProgress: (revision) => {
          if (opts.progressNotify) queue.push(wc.bookmark(revision, false));
        },
        onError: (err) => wc.fail(compactedAsExpired(err)),
      },
    );
    if (queue.stopped) kvWatch.cancel();
  };
  if (!forceInitialEvents) {
    startWatching(initialRev);
    return queue;
  }
  queue.sendInitial(
    (async function* initialEvents(): AsyncGenerator<WatchEvent<T>, void> {
      if (initialRev > 0) {
        const current = await s.getCurrentResourceVersion();
        if (initialRev > current) throw new TooLargeResourceVersionError(initialRev, current, 1);
      }
      const synced = { revision: 0 };
      yield* wc.sync(pk, recursive, synced);
      if (initialEventsEndBookmark) yield wc.bookmark(synced.revision, true);
      startWatching(synced.revision);
    })(),
  );
  return queue;
}

class WatchChan<T extends StoredObject> {
  private readonly acceptAll: boolean;

  constructor(
    private readonly s: Store<T>,
    private readonly pred: SelectionPredicate<T>,
    private readonly queue: WatchQueue<T>,
  ) {
    this.acceptAll = predicateEmpty(pred as SelectionPredicate<never>);
  }

  /**
   * The current state as ADDED events, read in pages of maxLimit at the revision of the first
   * (kube's watchChan.sync) and decoded one at a time as they are taken; `synced.revision` is
   * that revision once the generator has finished.
   */
  async *sync(pk: string, recursive: boolean, synced: { revision: number }): AsyncGenerator<WatchEvent<T>, void> {
    if (!recursive) {
      const r = await this.s.call(pk, () => this.s.kv.get(pk).catch((e: unknown) => Promise.reject(compactedAsExpired(e))));
      synced.revision = r.revision;
      if (r.kv) yield* this.added([r.kv]);
      return;
    }
    const rangeEnd = prefixRangeEnd(pk);
    let from = pk;
    let revision = 0;
    for (;;) {
      const start = from;
      const atRev = revision;
      const page = await this.s.call(pk, () =>
        this.s.kv.list({ key: start, rangeEnd, limit: maxLimit, ...(atRev > 0 ? { revision: atRev } : {}) }).catch((e: unknown) => Promise.reject(compactedAsExpired(e))),
      );
      if (revision === 0) revision = page.revision;
      synced.revision = revision;
      const last = page.kvs[page.kvs.length - 1];
      yield* this.added(page.kvs);
      if (!last || page.count <= page.kvs.length) return;
      from = `${last.key}\0`;
    }
  }

  private *added(kvs: KeyValue[]): Generator<WatchEvent<T>, void> {
    for (let i = 0; i < kvs.length; i++) {
      const kv = kvs[i] as KeyValue;
      // Free each value once decoded: long lists take a while to drain.
      kvs[i] = undefined as unknown as KeyValue;
      const obj = this.decode(kv, kv.modRevision);
      if (this.filter(obj)) yield { type: 'ADDED', object: obj };
    }
  }

  bookmark(revision: number, initialEventsEnd: boolean): WatchEvent<T> {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (initialEventsEnd) metadata.annotations = { [initialEventsAnnotationKey]: 'true' };
    return { type: 'BOOKMARK', object: { metadata } as T };
  }

  /** Handles one backend event; returns false once the watch has failed. */
  process(e: KVEvent): boolean {
    if (this.queue.stopped) return false;
    try {
      const ev = this.transform(e);
      if (ev) this.queue.push(ev);
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    }
  }

  fail(err: unknown): void {
    this.queue.fail(this.statusFor(err));
  }

  private statusFor(err: unknown): Status {
    return statusForWatchError(err);
  }

  private transform(e: KVEvent): WatchEvent<T> | undefined {
    if (e.type === 'DELETE') {
      if (!e.prevKv) return undefined;
      let old: T;
      try {
        old = this.decode(e.prevKv, e.modRevision);
      } catch (err) {
        if (!isCorrupt(err)) throw err;
        throw new StoreReadError(`saw a DELETED event, but object data is corrupt - key: ${e.key}, revision: ${e.modRevision}: ${(err as Error).message}`);
      }
      return this.filter(old) ? { type: 'DELETED', object: old } : undefined;
    }
    const cur = this.decode(e.kv, e.kv.modRevision);
    if (e.kv.createRevision === e.kv.modRevision) {
      return this.filter(cur) ? { type: 'ADDED', object: cur } : undefined;
    }
    // An update whose previous value was compacted away: the watch cannot tell what changed.
    if (!e.prevKv) throw new Error(`etcd event received with PrevKv=nil (key=${JSON.stringify(e.kv.key)}, modRevision=${e.kv.modRevision}, type=PUT)`);
    if (this.acceptAll) return { type: 'MODIFIED', object: cur };
    const old = this.decode(e.prevKv, e.kv.modRevision);
    const curPasses = this.filter(cur);
    const oldPasses = this.filter(old);
    if (curPasses && oldPasses) return { type: 'MODIFIED', object: cur };
    if (curPasses) return { type: 'ADDED', object: cur };
    if (oldPasses) return { type: 'DELETED', object: old };
    return undefined;
  }

  private filter(obj: T): boolean {
    return this.acceptAll || predicateMatches(this.pred, obj);
  }

  private decode(kv: KeyValue, rev: number): T {
    return this.s.codec.decode(this.s.codec.fromStorage(kv.value, kv.key).data, rev, kv.key);
  }
}

/** History a watch needs was compacted away: 410 with kube's watch wording. */
function compactedAsExpired(err: unknown): unknown {
  return err instanceof CompactedError ? new ExpiredError(expiredMessages.watch) : err;
}

/** A watch saw data it cannot read (Status reason StoreReadError). */
class StoreReadError extends Error {
  override readonly name = 'StoreReadError';
}

export function statusForWatchError(err: unknown): Status {
  if (err instanceof StoreReadError) {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, reason: 'StoreReadError', code: 500 };
  }
  return statusForError(err);
}
