import { newInternalError, newResourceExpired, newTooManyRequests, StatusError } from '../../runtime/apimachinery/errors/index.js';
import type { ListWatch } from '../../runtime/client/cache.js';
import type { List, ListOptions, Watch, WatchEvent } from '../../runtime/client/types.js';

/**
 * A small deterministic API for one resource, served through a ListWatch:
 * a revision counter, an event log (so any past state can be rebuilt and
 * watches can replay from any revision), compaction, paginated lists with
 * continue tokens, watch-list, bookmarks, and knobs to drop connections,
 * partition the network and fail the next requests. Everything it hands out
 * is a fresh copy, as a decoded response is.
 */
export interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  data?: Record<string, string>;
}

interface LogEntry {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly obj: Obj;
}

export interface Call {
  readonly verb: 'list' | 'watch';
  readonly options: Omit<ListOptions, 'signal'>;
}

const key = (o: Obj): string => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name);
const copy = <X>(x: X): X => structuredClone(x);

export function connectionError(code: 'ECONNREFUSED' | 'ECONNRESET'): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:6443`), { code });
}

export class FakeAPI {
  readonly calls: Call[] = [];
  /** Errors the next list / watch calls throw, in order. */
  readonly failLists: unknown[] = [];
  readonly failWatches: unknown[] = [];
  /** When true, lists at resourceVersion "0" honour limit (no watch cache); by default they ignore it, as the watch cache does. */
  paginateAtZero = false;
  /** How a watch from a compacted revision fails: an ERROR event in a 200 stream (kube), or an HTTP 410. */
  expiredWatchAs: 'event' | 'http' = 'event';
  private revision = 100;
  private compactedBelow = 0;
  private readonly log: LogEntry[] = [];
  private readonly watchers = new Set<FakeWatch>();
  private partitioned = false;
  private held: (() => void)[] = [];

  get resourceVersion(): number {
    return this.revision;
  }

  create(name: string, namespace?: string, data: Record<string, string> = {}, labels?: Record<string, string>): Obj {
    const k = namespace ? `${namespace}/${name}` : name;
    if (this.current().has(k)) throw new Error(`${k} exists`);
    return this.write('ADDED', { apiVersion: 'v1', kind: 'Thing', metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) }, data });
  }

  update(name: string, namespace: string | undefined, data: Record<string, string>): Obj {
    const old = this.current().get(namespace ? `${namespace}/${name}` : name);
    if (old === undefined) throw new Error(`${name} not found`);
    return this.write('MODIFIED', { ...copy(old), data });
  }

  delete(name: string, namespace?: string): Obj {
    const old = this.current().get(namespace ? `${namespace}/${name}` : name);
    if (old === undefined) throw new Error(`${name} not found`);
    return this.write('DELETED', copy(old));
  }

  /** Watches and continue tokens from before the current revision now fail with 410 Expired. */
  compact(): void {
    this.compactedBelow = this.revision;
  }

  /** Sends a bookmark at the current revision to every watch that asked for bookmarks. */
  bookmark(): void {
    for (const w of this.watchers) if (w.bookmarks && !this.partitioned) w.push(this.bookmarkEvent({}));
  }

  /** Ends every open watch: cleanly, or as a connection reset (the iteration throws). */
  drop(how: 'close' | 'reset' = 'close'): void {
    for (const w of [...this.watchers]) {
      if (how === 'close') w.end();
      else w.fail(connectionError('ECONNRESET'));
      this.watchers.delete(w);
    }
  }

  /** Open watches stop receiving events and new requests hang until heal(). */
  partition(): void {
    this.partitioned = true;
  }

  /** Ends the partition: open watches are dropped (cleanly) and held requests proceed. */
  heal(): void {
    this.partitioned = false;
    this.drop('close');
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  openWatches(): number {
    return this.watchers.size;
  }

  callsOf(verb: 'list' | 'watch'): Call[] {
    return this.calls.filter((c) => c.verb === verb);
  }

  /** The current objects, keyed and ordered by key. */
  current(): Map<string, Obj> {
    return this.stateAt(this.revision);
  }

  listWatch(): ListWatch<Obj> {
    return { list: (o) => this.list(o), watch: (o) => this.watch(o) };
  }

  async list(options: ListOptions): Promise<List<Obj>> {
    const { signal: _signal, ...recorded } = options;
    this.calls.push({ verb: 'list', options: recorded });
    await this.gate();
    const failure = this.failLists.shift();
    if (failure !== undefined) throw failure;
    let snapshot = this.revision;
    let after = '';
    if (options.continue) {
      const [rv, last] = JSON.parse(Buffer.from(options.continue, 'base64url').toString()) as [number, string];
      if (rv < this.compactedBelow) {
        throw newResourceExpired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
      }
      snapshot = rv;
      after = last;
    } else if (options.resourceVersion !== undefined && options.resourceVersion !== '' && options.resourceVersion !== '0') {
      const min = Number(options.resourceVersion);
      if (min > this.revision) throw tooLargeResourceVersion(min, this.revision);
    }
    const all = [...this.stateAt(snapshot).entries()].filter(([k]) => k > after);
    const ignoreLimit = options.resourceVersion === '0' && !this.paginateAtZero;
    const limit = !ignoreLimit && options.limit !== undefined && options.limit > 0 ? options.limit : all.length;
    const page = all.slice(0, limit);
    const more = page.length < all.length;
    const lastKey = page[page.length - 1]?.[0] ?? '';
    return {
      apiVersion: 'v1',
      kind: 'ThingList',
      metadata: {
        resourceVersion: String(snapshot),
        ...(more ? { continue: Buffer.from(JSON.stringify([snapshot, lastKey])).toString('base64url') } : {}),
      },
      items: page.map(([, o]) => copy(o)),
    };
  }

  async watch(options: ListOptions): Promise<Watch<Obj>> {
    const { signal, ...recorded } = options;
    this.calls.push({ verb: 'watch', options: recorded });
    await this.gate();
    const failure = this.failWatches.shift();
    if (failure !== undefined) throw failure;
    const bookmarks = options.allowWatchBookmarks === true;
    const onAbort = (): void => w.stop();
    const w = new FakeWatch(bookmarks, () => {
      this.watchers.delete(w);
      signal?.removeEventListener('abort', onAbort);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    const rvParam = options.resourceVersion ?? '';
    // Without a resourceVersion (or at "0") a watch starts with the current state, as kube's does.
    const initial = options.sendInitialEvents ?? (rvParam === '' || rvParam === '0');
    const from = initial || rvParam === '' ? this.revision : Number(rvParam);
    if (from > this.revision) throw tooLargeResourceVersion(from, this.revision);
    if (!initial && from < this.compactedBelow) {
      const expired = newResourceExpired(`too old resource version: ${from} (${this.compactedBelow})`);
      if (this.expiredWatchAs === 'http') throw expired;
      w.push({ type: 'ERROR', object: expired.status });
      w.end();
      return w;
    }
    if (initial) {
      for (const o of this.current().values()) w.push({ type: 'ADDED', object: copy(o) });
      if (options.sendInitialEvents === true && bookmarks) w.push(this.bookmarkEvent({ 'k8s.io/initial-events-end': 'true' }));
    } else {
      for (const e of this.log) if (e.rv > from) w.push({ type: e.type, object: copy(e.obj) });
    }
    this.watchers.add(w);
    return w;
  }

  private write(type: LogEntry['type'], obj: Obj): Obj {
    this.revision++;
    obj.metadata.resourceVersion = String(this.revision);
    const entry = { rv: this.revision, type, obj: copy(obj) };
    this.log.push(entry);
    if (!this.partitioned) for (const w of this.watchers) w.push({ type, object: copy(obj) });
    return copy(obj);
  }

  private stateAt(rv: number): Map<string, Obj> {
    const state = new Map<string, Obj>();
    for (const e of this.log) {
      if (e.rv > rv) break;
      if (e.type === 'DELETED') state.delete(key(e.obj));
      else state.set(key(e.obj), e.obj);
    }
    return new Map([...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private bookmarkEvent(annotations: Record<string, string>): WatchEvent<Obj> {
    return { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'Thing', metadata: { name: '', resourceVersion: String(this.revision), annotations } } };
  }

  private gate(): Promise<void> {
    if (!this.partitioned) return Promise.resolve();
    return new Promise((resolve) => this.held.push(resolve));
  }
}

function tooLargeResourceVersion(asked: number, current: number): StatusError {
  const err = newInternalError('unused');
  return new StatusError({
    ...err.status,
    code: 504,
    reason: 'Timeout',
    message: `Timeout: Too large resource version: ${asked}, current: ${current}`,
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
  });
}

export function throttled(): StatusError {
  return newTooManyRequests('too many requests, please try again later', 1);
}

/** One watch stream: events queue until read; end() closes it cleanly, fail() makes the iteration throw. */
export class FakeWatch implements Watch<Obj> {
  private readonly queue: WatchEvent<Obj>[] = [];
  private ended = false;
  private failure: unknown;
  private waiting: (() => void) | undefined;
  stopped = false;

  constructor(
    readonly bookmarks: boolean,
    private readonly onStop: () => void,
  ) {}

  push(e: WatchEvent<Obj>): void {
    if (this.ended) return;
    this.queue.push(e);
    this.poke();
  }

  end(): void {
    this.ended = true;
    this.poke();
  }

  fail(err: unknown): void {
    this.failure = err;
    this.ended = true;
    this.poke();
  }

  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    this.end();
    this.onStop();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<Obj>> {
    for (;;) {
      const next = this.queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.ended) {
        if (this.failure !== undefined && !this.stopped) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }

  private poke(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }
}
