/**
 * watch.Broadcaster in its DropIfChannelFull mode, the one the event broadcaster uses: every
 * value is delivered to every watcher in order, through an incoming queue and one queue per
 * watcher, each bounded by `queueLength`. A full incoming queue refuses new values
 * (`actionOrDrop` answers false); a watcher whose queue is full misses the value while the others
 * get it, so one slow consumer never holds the rest up.
 */
export class Broadcaster<T> {
  readonly #incoming = new BoundedQueue<T>();
  readonly #watchers = new Map<number, BroadcasterWatcher<T>>();
  #nextWatcher = 0;
  #scheduled = false;
  #stopped = false;

  constructor(readonly queueLength: number) {
    if (!(queueLength > 0)) throw new RangeError(`a broadcaster needs queueLength > 0, got ${queueLength}`);
  }

  /** Queues `value` for every watcher; false when the incoming queue is full (the value is dropped). Throws after shutdown. */
  actionOrDrop(value: T): boolean {
    if (this.#stopped) throw new BroadcasterStoppedError();
    if (this.#incoming.length >= this.queueLength) return false;
    this.#incoming.push(value);
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.#distribute());
    }
    return true;
  }

  /** A new watcher; it receives only values queued after this call. Throws after shutdown. */
  watch(): BroadcasterWatcher<T> {
    if (this.#stopped) throw new BroadcasterStoppedError();
    // Values queued before the watcher existed go to the earlier watchers only (Go's blockQueue).
    this.#distribute();
    const id = this.#nextWatcher++;
    const w = new BroadcasterWatcher<T>(this.queueLength, () => this.#stopWatching(id));
    this.#watchers.set(id, w);
    return w;
  }

  /** Delivers what is queued, then closes every watcher; they still hand out what they hold. Idempotent. */
  shutdown(): void {
    if (this.#stopped) return;
    this.#distribute();
    this.#stopped = true;
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  #stopWatching(id: number): void {
    const w = this.#watchers.get(id);
    if (w === undefined) return;
    this.#distribute();
    this.#watchers.delete(id);
    w.close();
  }

  #distribute(): void {
    this.#scheduled = false;
    for (let value = this.#incoming.shift(); value !== undefined; value = this.#incoming.shift()) {
      for (const w of this.#watchers.values()) w.offer(value.item);
    }
  }
}

export class BroadcasterStoppedError extends Error {
  override readonly name = 'BroadcasterStoppedError';
  constructor() {
    super('broadcaster already stopped');
  }
}

/** One consumer of a Broadcaster: `next()` hands out its values in order. */
export class BroadcasterWatcher<T> {
  readonly #queue = new BoundedQueue<T>();
  #closed = false;
  #wake: (() => void) | undefined;

  constructor(
    private readonly capacity: number,
    private readonly onStop: () => void,
  ) {}

  /** The next value; undefined once the watcher is closed and drained, or when `signal` aborts. */
  async next(signal?: AbortSignal): Promise<{ readonly item: T } | undefined> {
    for (;;) {
      if (signal?.aborted === true) return undefined;
      const value = this.#queue.shift();
      if (value !== undefined) return value;
      if (this.#closed) return undefined;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          signal?.removeEventListener('abort', done);
          this.#wake = undefined;
          resolve();
        };
        this.#wake = done;
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Stops watching: the broadcaster forgets the watcher; values it already holds are still handed out. */
  stop(): void {
    this.onStop();
  }

  /** Whether the value was queued: false when the queue is full or the watcher is closed. */
  offer(item: T): boolean {
    if (this.#closed || this.#queue.length >= this.capacity) return false;
    this.#queue.push(item);
    this.#wake?.();
    return true;
  }

  close(): void {
    this.#closed = true;
    this.#wake?.();
  }
}

/** A FIFO with O(1) shift; values are boxed so that any T, undefined included, can travel. */
class BoundedQueue<T> {
  #items: { readonly item: T }[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push({ item });
  }

  shift(): { readonly item: T } | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const v = this.#items[this.#head++];
    // Compact once the consumed prefix dominates, keeping memory proportional to what is queued.
    if (this.#head > 64 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return v;
  }
}
