import type { WatchEvent, Watcher } from './interfaces.js';
import type { Status } from './object.js';

interface Waiter<T> {
  resolve: (ev: WatchEvent<T> | undefined) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface WatchQueueOptions {
  /** Called once when the consumer stops the watch or the producer ends it. */
  onClose?: () => void;
  /**
   * Buffered events above which the consumer counts as unresponsive: the queue then ends with
   * `onOverflow` called, so one slow reader never holds back the producer. Unbounded if absent.
   */
  capacity?: number;
  onOverflow?: () => void;
}

/**
 * WatchQueue is the Watcher handed to callers: producers push events, the consumer receives
 * them in order. Pushing never blocks. After `end()` (producer) or `stop()` (consumer) no new
 * events are accepted; those already buffered are still delivered, then receive() returns
 * undefined.
 */
export class WatchQueue<T> implements Watcher<T> {
  private buf: WatchEvent<T>[] = [];
  private head = 0;
  private waiters: Waiter<T>[] = [];
  private closed = false;
  private closeNotified = false;

  constructor(private readonly opts: WatchQueueOptions = {}) {}

  get stopped(): boolean {
    return this.closed;
  }

  /** Number of events waiting to be received. */
  get pending(): number {
    return this.buf.length - this.head;
  }

  /** Delivers ev; returns false when the watch has ended (the event is dropped). */
  push(ev: WatchEvent<T>): boolean {
    if (this.closed) return false;
    const w = this.waiters.shift();
    if (w) {
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.resolve(ev);
      return true;
    }
    this.buf.push(ev);
    if (this.opts.capacity !== undefined && this.pending > this.opts.capacity) {
      this.end();
      this.opts.onOverflow?.();
    }
    return true;
  }

  /** Sends a terminal ERROR event: nothing is delivered after it. */
  fail(status: Status): void {
    if (this.push({ type: 'ERROR', object: status })) this.end();
  }

  /** Producer side: no more events. */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.pending === 0) this.flushWaiters();
    this.notifyClose();
  }

  /** Consumer side: stop watching. */
  stop(): void {
    this.end();
  }

  receive(opts: { signal?: AbortSignal } = {}): Promise<WatchEvent<T> | undefined> {
    if (this.pending > 0) {
      const ev = this.buf[this.head] as WatchEvent<T>;
      this.buf[this.head] = undefined as unknown as WatchEvent<T>;
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.buf.length) {
        this.buf = this.buf.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve(ev);
    }
    if (this.closed) return Promise.resolve(undefined);
    const signal = opts.signal;
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
