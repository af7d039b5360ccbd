import type { KVEvent } from '../kv.js';
import type { FeedNotifier } from './notifier.js';
import type { Statements } from './schema.js';
import { toEvent, type WatchHub } from './watchHub.js';

/** Log rows published per synchronous slice of the tail, so the event loop keeps turning. */
const tailPage = 1000;

/** A consistent read of the file: the head and compacted revisions seen by the same snapshot as `fn`'s reads. */
export type Snapshot = <T>(fn: (head: number, compactRev: number) => T) => T;

export interface LogFeedOptions {
  /** The revision everything up to which has been published (the head when the KV opened). */
  published: number;
  /** Shared mode: how other processes' commits are noticed. Absent: this process is the only writer. */
  shared?: { notifier: FeedNotifier; pollIntervalMs: number };
}

/**
 * LogFeed hands the WatchHub every committed event exactly once, in revision order. This
 * process's own batches go straight from the commit path when nothing committed by another
 * process precedes them (always, in exclusive mode); otherwise, and for every other process's
 * writes, the feed tails the log (`rev > published`), as kine does. Writers are serialized by
 * SQLite's write lock and take their revisions inside the write transaction, so a snapshot
 * that sees revision r sees every revision below it: the log has no holes for the tail to step
 * over except the ones compaction makes, which it detects.
 */
export class LogFeed {
  private published: number;
  private scheduled = false;
  private closed = false;
  private readonly unsubscribe: (() => void) | undefined;
  private readonly poll: NodeJS.Timeout | undefined;

  constructor(
    private readonly st: Statements,
    private readonly hub: WatchHub,
    private readonly snapshot: Snapshot,
    private readonly opts: LogFeedOptions,
  ) {
    this.published = opts.published;
    if (opts.shared) {
      this.unsubscribe = opts.shared.notifier.subscribe(() => this.kick());
      // The fallback: a lost notification delays events by at most one interval.
      this.poll = setInterval(() => this.kick(), opts.shared.pollIntervalMs);
      this.poll.unref();
    }
  }

  /** Every event up to this revision has been handed to the hub. */
  get revision(): number {
    return this.published;
  }

  /**
   * Called right after this process committed the events of revisions (base, last]: published
   * at once when the feed is at base, otherwise left to the tail, which reads them from the log
   * after the other processes' earlier events.
   */
  committed(base: number, events: readonly KVEvent[], last: number): void {
    this.opts.shared?.notifier.notify(last);
    // Exclusive mode: no other writer, so base is always what was published.
    if (base === this.published || !this.opts.shared) {
      this.published = last;
      this.hub.publish(events, last);
    } else this.kick();
  }

  /** Schedules a read of the log's new rows (coalesced: one pending read at a time). */
  kick(): void {
    if (this.scheduled || this.closed || !this.opts.shared) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.closed && this.step()) this.kick();
    });
  }

  /** Resolves once everything committed before the call has been handed to the hub. */
  async sync(): Promise<void> {
    while (!this.closed && this.opts.shared && this.step()) await new Promise<void>((r) => setImmediate(r));
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    if (this.poll) clearInterval(this.poll);
  }

  /** Publishes one page of new log rows; true when more are waiting. */
  private step(): boolean {
    const from = this.published;
    const read = this.snapshot((head, compactRev) => {
      if (head <= from) return undefined;
      const rows = this.st.feedAfter.all(from, head, tailPage);
      // Compaction removes superseded rows at or below its revision: if it reached past what we
      // published and removed any of those rows, watchers that needed them get 410.
      const lost = from < compactRev - 1 && (this.st.logRowsBetween.get(from, compactRev)?.n ?? 0) < compactRev - from;
      return { head, compactRev, rows, lost };
    });
    if (!read) return false;
    if (read.lost) this.hub.failBehind(read.compactRev);
    const last = read.rows[read.rows.length - 1];
    const upTo = read.rows.length < tailPage || !last ? read.head : last.rev;
    this.published = upTo;
    this.hub.publish(read.rows.map(toEvent), upTo);
    return upTo < read.head;
  }
}
