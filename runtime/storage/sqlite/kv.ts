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
import { GroupCommit, toKeyValue } from './groupCommit.js';
import { openSchema, prepareStatements, type Statements } from './schema.js';
import { WatchHub } from './watchHub.js';

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
}

/** Old revisions deleted per compaction transaction, so compaction never stalls writes for long. */
const compactBatchRows = 2000;

/**
 * SqliteKV is the embedded backend: an etcd-like revisioned key space in one SQLite file
 * (better-sqlite3, WAL, synchronous=FULL), owned by this process. Writes go through group
 * commit; watches are fed from the commit path; reads run on the event loop in bounded slices.
 */
export class SqliteKV implements KV {
  private readonly db: Database.Database;
  private readonly st: Statements;
  private readonly commits: GroupCommit;
  private readonly hub: WatchHub;
  private rev: number;
  private compactRev: number;
  private readonly pageSize: number;
  private readonly timers: NodeJS.Timeout[] = [];
  private compacting: Promise<void> | undefined;
  private closed = false;

  constructor(opts: SqliteKVOptions) {
    // Short busy timeout: the file is locked exclusively, so waiting for another owner is pointless.
    this.db = new Database(opts.path, { timeout: 500 });
    openSchema(this.db);
    this.st = prepareStatements(this.db);
    this.rev = this.st.getMeta.get('rev')?.value ?? 1;
    this.compactRev = this.st.getMeta.get('compact_rev')?.value ?? 0;
    this.pageSize = opts.listPageSize ?? 1000;
    this.hub = new WatchHub(this.st, { revision: () => this.rev, compactRevision: () => this.compactRev }, opts.progressNotifyIntervalMs ?? 5000);
    this.commits = new GroupCommit(this.db, this.st, { get: () => this.rev, set: (r) => (this.rev = r) }, (events, revision) => this.hub.publish(events, revision));
    const sweep = setInterval(() => this.sweepExpired(), opts.leaseSweepIntervalMs ?? 1000);
    sweep.unref();
    this.timers.push(sweep);
    if (opts.compaction) {
      const { intervalMs, retainRevisions } = opts.compaction;
      const t = setInterval(() => {
        const target = this.rev - retainRevisions;
        if (target > this.compactRev) this.compact(target).catch(() => undefined);
      }, intervalMs);
      t.unref();
      this.timers.push(t);
    }
  }

  /** Write transactions committed so far; concurrent writes share one (group commit). */
  get commitBatches(): number {
    return this.commits.batches;
  }

  /** The current revision (last committed write). */
  revision(): number {
    return this.rev;
  }

  async get(key: string, opts: { revision?: number } = {}): Promise<GetResponse> {
    this.assertOpen();
    const at = this.readRevision(opts.revision);
    const now = Date.now();
    if (at === this.rev) {
      const row = this.st.getCurrent.get(key);
      return { kv: row ? toKeyValue(row, now) : undefined, revision: this.rev };
    }
    const row = this.st.getAt.get(key, at);
    if (!row || row.deleted || !row.value) return { revision: at };
    return { kv: { key, value: row.value, createRevision: row.create_rev, modRevision: row.rev }, revision: at };
  }

  async list(req: ListRequest): Promise<ListResponse> {
    this.assertOpen();
    const at = this.readRevision(req.revision);
    const limit = req.limit && req.limit > 0 ? req.limit : Infinity;
    const count = this.countAt(req.key, req.rangeEnd, at);
    const kvs: KeyValue[] = [];
    let start = req.key;
    // Read in slices; later slices read at the same revision (from history if writes happened meanwhile).
    for (;;) {
      const want = Math.min(this.pageSize, limit - kvs.length);
      const page = this.rangeAt(start, req.rangeEnd, at, want);
      kvs.push(...page);
      const last = page[page.length - 1];
      if (page.length < want || kvs.length >= limit || !last) break;
      start = `${last.key}\0`;
      await new Promise<void>((r) => setImmediate(r));
      this.assertOpen();
      if (at < this.compactRev) throw new CompactedError(at, this.compactRev);
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
    // Events are published synchronously at commit, so every live watcher is already current.
    setImmediate(() => this.hub.notifyProgress());
  }

  async supportsRequestWatchProgress(): Promise<boolean> {
    return true;
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision <= this.compactRev) return;
    if (revision > this.rev) throw new FutureRevisionError(revision, this.rev);
    // Publish the new floor first: reads below it fail from now on, before rows disappear.
    this.st.setMeta.run('compact_rev', revision);
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
    return this.compactRev;
  }

  async healthCheck(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.commits.flush();
    await this.compacting?.catch(() => undefined);
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.hub.close();
    this.db.close();
  }

  private readRevision(requested: number | undefined): number {
    if (!requested) return this.rev;
    if (requested > this.rev) throw new FutureRevisionError(requested, this.rev);
    if (requested < this.compactRev) throw new CompactedError(requested, this.compactRev);
    return requested;
  }

  private countAt(key: string, rangeEnd: string, at: number): number {
    if (at === this.rev) return this.st.countCurrent.get(key, rangeEnd)?.n ?? 0;
    return this.st.countAt.get(key, rangeEnd, at)?.n ?? 0;
  }

  private rangeAt(key: string, rangeEnd: string, at: number, limit: number): KeyValue[] {
    const now = Date.now();
    if (at === this.rev) return this.st.rangeCurrent.all(key, rangeEnd, limit).map((r) => toKeyValue(r, now));
    return this.st.rangeAt.all(key, rangeEnd, at, limit).map((r) => ({ key: r.key, value: r.value, createRevision: r.create_rev, modRevision: r.rev }));
  }

  private sweepExpired(): void {
    if (this.closed) return;
    for (const { key, mod_rev } of this.st.expired.all(Date.now(), 1000)) {
      this.commits.submit({ kind: 'delete', key, expected: mod_rev }).catch(() => undefined);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new BackendUnavailableError('sqlite storage is closed');
  }
}
