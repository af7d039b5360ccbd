import { CompactedError, type KVEvent, type KVWatch, type KVWatchHandler, type KVWatchRequest } from '../kv.js';
import type { Snapshot } from './feed.js';
import type { LogRow, Statements } from './schema.js';

/** Rows read per synchronous slice while replaying history, so the event loop keeps turning. */
const replayPage = 500;

interface Subscriber {
  key: string;
  rangeEnd: string;
  handler: KVWatchHandler;
  progressNotify: boolean;
  /** Highest revision delivered (or skipped as not matching). */
  delivered: number;
  /** While replaying from the log, live events wait here. */
  pending: KVEvent[] | undefined;
  /** The consumer asked for a pause: events stay in the log until it resumes. */
  paused: boolean;
  /** Identifies the current replay, so a replay scheduled before a pause never runs twice. */
  replayGen: number;
  cancelled: boolean;
}

/**
 * WatchHub publishes committed events to in-process watchers as the LogFeed hands them over (from
 * the commit path, or from the log tail for other processes' writes). A watcher that starts in
 * the past first replays the log (paged) up to what the feed has published, while events
 * published meanwhile are buffered and then delivered without gaps or duplicates: replay and
 * publication run on one thread and the feed publishes in revision order. A paused
 * watcher (backpressure) gets nothing until it resumes, then replays the log from where it was:
 * the log is its buffer, so a slow consumer costs no memory here.
 */
export class WatchHub {
  private readonly subs = new Set<Subscriber>();
  private progressTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly st: Statements,
    /** revision(): everything up to it has been published (the feed's position). */
    private readonly state: { revision(): number; compactRevision(): number; snapshot: Snapshot },
    progressNotifyIntervalMs: number,
  ) {
    if (progressNotifyIntervalMs > 0) {
      this.progressTimer = setInterval(() => this.notifyProgress(true), progressNotifyIntervalMs);
      this.progressTimer.unref();
    }
  }

  get size(): number {
    return this.subs.size;
  }

  watch(req: KVWatchRequest, handler: KVWatchHandler): KVWatch {
    const sub: Subscriber = {
      key: req.key,
      rangeEnd: req.rangeEnd ?? `${req.key}\0`,
      handler,
      progressNotify: req.progressNotify ?? false,
      delivered: req.startRevision - 1,
      pending: [],
      paused: false,
      replayGen: 0,
      cancelled: false,
    };
    const w: KVWatch = {
      cancel: () => {
        sub.cancelled = true;
        this.subs.delete(sub);
      },
      pause: () => this.pause(sub),
      resume: () => this.resume(sub),
    };
    if (req.startRevision < this.state.compactRevision()) {
      setImmediate(() => {
        if (!sub.cancelled) handler.onError(new CompactedError(req.startRevision, this.state.compactRevision()));
      });
      return w;
    }
    this.subs.add(sub);
    setImmediate(() => this.replay(sub, sub.replayGen));
    return w;
  }

  private pause(sub: Subscriber): void {
    if (sub.cancelled || sub.paused) return;
    sub.paused = true;
    // Live events buffered for a replay in progress are in the log: the next replay reads them.
    sub.pending = undefined;
  }

  private resume(sub: Subscriber): void {
    if (sub.cancelled || !sub.paused) return;
    sub.paused = false;
    sub.pending = [];
    const gen = ++sub.replayGen;
    setImmediate(() => this.replay(sub, gen));
  }

  /** Called after every commit with the batch's events in revision order. */
  publish(events: readonly KVEvent[], revision: number): void {
    for (const sub of this.subs) {
      if (sub.paused) continue;
      if (sub.pending) {
        sub.pending.push(...events);
        continue;
      }
      this.deliver(sub, events, revision);
    }
  }

  /**
   * Ends with 410 every watcher that still needed events compaction removed before the feed
   * published them (the feed fell more than the retained history behind another process).
   */
  failBehind(compactRevision: number): void {
    for (const sub of this.subs) {
      if (sub.paused || sub.delivered >= compactRevision - 1) continue;
      this.subs.delete(sub);
      sub.cancelled = true;
      sub.handler.onError(new CompactedError(sub.delivered + 1, compactRevision));
    }
  }

  /** Tells every live watcher it has seen everything up to the current revision. */
  notifyProgress(onlyProgressNotify = false): void {
    const rev = this.state.revision();
    for (const sub of this.subs) {
      if (sub.pending || sub.paused || (onlyProgressNotify && !sub.progressNotify)) continue;
      sub.delivered = Math.max(sub.delivered, rev);
      sub.handler.onProgress?.(rev);
    }
  }

  close(): void {
    if (this.progressTimer) clearInterval(this.progressTimer);
    for (const sub of this.subs) sub.cancelled = true;
    this.subs.clear();
  }

  private deliver(sub: Subscriber, events: readonly KVEvent[], revision: number): void {
    const mine: KVEvent[] = [];
    for (const e of events) {
      const rev = e.type === 'PUT' ? e.kv.modRevision : e.modRevision;
      if (rev <= sub.delivered) continue;
      const key = e.type === 'PUT' ? e.kv.key : e.key;
      if (key >= sub.key && key < sub.rangeEnd) mine.push(e);
    }
    sub.delivered = Math.max(sub.delivered, revision);
    if (mine.length > 0) sub.handler.onEvents(mine, revision);
  }

  private replay(sub: Subscriber, gen: number): void {
    if (sub.cancelled || sub.paused || gen !== sub.replayGen) return;
    let read: { rows: LogRow[] } | { compacted: number };
    try {
      // The compaction check and the rows come from one snapshot: another process may compact.
      read = this.state.snapshot((_head, compactRev) =>
        sub.delivered < compactRev - 1 ? { compacted: compactRev } : { rows: this.st.eventsAfter.all(sub.delivered, this.state.revision(), sub.key, sub.rangeEnd, replayPage) },
      );
    } catch (e) {
      this.subs.delete(sub);
      sub.handler.onError(e as Error);
      return;
    }
    if ('compacted' in read) {
      this.subs.delete(sub);
      sub.handler.onError(new CompactedError(sub.delivered + 1, read.compacted));
      return;
    }
    const rows = read.rows;
    const events = rows.map(toEvent);
    const last = rows[rows.length - 1];
    if (rows.length === replayPage && last) {
      // More history to read: deliver this page and continue on a later turn.
      sub.handler.onEvents(events, last.rev);
      sub.delivered = last.rev;
      setImmediate(() => this.replay(sub, gen));
      return;
    }
    // Caught up with what the feed has published (synchronously with it): switch to live delivery.
    const pending = sub.pending ?? [];
    sub.pending = undefined;
    const upTo = this.state.revision();
    if (events.length > 0) sub.handler.onEvents(events, upTo);
    sub.delivered = Math.max(sub.delivered, upTo);
    if (!sub.cancelled && !sub.paused && pending.length > 0) this.deliver(sub, pending, upTo);
  }
}

/** A log row as a watch event. */
export function toEvent(r: LogRow): KVEvent {
  const prevKv = r.prev_rev > 0 && r.prev_value ? { key: r.key, value: r.prev_value, createRevision: r.prev_create_rev ?? r.create_rev, modRevision: r.prev_rev } : undefined;
  if (r.deleted) return { type: 'DELETE', key: r.key, modRevision: r.rev, prevKv };
  return { type: 'PUT', kv: { key: r.key, value: r.value ?? Buffer.alloc(0), createRevision: r.create_rev, modRevision: r.rev }, prevKv };
}
