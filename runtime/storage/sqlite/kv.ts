import Database from 'better-sqlite3';
import {
  CompactedError,
  FutureRevisionError,
  type GetResponse,
  type KV,
  type KVWatch,
  type KVWatchHandler,
  type KVWatchRequest,
  type KeyValue,
  type ListRequest,
  type ListResponse,
  type PutOptions,
  type TxnResponse,
} from '../kv.js';
import { BackendUnavailableError } from '../kvstore/kvErrors.js';
import { LogFeed, type Snapshot } from './feed.js';
import { GroupCommit, toKeyValue } from './groupCommit.js';
import { fileNotifier, type FeedNotifier } from './notifier.js';
import { openSchema, prepareStatements, type Statements } from './schema.js';
import { WatchHub } from './watchHub.js';

/** Shared mode: several processes (each its own SqliteKV) on one file. */
export interface SqliteSharedOptions {
  /** How a commit wakes the other processes' feeds (default: a `<path>-notify` file written after each commit and watched by all). */
  notifier?: FeedNotifier;
  /** The fallback when a notification is lost: the log is read at least this often (default 200 ms). */
  pollIntervalMs?: number;
  /** How long a write waits for another process's transaction to finish (default 10 s). */
  busyTimeoutMs?: number;
}

export interface SqliteKVOptions {
  /** Database file; created if missing. */
  path: string;
  /**
   * Periodic compaction: every `intervalMs`, drop history older than the newest
   * `retainRevisions` revisions. Off when absent (compact() still works).
   */
  compaction?: { intervalMs: number; retainRevisions: number };
  /** How often watchers that asked for progress notifications get one (default 5 s). */
  progressNotifyIntervalMs?: number;
  /** How often expired TTL keys are deleted (default 1 s). */
  leaseSweepIntervalMs?: number;
  /** Rows read per synchronous slice of a large list (default 1000). */
  listPageSize?: number;
  /**
   * Share the file with other processes (see README, "Several processes"). Default off: the
   * file is locked to this process, the fastest path. All processes on a file must agree.
   */
  shared?: boolean | SqliteSharedOptions;
}

/** Old revisions deleted per compaction transaction, so compaction never stalls writes for long. */
const compactBatchRows = 2000;

/**
 * SqliteKV is the embedded backend: an etcd-like revisioned key space in one SQLite file
 * (better-sqlite3, WAL, synchronous=FULL), owned by this process or, in shared mode, by several.
 * Writes go through group commit; watches are fed by the LogFeed (from the commit path, and
 * from the log for other processes' writes); reads run on the event loop in bounded slices.
 */
export class SqliteKV implements KV {
  private readonly db: Database.Database;
  private readonly st: Statements;
  private readonly commits: GroupCommit;
  private readonly hub: WatchHub;
  private readonly feed: LogFeed;
  private readonly shared: boolean;
  /** Exclusive mode: the head revision (shared mode: this process's last write transaction's). */
  private rev: number;
  /** Exclusive mode: the compacted revision (shared mode reads it from the file). */
  private compactRev: number;
  /** A consistent read of head and compacted revision with the reads `fn` makes. */
  private readonly snapshot: Snapshot;
  private readonly pageSize: number;
  private readonly timers: NodeJS.Timeout[] = [];
  private compacting: Promise<void> | undefined;
  private closed = false;
  /** Shared mode: the read of the file's head that this turn's currentRevision calls wait for. */
  private pendingHead: Promise<number> | undefined;

  constructor(opts: SqliteKVOptions) {
    const shared = opts.shared === true ? {} : opts.shared || undefined;
    this.shared = shared !== undefined;
    // Exclusive: a short busy timeout, waiting for another owner is pointless. Shared: writers
    // wait for each other's transactions (milliseconds each; a killed one's lock dies with it).
    const busyTimeoutMs = shared ? (shared.busyTimeoutMs ?? 10_000) : 500;
    this.db = new Database(opts.path, { timeout: busyTimeoutMs });
    try {
      openSchema(this.db, { shared: this.shared, busyTimeoutMs });
      this.st = prepareStatements(this.db);
      this.rev = this.headRevision();
      this.compactRev = this.fileCompactRevision();
    } catch (e) {
      // Refused (another owner holds the file): release the connection.
      this.db.close();
      throw e;
    }
    this.pageSize = opts.listPageSize ?? 1000;
    if (shared) {
      const readTxn = this.db.transaction(<T>(fn: (head: number, compactRev: number) => T): T => fn(this.headRevision(), this.fileCompactRevision()));
      this.snapshot = readTxn.deferred as Snapshot;
    } else this.snapshot = (fn) => fn(this.rev, this.compactRev);
    this.hub = new WatchHub(this.st, { revision: () => this.feed.revision, compactRevision: () => this.compactRevision(), snapshot: this.snapshot }, opts.progressNotifyIntervalMs ?? 5000);
    this.feed = new LogFeed(this.st, this.hub, this.snapshot, {
      published: this.rev,
      shared: shared && { notifier: shared.notifier ?? fileNotifier(opts.path), pollIntervalMs: shared.pollIntervalMs ?? 200 },
    });
    this.commits = new GroupCommit(this.db, this.st, { get: () => this.rev, set: (r) => (this.rev = r) }, (base, events, revision) => this.feed.committed(base, events, revision), {
      shared: this.shared,
    });
    const sweep = setInterval(() => this.sweepExpired(), opts.leaseSweepIntervalMs ?? 1000);
    sweep.unref();
    this.timers.push(sweep);
    if (opts.compaction) {
      const { intervalMs, retainRevisions } = opts.compaction;
      const t = setInterval(() => {
        if (this.closed) return;
        const target = this.revision() - retainRevisions;
        if (target > this.compactRevision()) this.compact(target).catch(() => undefined);
      }, intervalMs);
      t.unref();
      this.timers.push(t);
    }
  }

  /** Write transactions committed so far; concurrent writes share one (group commit). */
  get commitBatches(): number {
    return this.commits.batches;
  }

  /** The current revision (last committed write, by any process sharing the file). */
  revision(): number {
    return this.shared ? this.headRevision() : this.rev;
  }

  /**
   * In one process the revision it committed last. Sharing the file, the file's: a read
   * transaction of its own, which every consistent read from the watch cache would otherwise pay
   * (about a tenth of a GET's CPU with two workers). Calls made during one turn of the event loop
   * share one read, taken once all of them have been made (etcd batches linearizable reads the
   * same way): it sees every write acknowledged before any of them began, which is all a
   * consistent read asks.
   */
  currentRevision(): Promise<number> {
    if (this.closed) return Promise.reject(closedError());
    if (!this.shared) return Promise.resolve(this.rev);
    return (this.pendingHead ??= new Promise<number>((resolve, reject) => {
      setImmediate(() => {
        this.pendingHead = undefined;
        try {
          if (this.closed) throw closedError();
          resolve(this.headRevision());
        } catch (e) {
          reject(e);
        }
      });
    }));
  }

  async get(key: string, opts: { revision?: number } = {}): Promise<GetResponse> {
    this.assertOpen();
    return this.snapshot((head, compactRev): GetResponse => {
      const at = readRevision(opts.revision, head, compactRev);
      if (at === head) {
        const row = this.st.getCurrent.get(key);
        return { kv: row ? toKeyValue(row, Date.now()) : undefined, revision: head };
      }
      const row = this.st.getAt.get(key, at);
      if (!row || row.deleted || !row.value) return { revision: at };
      return { kv: { key, value: row.value, createRevision: row.create_rev, modRevision: row.rev }, revision: at };
    });
  }

  async list(req: ListRequest): Promise<ListResponse> {
    this.assertOpen();
    const limit = req.limit && req.limit > 0 ? req.limit : Infinity;
    const kvs: KeyValue[] = [];
    let start = req.key;
    let at = 0;
    let count = 0;
    // Read in slices; later slices read at the same revision (from history if writes happened meanwhile).
    for (let first = true; ; first = false) {
      const want = Math.min(this.pageSize, limit - kvs.length);
      const page = this.snapshot((head, compactRev) => {
        if (first) {
          at = readRevision(req.revision, head, compactRev);
          count = this.countAt(req.key, req.rangeEnd, at, head);
        } else if (at < compactRev) throw new CompactedError(at, compactRev);
        return this.rangeAt(start, req.rangeEnd, at, want, head);
      });
      kvs.push(...page);
      const last = page[page.length - 1];
      if (page.length < want || kvs.length >= limit || !last) break;
      start = `${last.key}\0`;
      await new Promise<void>((r) => setImmediate(r));
      this.assertOpen();
    }
    return { kvs, count, revision: at };
  }

  async count(key: string, rangeEnd: string): Promise<number> {
    this.assertOpen();
    return this.st.countCurrent.get(key, rangeEnd)?.n ?? 0;
  }

  async valueBytes(key: string, rangeEnd: string): Promise<{ count: number; bytes: number }> {
    this.assertOpen();
    const r = this.st.sizeCurrent.get(key, rangeEnd);
    return { count: r?.n ?? 0, bytes: r?.bytes ?? 0 };
  }

  optimisticPut(key: string, value: Buffer, expectedRevision: number, opts: PutOptions = {}): Promise<TxnResponse> {
    this.assertOpen();
    return this.commits.submit({ kind: 'put', key, value, expected: expectedRevision, ttlSeconds: opts.ttlSeconds ?? 0 });
  }

  optimisticDelete(key: string, expectedRevision: number): Promise<TxnResponse> {
    this.assertOpen();
    return this.commits.submit({ kind: 'delete', key, expected: expectedRevision });
  }

  watch(req: KVWatchRequest, handler: KVWatchHandler): KVWatch {
    this.assertOpen();
    return this.hub.watch(req, handler);
  }

  async requestProgress(): Promise<void> {
    // This process's events are published synchronously at commit; other processes' are read
    // from the log first, so the progress reported covers every write committed before the call.
    this.feed
      .sync()
      .then(() => setImmediate(() => this.hub.notifyProgress()))
      .catch(() => undefined);
  }

  async supportsRequestWatchProgress(): Promise<boolean> {
    return true;
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    // Publish the new floor first, in the file: reads below it fail from now on, in every
    // process, before rows disappear. Only the process that raised it deletes the rows.
    if (!this.raiseCompactRevision(revision)) return;
    this.compactRev = revision;
    const previous = this.compacting ?? Promise.resolve();
    const run = previous.then(async () => {
      for (;;) {
        if (this.closed) return;
        const { changes } = this.st.compactBatch.run(revision, revision, compactBatchRows);
        if (changes < compactBatchRows) break;
        await new Promise<void>((r) => setImmediate(r));
      }
      if (!this.closed) this.db.pragma('wal_checkpoint(PASSIVE)');
    });
    this.compacting = run;
    await run;
  }

  compactRevision(): number {
    return this.shared ? this.fileCompactRevision() : this.compactRev;
  }

  async healthCheck(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.commits.flush();
    await this.compacting?.catch(() => undefined);
    this.closed = true;
    this.feed.close();
    for (const t of this.timers) clearInterval(t);
    this.hub.close();
    this.db.close();
  }

  private headRevision(): number {
    return this.st.getMeta.get('rev')?.value ?? 1;
  }

  private fileCompactRevision(): number {
    return this.st.getMeta.get('compact_rev')?.value ?? 0;
  }

  /** Sets the file's compacted revision to `revision` if that raises it; false if it was already there. */
  private raiseCompactRevision(revision: number): boolean {
    const raise = (): boolean => {
      if (revision <= this.fileCompactRevision()) return false;
      const head = this.headRevision();
      if (revision > head) throw new FutureRevisionError(revision, head);
      this.st.setMeta.run('compact_rev', revision);
      return true;
    };
    if (!this.shared) return raise();
    // Under the write lock: two processes compacting at once agree on one winner.
    return this.db.transaction(raise).immediate();
  }

  /** The current table serves reads at the head; older revisions come from the log. */
  private countAt(key: string, rangeEnd: string, at: number, head: number): number {
    if (at === head) return this.st.countCurrent.get(key, rangeEnd)?.n ?? 0;
    return this.st.countAt.get(key, rangeEnd, at)?.n ?? 0;
  }

  private rangeAt(key: string, rangeEnd: string, at: number, limit: number, head: number): KeyValue[] {
    const now = Date.now();
    if (at === head) return this.st.rangeCurrent.all(key, rangeEnd, limit).map((r) => toKeyValue(r, now));
    return this.st.rangeAt.all(key, rangeEnd, at, limit).map((r) => ({ key: r.key, value: r.value, createRevision: r.create_rev, modRevision: r.rev }));
  }

  private sweepExpired(): void {
    if (this.closed) return;
    for (const { key, mod_rev } of this.st.expired.all(Date.now(), 1000)) {
      this.commits.submit({ kind: 'delete', key, expected: mod_rev }).catch(() => undefined);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }
}

function closedError(): BackendUnavailableError {
  return new BackendUnavailableError('sqlite storage is closed');
}

/** The revision a read is served at: the head when none is requested. */
function readRevision(requested: number | undefined, head: number, compactRev: number): number {
  if (!requested) return head;
  if (requested > head) throw new FutureRevisionError(requested, head);
  if (requested < compactRev) throw new CompactedError(requested, compactRev);
  return requested;
}
