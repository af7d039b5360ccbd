import { type Clock, realClock, type TimerHandle } from './clock.js';
import { type WaitingEntry, WaitingHeap } from './heap.js';
import { Queue, type WorkQueue } from './queue.js';

export interface DelayingWorkQueue<T> extends WorkQueue<T> {
  /** Adds the item once `delayMs` has passed (at once when ≤ 0); ignored after shutdown. */
  addAfter(item: T, delayMs: number): void;
}

export interface DelayingQueueOptions {
  /** Default: the system clock. */
  readonly clock?: Clock;
}

/**
 * A work queue with delayed adds (client-go's delaying queue). Waiting items
 * sit in a heap by ready time behind a single timer set for the earliest; an
 * item already waiting keeps the earlier of its two ready times. Shutdown
 * cancels the timer and forgets the waiting items, so nothing keeps the
 * process alive.
 */
export class DelayingQueue<T> extends Queue<T> implements DelayingWorkQueue<T> {
  protected readonly clock: Clock;
  readonly #heap = new WaitingHeap<T>();
  readonly #waiting = new Map<T, WaitingEntry<T>>();
  #seq = 0;
  #timer: { handle: TimerHandle; at: number } | undefined;

  constructor(options: DelayingQueueOptions = {}) {
    super();
    this.clock = options.clock ?? realClock;
  }

  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown()) return;
    if (!(delayMs > 0)) {
      this.add(item);
      return;
    }
    const readyAt = this.clock.now() + delayMs;
    const existing = this.#waiting.get(item);
    if (existing !== undefined) {
      if (readyAt >= existing.readyAt) return;
      existing.readyAt = readyAt;
      this.#heap.fix(existing);
    } else {
      const entry: WaitingEntry<T> = { item, readyAt, seq: this.#seq++, index: -1 };
      this.#waiting.set(item, entry);
      this.#heap.push(entry);
    }
    this.#arm();
  }

  /** Items waiting for their delay to pass. */
  waitingLen(): number {
    return this.#heap.size;
  }

  override shutDown(): void {
    this.#stopWaiting();
    super.shutDown();
  }

  override shutDownWithDrain(): Promise<void> {
    this.#stopWaiting();
    return super.shutDownWithDrain();
  }

  /** Sets the one timer for the earliest waiting item, unless it is already set for that time. */
  #arm(): void {
    const next = this.#heap.peek();
    if (next === undefined) {
      this.#timer?.handle.cancel();
      this.#timer = undefined;
      return;
    }
    if (this.#timer !== undefined && this.#timer.at <= next.readyAt) return;
    this.#timer?.handle.cancel();
    const at = next.readyAt;
    this.#timer = { at, handle: this.clock.setTimer(() => this.#fire(), at - this.clock.now()) };
  }

  #fire(): void {
    this.#timer = undefined;
    const now = this.clock.now();
    for (let next = this.#heap.peek(); next !== undefined && next.readyAt <= now; next = this.#heap.peek()) {
      this.#heap.pop();
      this.#waiting.delete(next.item);
      this.add(next.item);
    }
    this.#arm();
  }

  #stopWaiting(): void {
    this.#timer?.handle.cancel();
    this.#timer = undefined;
    this.#heap.clear();
    this.#waiting.clear();
  }
}
