import type Database from 'better-sqlite3';
import type { KVEvent, KeyValue, TxnResponse } from '../kv.js';
import type { CurrentRow, Statements } from './schema.js';

export type WriteOp = { kind: 'put'; key: string; value: Buffer; expected: number; ttlSeconds: number } | { kind: 'delete'; key: string; expected: number };

interface Pending {
  op: WriteOp;
  resolve: (r: TxnResponse) => void;
  reject: (e: unknown) => void;
}

/** Most writes folded into one transaction (one fsync). */
const maxBatch = 1024;

/**
 * GroupCommit collects the writes issued during one event-loop turn and applies them in one
 * SQLite transaction: each write still gets its own compare-and-swap and revision, but they
 * share a single WAL fsync. Promises resolve only after the commit is durable; the events of
 * the batch are then handed to `publish` in revision order, with the revision the batch started
 * from. Shared mode (several processes on the file): the transaction takes the write lock up
 * front (BEGIN IMMEDIATE, waiting out another process's commit) and reads the head revision
 * inside it, so revisions stay global and strictly increasing whoever writes.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  /** Transactions committed so far (for metrics and tests). */
  batches = 0;
  private readonly runBatch: (ops: Pending[]) => { base: number; results: TxnResponse[]; events: KVEvent[] };
  private readonly now: () => number;

  constructor(
    db: Database.Database,
    private readonly st: Statements,
    private readonly revision: { get(): number; set(rev: number): void },
    private readonly publish: (base: number, events: KVEvent[], revision: number) => void,
    opts: { shared: boolean; now?: () => number },
  ) {
    this.now = opts.now ?? Date.now;
    const txn = db.transaction((ops: Pending[]) => {
      if (opts.shared) this.revision.set(this.st.getMeta.get('rev')?.value ?? 1);
      const base = this.revision.get();
      const results: TxnResponse[] = [];
      const events: KVEvent[] = [];
      for (const p of ops) results.push(this.apply(p.op, events));
      return { base, results, events };
    });
    this.runBatch = opts.shared ? txn.immediate : txn;
  }

  submit(op: WriteOp): Promise<TxnResponse> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate, not a microtask: callers resuming in this turn still join the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Applies everything queued now (also used on close). */
  flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, maxBatch);
      const committed = this.revision.get();
      let out: { base: number; results: TxnResponse[]; events: KVEvent[] };
      try {
        out = this.runBatch(batch);
      } catch (e) {
        // The transaction rolled back: nothing in it happened.
        this.revision.set(committed);
        for (const p of batch) p.reject(e);
        continue;
      }
      this.batches++;
      batch.forEach((p, i) => p.resolve(out.results[i] as TxnResponse));
      if (out.events.length > 0) this.publish(out.base, out.events, this.revision.get());
    }
  }

  private apply(op: WriteOp, events: KVEvent[]): TxnResponse {
    const cur = this.st.getCurrent.get(op.key);
    const curRev = cur?.mod_rev ?? 0;
    if (curRev !== op.expected) {
      return { succeeded: false, revision: this.revision.get(), kv: cur ? toKeyValue(cur, this.now()) : undefined };
    }
    const rev = this.revision.get() + 1;
    const prevKv = cur ? toKeyValue(cur, this.now()) : undefined;
    if (op.kind === 'put') {
      const createRev = cur ? cur.create_rev : rev;
      const expiresAt = op.ttlSeconds > 0 ? this.now() + op.ttlSeconds * 1000 : null;
      this.st.insertLog.run(rev, op.key, createRev, curRev, 0, op.value, expiresAt);
      this.st.upsertCurrent.run(op.key, createRev, rev, op.value, expiresAt);
      events.push({
        type: 'PUT',
        kv: { key: op.key, value: op.value, createRevision: createRev, modRevision: rev, ttl: op.ttlSeconds },
        prevKv,
      });
    } else {
      if (!cur) return { succeeded: false, revision: this.revision.get() };
      this.st.insertLog.run(rev, op.key, cur.create_rev, curRev, 1, null, null);
      this.st.deleteCurrent.run(op.key);
      events.push({ type: 'DELETE', key: op.key, modRevision: rev, prevKv });
    }
    this.st.setMeta.run('rev', rev);
    this.revision.set(rev);
    return { succeeded: true, revision: rev };
  }
}

export function toKeyValue(row: CurrentRow, now: number): KeyValue {
  return {
    key: row.key,
    value: row.value,
    createRevision: row.create_rev,
    modRevision: row.mod_rev,
    ttl: row.expires_at === null ? 0 : Math.max(0, Math.ceil((row.expires_at - now) / 1000)),
  };
}
