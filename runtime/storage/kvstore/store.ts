import { CorruptObjError, InternalError, InvalidObjError, KeyExistsError, KeyNotFoundError, ResourceVersionSetOnCreateError, TooLargeResourceVersionError } from '../errors.js';
import type { CreateOptions, DeleteOptions, GetOptions, GuaranteedUpdateOptions, Interface, ListOptions, ListResult, Preconditions, Stats, WatchOptions, Watcher } from '../interfaces.js';
import { normalizePathPrefix, prefixRangeEnd, prepareKey } from '../keys.js';
import type { KeyValue, KV } from '../kv.js';
import type { StoredObject } from '../../apimachinery/object.js';
import { identityTransformer, type ValueTransformer } from '../transformer.js';
import { apiObjectVersioner, type Versioner } from '../versioner.js';
import { Codec, CorruptDataError, interpretCorruptData, storageKeyOf, type ObjState } from './codec.js';
import { getList } from './list.js';
import { mapKVError } from './kvErrors.js';
import { watch } from './watcher.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';

export interface StoreConfig {
  kv: KV;
  /** Backend key prefix shared by all resources (kube's --etcd-prefix); default `/registry`. */
  pathPrefix?: string;
  /** The resource's key prefix, e.g. `/pods` or `/apps/deployments`; keys outside it are rejected. */
  resourcePrefix: string;
  transformer?: ValueTransformer;
  versioner?: Versioner;
  /**
   * kube's AllowUnsafeMalformedObjectDeletion: unreadable objects are reported as corrupt
   * (CorruptObjError on get, aggregated causes on list) so the registry can offer unsafe deletes.
   */
  corruptObjectHandling?: boolean;
}

/**
 * Store implements storage.Interface on any KV backend, as kube's etcd3 store does on etcd:
 * creates are put-if-absent, updates and deletes compare the mod revision, lists page through
 * the KV at a pinned revision, watches decode and filter the KV's event stream.
 */
export class Store<T extends StoredObject = StoredObject> implements Interface<T> {
  readonly versioner: Versioner;
  readonly kv: KV;
  readonly pathPrefix: string;
  readonly resourcePrefix: string;
  readonly corruptObjectHandling: boolean;
  /** Swappable for tests (kube's UpdatePrefixTransformer); read on every operation. */
  transformer: ValueTransformer;
  readonly codec: Codec<T>;

  constructor(config: StoreConfig) {
    this.kv = config.kv;
    this.versioner = config.versioner ?? apiObjectVersioner;
    this.pathPrefix = normalizePathPrefix(config.pathPrefix ?? '/registry');
    this.resourcePrefix = config.resourcePrefix;
    this.corruptObjectHandling = config.corruptObjectHandling ?? false;
    const base = config.transformer ?? identityTransformer;
    this.transformer = this.corruptObjectHandling ? interpretCorruptData(base) : base;
    this.codec = new Codec<T>(this.versioner, () => this.transformer);
  }

  /** The physical key for a REST key (validated; directory form when recursive). */
  prepareKey(key: string, recursive: boolean): string {
    const k = prepareKey(this.resourcePrefix, key, recursive);
    return this.pathPrefix + (k.startsWith('/') ? k.slice(1) : k);
  }

  /** The REST key of an object this store returned (undefined for objects it did not decode). */
  restKeyOf(obj: T): string | undefined {
    const k = storageKeyOf(obj);
    return k === undefined ? undefined : `/${k.slice(this.pathPrefix.length)}`;
  }

  async get(key: string, opts: GetOptions = {}): Promise<T | undefined> {
    const pk = this.prepareKey(key, false);
    const resp = await this.call(pk, () => this.kv.get(pk));
    this.validateMinimumResourceVersion(opts.resourceVersion, resp.revision);
    if (!resp.kv) {
      if (opts.ignoreNotFound) return undefined;
      throw new KeyNotFoundError(pk, 0);
    }
    return this.readForGet(resp.kv, opts.heldAt);
  }

  async create(key: string, obj: T, opts: CreateOptions = {}): Promise<T> {
    const pk = this.prepareKey(key, false);
    if (resourceVersionSet(this.versioner, obj)) throw new ResourceVersionSetOnCreateError();
    const data = this.codec.encode(obj);
    const value = this.codec.toStorage(data, pk);
    const resp = await this.call(pk, () => this.kv.optimisticPut(pk, value, 0, { ttlSeconds: opts.ttlSeconds ?? 0 }));
    if (!resp.succeeded) throw new KeyExistsError(pk, 0);
    return this.codec.decode(data, resp.revision, pk);
  }

  async delete(key: string, opts: DeleteOptions<T> = {}): Promise<T | undefined> {
    const pk = this.prepareKey(key, false);
    const unsafe = opts.expectTransformOrDecodeError ?? false;
    const getCurrent = async (): Promise<ObjState<T>> => this.stateOf(pk, (await this.call(pk, () => this.kv.get(pk))).kv, false, unsafe);
    let state: ObjState<T>;
    let current: boolean;
    if (opts.cachedExistingObject && !unsafe) {
      state = this.stateFromObject(opts.cachedExistingObject);
      current = false;
    } else {
      state = await getCurrent();
      current = true;
    }
    for (;;) {
      const check = await this.checkBeforeDelete(pk, state, opts);
      if (check) {
        if (current) throw check;
        // The suggestion may be stale: re-read, and only report the error if it was not.
        const cachedRev = state.rev;
        state = await getCurrent();
        current = true;
        if (cachedRev === state.rev) throw check;
        continue;
      }
      const resp = await this.call(pk, () => this.kv.optimisticDelete(pk, state.rev));
      if (!resp.succeeded) {
        state = this.stateOf(pk, resp.kv, false, unsafe);
        current = true;
        continue;
      }
      if (unsafe || !state.data) return undefined;
      return this.codec.decode(state.data, resp.revision, pk);
    }
  }

  private async checkBeforeDelete(pk: string, state: ObjState<T>, opts: DeleteOptions<T>): Promise<unknown> {
    try {
      if (opts.preconditions) checkPreconditions(pk, opts.preconditions, state.obj);
      await opts.validateDeletion?.(state.obj === undefined ? undefined : deepCopyJSON(state.obj));
      return undefined;
    } catch (e) {
      return e;
    }
  }

  async guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions<T>): Promise<T> {
    const pk = this.prepareKey(key, false);
    const ignoreNotFound = opts.ignoreNotFound ?? false;
    const getCurrent = async (): Promise<ObjState<T>> => this.stateOf(pk, (await this.call(pk, () => this.kv.get(pk))).kv, ignoreNotFound, false);
    let state: ObjState<T>;
    let current: boolean;
    if (opts.cachedExistingObject) {
      state = this.stateFromObject(opts.cachedExistingObject);
      current = false;
    } else {
      state = await getCurrent();
      current = true;
    }
    for (;;) {
      if (opts.preconditions) {
        try {
          checkPreconditions(pk, opts.preconditions, state.obj);
        } catch (e) {
          if (current) throw e;
          state = await getCurrent();
          current = true;
          continue;
        }
      }
      let result: { object: T; ttlSeconds?: number };
      try {
        result = await opts.tryUpdate(this.privateCopy(state), { ttl: state.ttl, resourceVersion: state.rev });
      } catch (e) {
        if (current) throw e;
        const cachedRev = state.rev;
        state = await getCurrent();
        current = true;
        if (cachedRev === state.rev) throw e;
        continue;
      }
      const data = this.codec.encode(result.object);
      if (!state.stale && state.data && data.equals(state.data)) {
        // Unchanged: confirm against live data before skipping the write.
        if (!current) {
          state = await getCurrent();
          current = true;
          if (!state.data || !data.equals(state.data)) continue;
        }
        if (!state.stale && state.data) return this.codec.decode(state.data, state.rev, pk);
      }
      const value = this.codec.toStorage(data, pk);
      const resp = await this.call(pk, () => this.kv.optimisticPut(pk, value, state.rev, { ttlSeconds: result.ttlSeconds ?? 0 }));
      if (!resp.succeeded) {
        state = this.stateOf(pk, resp.kv, ignoreNotFound, false);
        current = true;
        continue;
      }
      return this.codec.decode(data, resp.revision, pk);
    }
  }

  getList(key: string, opts: ListOptions = {}): Promise<ListResult<T>> {
    return getList(this, key, opts);
  }

  watch(key: string, opts: WatchOptions = {}): Promise<Watcher<T>> {
    return watch(this, key, opts);
  }

  async stats(): Promise<Stats> {
    const prefix = this.prepareKey(this.resourcePrefix, true);
    const end = prefixRangeEnd(prefix);
    const sized = await this.call(prefix, async () => (this.kv.valueBytes ? this.kv.valueBytes(prefix, end) : undefined));
    if (sized) {
      return {
        objectCount: sized.count,
        estimatedAverageObjectSizeBytes: sized.count === 0 ? 0 : Math.floor(sized.bytes / sized.count),
      };
    }
    const count = await this.call(prefix, () => this.kv.count(prefix, end));
    return { objectCount: count, estimatedAverageObjectSizeBytes: 0 };
  }

  readinessCheck(): Promise<void> {
    return this.kv.healthCheck();
  }

  requestWatchProgress(): Promise<void> {
    return this.kv.requestProgress();
  }

  /** Whether the backend's progress reports can back consistent reads from a cache. */
  supportsRequestWatchProgress(): Promise<boolean> {
    return this.kv.supportsRequestWatchProgress();
  }

  async getCurrentResourceVersion(): Promise<number> {
    const pk = this.prepareKey(this.resourcePrefix, false);
    const kv = this.kv;
    const revision = await this.call(pk, async () => (kv.currentRevision ? kv.currentRevision() : (await kv.get(pk)).revision));
    if (revision === 0) throw new InternalError('the current resource version must be greater than 0');
    return revision;
  }

  compactRevision(): number {
    return this.kv.compactRevision();
  }

  /** Runs a KV call, mapping backend errors (unreachable, timeout, compacted…) to storage errors. */
  async call<R>(key: string, fn: () => Promise<R>): Promise<R> {
    try {
      return await fn();
    } catch (e) {
      throw mapKVError(e, key);
    }
  }

  validateMinimumResourceVersion(minimum: string | undefined, actual: number): void {
    if (!minimum) return;
    const min = this.versioner.parseResourceVersion(minimum);
    if (min > actual) throw new TooLargeResourceVersionError(min, actual, 1);
  }

  private readForGet(kv: KeyValue, heldAt?: GetOptions['heldAt']): T {
    try {
      return this.codec.read(kv, heldAt).obj;
    } catch (e) {
      // With corrupt-object handling the registry needs to know the object can be unsafely deleted.
      if (this.corruptObjectHandling && isCorrupt(e)) throw new CorruptObjError(kv.key, (e as Error).message, { cause: e });
      throw e;
    }
  }

  /** Builds the state for a KeyValue read from the backend (kube's getState). */
  stateOf(pk: string, kv: KeyValue | undefined, ignoreNotFound: boolean, unsafe: boolean): ObjState<T> {
    if (!kv) {
      if (!ignoreNotFound) throw new KeyNotFoundError(pk, 0);
      return { obj: undefined, data: undefined, rev: 0, stale: false, ttl: 0 };
    }
    let plain: { data: Buffer; stale: boolean };
    try {
      plain = this.codec.fromStorage(kv.value, pk);
    } catch (e) {
      if (!unsafe) throw new InternalError((e as Error).message, { cause: e });
      return { obj: undefined, data: undefined, rev: kv.modRevision, stale: true, ttl: kv.ttl ?? 0 };
    }
    let obj: T;
    try {
      obj = this.codec.decode(plain.data, kv.modRevision, pk);
    } catch (e) {
      if (!unsafe) throw e;
      return { obj: undefined, data: plain.data, rev: kv.modRevision, stale: plain.stale, ttl: kv.ttl ?? 0 };
    }
    if (unsafe) throw new InvalidObjError(pk, 'unsafe deletion is not allowed because the object is decodable from storage');
    return { obj, data: plain.data, rev: kv.modRevision, stale: plain.stale, ttl: kv.ttl ?? 0 };
  }

  /** State from a caller's suggestion: its revision, and the bytes it would encode to. */
  private stateFromObject(obj: T): ObjState<T> {
    const rev = this.versioner.objectResourceVersion(obj);
    return { obj, data: this.codec.encode(obj), rev, stale: false, ttl: 0 };
  }

  /** tryUpdate gets a fresh copy it may mutate, never a shared (possibly frozen) object. */
  private privateCopy(state: ObjState<T>): T | undefined {
    if (state.obj === undefined) return undefined;
    const copy = state.data ? this.codec.parse(state.data, state.rev, '') : deepCopyJSON(state.obj);
    this.versioner.updateObject(copy, state.rev);
    return copy;
  }
}

function isCorrupt(e: unknown): boolean {
  for (let cur: unknown = e; cur instanceof Error; cur = cur.cause) {
    if (cur instanceof CorruptDataError) return true;
  }
  return false;
}

/**
 * Whether a create was given a resourceVersion (ErrResourceVersionSetOnCreate). As kube's etcd3
 * store, one that does not parse counts as unset: it is dropped with the rest when the object is
 * encoded for storage.
 */
function resourceVersionSet(versioner: Versioner, obj: StoredObject): boolean {
  try {
    return versioner.objectResourceVersion(obj) !== 0;
  } catch {
    return false;
  }
}

/** Preconditions.Check: a UID or resourceVersion mismatch is InvalidObjError. */
export function checkPreconditions(key: string, p: Preconditions, obj: StoredObject | undefined): void {
  const meta = obj?.metadata ?? {};
  if (p.uid !== undefined && p.uid !== (meta.uid ?? '')) {
    throw new InvalidObjError(key, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== (meta.resourceVersion ?? '')) {
    throw new InvalidObjError(key, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`);
  }
}

export { isCorrupt };
