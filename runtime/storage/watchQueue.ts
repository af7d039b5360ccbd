import { statusForError } from './errors.js';
import type { WatchEvent, Watcher } from './interfaces.js';
import type { Status } from '../apimachinery/object.js';

interface Waiter<T> {
  resolve: (ev: WatchEvent<T> | undefined) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** The state a watch starts from, pulled one event at a time (a snapshot, or pages read from the backend). */
export type InitialEvents<T> = Iterator<WatchEvent<T>, void> | AsyncIterator<WatchEvent<T>, void>;

/** A producer that can stop and restart sending (a backend watch stream), for backpressure. */
export interface FlowControl {
  pause(): void;
  resume(): void;
}

export interface WatchQueueOptions {
  /** Called once when the consumer stops the watch or the producer ends it. */
  onClose?: () => void;
  /**
   * Buffered (pushed, not yet received) events above which the consumer counts as slow. Without
   * `flowControl` the queue then ends with `onOverflow` called, as kube's cacher terminates a
   * blocked watcher, so one slow reader never holds back the producer: events already buffered
   * are still delivered, unless the initial events were not all received (then nothing more
   * is, so a client never sees live events after a partial initial state). Unbounded if absent.
   */
  capacity?: number;
  onOverflow?: () => void;
  /**
   * Backpressure instead of ending: paused when the buffer exceeds `capacity`, resumed once
   * the consumer has taken it down to half. The producer keeps what it does not send.
   */
  flowControl?: FlowControl;
}

/**
 * WatchQueue is the Watcher handed to callers: producers push events, the consumer receives
 * them in order. Pushing never blocks. Initial events (sendInitial) come first and are pulled
 * from their source as the consumer receives, so any number of them is delivered in full and
 * none is held in the buffer. After `end()` (producer) or `stop()` (consumer) no new events
 * are accepted; those already buffered are still delivered, then receive() returns undefined.
 */
export class WatchQueue<T> implements Watcher<T> {
  private buf: WatchEvent<T>[] = [];
  private head = 0;
  private waiters: Waiter<T>[] = [];
  private closed = false;
  private closeNotified = false;
  private paused = false;
  private initial: InitialEvents<T> | undefined;
  /** The pull from `initial` in progress: a receive abandoned by its signal leaves it to the next. */
  private pulling: Promise<WatchEvent<T> | undefined> | undefined;

  constructor(private readonly opts: WatchQueueOptions = {}) {}

  get stopped(): boolean {
    return this.closed;
  }

  /** Number of pushed events waiting to be received (initial events not included). */
  get pending(): number {
    return this.buf.length - this.head;
  }

  /**
   * Makes `source` the initial events: delivered before anything pushed, never counted against
   * the capacity. An ERROR event from it ends the watch; an exception ends it with its Status.
   * Called at most once, before the consumer starts receiving.
   */
  sendInitial(source: InitialEvents<T>): void {
    if (this.closed) {
      void closeSource(source);
      return;
    }
    this.initial = source;
  }

  /** Delivers ev; returns false when the watch has ended (the event is dropped). */
  push(ev: WatchEvent<T>): boolean {
    if (this.closed) return false;
    if (this.initial === undefined) {
      const w = this.waiters.shift();
      if (w) {
        if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
        w.resolve(ev);
        return true;
      }
    }
    this.buf.push(ev);
    const capacity = this.opts.capacity;
    if (capacity !== undefined && this.pending > capacity) this.overflow();
    return true;
  }

  /** Sends a terminal ERROR event: nothing is delivered after it. */
  fail(status: Status): void {
    if (this.push({ type: 'ERROR', object: status })) this.end();
  }

  /** Producer side: no more events (initial events not yet received are dropped). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.dropInitial();
    if (this.pending === 0) this.flushWaiters();
    this.notifyClose();
  }

  /** Consumer side: stop watching. */
  stop(): void {
    this.end();
  }

  receive(opts: { signal?: AbortSignal } = {}): Promise<WatchEvent<T> | undefined> {
    const signal = opts.signal;
    if (this.initial !== undefined || this.pulling !== undefined) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return this.receiveInitial(signal);
    }
    if (this.pending > 0) return Promise.resolve(this.take());
    if (this.closed) return Promise.resolve(undefined);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter<T> = { resolve, reject };
      if (signal) {
        waiter.signal = signal;
        waiter.onAbort = () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
    });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    try {
      for (;;) {
        const ev = await this.receive();
        if (ev === undefined) return;
        yield ev;
      }
    } finally {
      this.stop();
    }
  }

  /** The next initial event, or (once they are exhausted) the next pushed one. */
  private async receiveInitial(signal: AbortSignal | undefined): Promise<WatchEvent<T> | undefined> {
    this.pulling ??= this.pullInitial();
    const pull = this.pulling;
    const ev = signal === undefined ? await pull : await abortable(pull, signal);
    // A concurrent receive took this event: wait for the next one.
    if (this.pulling !== pull) return this.receive(signal === undefined ? {} : { signal });
    this.pulling = undefined;
    if (ev === undefined) return this.receive(signal === undefined ? {} : { signal });
    if (ev.type === 'ERROR') {
      // Nothing follows an ERROR, not even live events pushed meanwhile.
      this.buf = [];
      this.head = 0;
      this.end();
    }
    return ev;
  }

  /** undefined once the source is exhausted (or dropped); the source's failure as an ERROR. */
  private async pullInitial(): Promise<WatchEvent<T> | undefined> {
    const source = this.initial;
    if (source === undefined) return undefined;
    let r: IteratorResult<WatchEvent<T>, void>;
    try {
      r = await source.next();
    } catch (err) {
      this.initial = undefined;
      return { type: 'ERROR', object: statusForError(err) };
    }
    if (this.initial !== source) return undefined; // ended meanwhile
    if (r.done) {
      this.initial = undefined;
      return undefined;
    }
    return r.value;
  }

  private take(): WatchEvent<T> {
    const ev = this.buf[this.head] as WatchEvent<T>;
    this.buf[this.head] = undefined as unknown as WatchEvent<T>;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.buf.length) {
      this.buf = this.buf.slice(this.head);
      this.head = 0;
    }
    if (this.paused && this.pending <= (this.opts.capacity ?? 0) / 2) {
      this.paused = false;
      this.opts.flowControl?.resume();
    }
    return ev;
  }

  private overflow(): void {
    const flow = this.opts.flowControl;
    if (flow) {
      if (!this.paused) {
        this.paused = true;
        flow.pause();
      }
      return;
    }
    // Live events must not follow a partial initial state: the client would resume after them.
    if (this.initial !== undefined || this.pulling !== undefined) {
      this.buf = [];
      this.head = 0;
    }
    this.end();
    this.opts.onOverflow?.();
  }

  private dropInitial(): void {
    const source = this.initial;
    this.initial = undefined;
    if (source !== undefined) void closeSource(source);
  }

  private flushWaiters(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) {
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.resolve(undefined);
    }
  }

  private notifyClose(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.opts.onClose?.();
  }
}

/** Lets a source release what it holds (an async generator runs its finally blocks). */
async function closeSource<T>(source: InitialEvents<T>): Promise<void> {
  try {
    await source.return?.();
  } catch {
    // A source that fails while closing has nothing more to give.
  }
}

/** p, or the signal's reason if it aborts first (p keeps running and is not consumed). */
function abortable<V>(p: Promise<V>, signal: AbortSignal): Promise<V> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<V>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
