/**
 * KV is the small, etcd-shaped contract a backend implements (the equivalent of the
 * `kubernetes.Interface` subset of the etcd client that kube's etcd3 store uses): a revisioned
 * key space with range reads at a revision, single-key compare-and-swap writes, and ordered
 * watches with previous values. The generic Store (kvstore/) builds storage.Interface on it, so
 * every backend shares one implementation of the storage semantics.
 *
 * Keys are physical keys (backend prefix included). Revisions are global and start at 1.
 */
export interface KeyValue {
  readonly key: string;
  readonly value: Buffer;
  readonly createRevision: number;
  readonly modRevision: number;
  /** Seconds left to live, 0 when the key has no TTL. */
  readonly ttl?: number;
}

export interface GetResponse {
  kv?: KeyValue;
  /** The store revision the read was served at. */
  revision: number;
}

export interface ListRequest {
  /** First key of the range (inclusive). */
  key: string;
  /** End of the range (exclusive). */
  rangeEnd: string;
  /** Read at this revision; 0 or absent is the latest. */
  revision?: number;
  /** At most this many keys; 0 or absent is all. */
  limit?: number;
}

export interface ListResponse {
  kvs: KeyValue[];
  /** Number of keys in [key, rangeEnd) at the revision, regardless of limit. */
  count: number;
  revision: number;
}

export interface TxnResponse {
  succeeded: boolean;
  /** Revision of the write on success; the current revision on failure. */
  revision: number;
  /** On failure, the current value of the key (absent if the key does not exist). */
  kv?: KeyValue;
}

export interface PutOptions {
  ttlSeconds?: number;
}

export type KVEvent = { type: 'PUT'; kv: KeyValue; prevKv?: KeyValue } | { type: 'DELETE'; key: string; modRevision: number; prevKv?: KeyValue };

export interface KVWatchRequest {
  key: string;
  /** Exclusive end for range watches; absent watches the single key. */
  rangeEnd?: string;
  /** First revision delivered (inclusive). */
  startRevision: number;
  /** Deliver backend progress notifications to onProgress. */
  progressNotify?: boolean;
}

/**
 * Callbacks of a backend watch. Events arrive in revision order; events of one revision arrive
 * in one onEvents call. After onError nothing else is called.
 */
export interface KVWatchHandler {
  onEvents(events: readonly KVEvent[], revision: number): void;
  /** The stream has delivered everything up to `revision`. */
  onProgress?(revision: number): void;
  onError(err: Error): void;
}

export interface KVWatch {
  cancel(): void;
  /**
   * Backpressure: stop delivering events until resume(); the backend keeps them (they are
   * delivered later, in order, or the watch fails with CompactedError if they were compacted).
   */
  pause(): void;
  resume(): void;
}

/** The requested revision has been compacted away (maps to 410). */
export class CompactedError extends Error {
  override readonly name = 'CompactedError';
  constructor(
    readonly requestedRevision: number,
    readonly compactRevision: number,
  ) {
    super(`mvcc: required revision ${requestedRevision} has been compacted (compacted to ${compactRevision})`);
  }
}

/** The requested revision is newer than the store's (maps to 504 TooLargeResourceVersion). */
export class FutureRevisionError extends Error {
  override readonly name = 'FutureRevisionError';
  constructor(
    readonly requestedRevision: number,
    readonly currentRevision: number,
  ) {
    super(`mvcc: required revision ${requestedRevision} is a future revision (current ${currentRevision})`);
  }
}

export interface KV {
  get(key: string, opts?: { revision?: number }): Promise<GetResponse>;
  list(req: ListRequest): Promise<ListResponse>;
  /**
   * The store's current revision (a get's `revision`), when the client knows it without a read:
   * a consistent read from the watch cache asks it first on every request. Absent: callers read.
   */
  currentRevision?(): Promise<number>;
  count(key: string, rangeEnd: string): Promise<number>;
  /** Sum of value sizes in bytes for the range, when cheaply known; undefined otherwise. */
  valueBytes?(key: string, rangeEnd: string): Promise<{ count: number; bytes: number } | undefined>;
  /** Writes value if the key's mod revision equals expectedRevision (0: the key must not exist). */
  optimisticPut(key: string, value: Buffer, expectedRevision: number, opts?: PutOptions): Promise<TxnResponse>;
  /** Deletes the key if its mod revision equals expectedRevision. */
  optimisticDelete(key: string, expectedRevision: number): Promise<TxnResponse>;
  watch(req: KVWatchRequest, handler: KVWatchHandler): KVWatch;
  /** Asks open watches to report progress soon. */
  requestProgress(): Promise<void>;
  /**
   * Whether progress reports answer requestProgress in order with events, so a cache may trust
   * them for consistent reads (etcd ≥ 3.4.31 / 3.5.13; kube's RequestWatchProgress feature check).
   */
  supportsRequestWatchProgress(): Promise<boolean>;
  /** Drops history before `revision` (reads below it fail with CompactedError). */
  compact(revision: number): Promise<void>;
  /** Newest compaction this client has observed (0 if none). */
  compactRevision(): number;
  /** Rejects when the backend cannot serve requests. */
  healthCheck(): Promise<void>;
  close(): Promise<void>;
}
