import type { StoredObject, Status } from '../apimachinery/object.js';
import type { SelectionPredicate } from './selectionPredicate.js';
import type { Versioner } from './versioner.js';

/**
 * k8s.io/apiserver/pkg/storage.Interface in TypeScript. Keys are strings such as
 * `/<group>/<resource>/<namespace>/<name>` (`/<resource>/…` for built-ins), built by the REST
 * layer; a backend prepends its own prefix (default `/registry`) to form the physical key.
 * Every method that returns objects returns fresh objects or frozen shared ones: callers must
 * copy before mutating anything they did not get from `tryUpdate`'s input.
 */
export interface Interface<T extends StoredObject = StoredObject> {
  readonly versioner: Versioner;

  /** Create adds obj at key unless the key exists (KeyExistsError). Returns the stored object with its new resourceVersion. */
  create(key: string, obj: T, opts?: CreateOptions): Promise<T>;

  /**
   * Delete removes key and returns the last state with the deletion's resourceVersion.
   * KeyNotFoundError when absent. `cachedExistingObject` is only a suggestion: the store
   * retries against live data when it is stale. Returns undefined only for unsafe deletes
   * (`expectTransformOrDecodeError`), whose object cannot be read.
   */
  delete(key: string, opts?: DeleteOptions<T>): Promise<T | undefined>;

  /**
   * Watch streams changes at key (or below it when `recursive`) strictly after
   * `resourceVersion`; "0" or "" first sends the current state as ADDED events.
   */
  watch(key: string, opts?: WatchOptions): Promise<Watcher<T>>;

  /** Get reads key; undefined only with `ignoreNotFound`. */
  get(key: string, opts?: GetOptions): Promise<T | undefined>;

  /** GetList reads key (exact) or everything below it (`recursive`), honouring RV semantics and paging. */
  getList(key: string, opts?: ListOptions): Promise<ListResult<T>>;

  /**
   * GuaranteedUpdate calls tryUpdate with the current object (a private copy) and writes its
   * result with a compare-and-swap, retrying on conflicts. An unchanged result is not written.
   */
  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions<T>): Promise<T>;

  stats(): Promise<Stats>;
  /** Rejects when the storage cannot serve requests (backend down, cache not yet synced). */
  readinessCheck(): Promise<void>;
  /** Asks the backend to send a progress notification on open watches as soon as possible. */
  requestWatchProgress(): Promise<void>;
  /** The backend's current global revision (a quorum read on etcd). */
  getCurrentResourceVersion(): Promise<number>;
  /** The newest compacted revision this store has observed; 0 if none. */
  compactRevision(): number;
}

export interface CreateOptions {
  /** Time to live in seconds; 0 or absent means forever. Expiry emits a DELETED event. */
  ttlSeconds?: number;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/** Runs on the object about to be deleted (undefined when unreadable) and may veto by throwing. */
export type ValidateObjectFunc<T> = (obj: T | undefined) => void | Promise<void>;

export interface DeleteOptions<T> {
  preconditions?: Preconditions;
  validateDeletion?: ValidateObjectFunc<T>;
  cachedExistingObject?: T;
  /** Unsafe delete of a corrupt object: fails with InvalidObjError if the object is readable. */
  expectTransformOrDecodeError?: boolean;
}

export interface ResponseMeta {
  /** Seconds the key has left to live (0 when it has no TTL). */
  ttl: number;
  resourceVersion: number;
}

export interface UpdateResult<T> {
  object: T;
  /** New TTL in seconds; absent keeps none. */
  ttlSeconds?: number;
}

/**
 * tryUpdate receives a private copy of the current object (undefined when the key is absent and
 * ignoreNotFound is set) and returns the desired object. Throwing aborts the update (the error is
 * returned to the caller after re-checking against live data when the input came from a stale
 * suggestion).
 */
export type UpdateFunc<T> = (input: T | undefined, meta: ResponseMeta) => UpdateResult<T> | Promise<UpdateResult<T>>;

export interface GuaranteedUpdateOptions<T> {
  tryUpdate: UpdateFunc<T>;
  ignoreNotFound?: boolean;
  preconditions?: Preconditions;
  cachedExistingObject?: T;
}

/** SimpleUpdate: wraps a function that only transforms the object (no TTL, never absent input). */
export function simpleUpdate<T>(fn: (obj: T) => T | Promise<T>): UpdateFunc<T> {
  return async (input) => ({ object: await fn((input ?? {}) as T) });
}

export interface GetOptions {
  ignoreNotFound?: boolean;
  /** "" is a consistent read; "0" any version; "N" not older than N. */
  resourceVersion?: string;
  /**
   * The object the caller already holds for the key at a revision (a watch cache's, frozen and
   * shared), or undefined. A store that reads the key at exactly that revision returns it
   * instead of decoding the same bytes again: the read (and its value transformer) stays the
   * backend's, only its decode is saved (and the answer's encoding, kept for frozen objects).
   */
  heldAt?: (revision: number) => object | undefined;
}

export type ResourceVersionMatch = 'NotOlderThan' | 'Exact' | '';

export interface ListOptions {
  /** "" consistent (latest); "0" any; "N" per resourceVersionMatch (legacy: NotOlderThan, Exact with limit). */
  resourceVersion?: string;
  /** NotOlderThan or Exact; other strings are rejected. */
  resourceVersionMatch?: ResourceVersionMatch | (string & {});
  predicate?: SelectionPredicate;
  /** The key names a directory (prefix) rather than a single object. */
  recursive?: boolean;
  /** For internal clients such as the watch cache: emit backend progress notifications as BOOKMARKs. */
  progressNotify?: boolean;
  /** Watch-list: start the watch with the current state and an initial-events-end BOOKMARK. */
  sendInitialEvents?: boolean;
}

export interface WatchOptions extends ListOptions {
  /** Aborting ends the watch (the iterator finishes). An already aborted signal gives a closed watcher. */
  signal?: AbortSignal;
  /** The watch ends cleanly after this many milliseconds (the request's timeoutSeconds). */
  timeoutMs?: number;
}

export interface ListResult<T> {
  items: T[];
  /** The revision the list was read at. */
  resourceVersion: string;
  /** Non-empty when more items remain; pass back as predicate.continue. */
  continue?: string;
  /** Items left after this page, when knowable (no selector). */
  remainingItemCount?: number;
}

export interface Stats {
  objectCount: number;
  /** 0 when the backend does not estimate sizes. */
  estimatedAverageObjectSizeBytes: number;
}

/** Annotation marking the BOOKMARK that ends the initial events of a watch-list. */
export const initialEventsAnnotationKey = 'k8s.io/initial-events-end';

export type WatchEvent<T = StoredObject> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T }
  /** Only metadata.resourceVersion (and possibly the initial-events-end annotation) is set. */
  | { readonly type: 'BOOKMARK'; readonly object: T }
  /** The watch delivers nothing after an ERROR. */
  | { readonly type: 'ERROR'; readonly object: Status };

export type WatchEventType = WatchEvent['type'];

/**
 * A running watch. Iterate it (for await) or call receive(); stop() ends it: events already
 * buffered are still delivered, then the iteration finishes.
 */
export interface Watcher<T = StoredObject> extends AsyncIterable<WatchEvent<T>> {
  /**
   * The next event, or undefined once the watch has ended and its buffer is drained. If `signal`
   * aborts first the promise rejects with the abort reason and no event is consumed.
   */
  receive(opts?: { signal?: AbortSignal }): Promise<WatchEvent<T> | undefined>;
  stop(): void;
  /** True once the watch has ended (events may still be buffered). */
  readonly stopped: boolean;
}
