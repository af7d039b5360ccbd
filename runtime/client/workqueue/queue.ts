/**
 * The work queue of client-go's util/workqueue: a FIFO that hands each item
 * to one worker at a time. Items are compared as Set members (SameValueZero),
 * so use keys (`namespace/name` strings), not objects.
 *
 * - An item added while queued is not queued twice (the dirty set).
 * - An item added while a worker processes it is queued again only after
 *   that worker calls `done` (the processing set), so no two workers ever
 *   hold the same item.
 */
export type GetResult<T> = { readonly shutdown: false; readonly item: T } | { readonly shutdown: true };

export interface WorkQueue<T> {
  /** Marks the item as needing processing; ignored after shutdown. */
  add(item: T): void;
  /** Items waiting to be handed out (not counting those being processed). */
  len(): number;
  /**
   * Resolves with the next item, marking it as being processed, or with
   * `shutdown: true` once the queue is shut down and empty. Items still
   * queued at shutdown are handed out first.
   */
  get(): Promise<GetResult<T>>;
  /** Ends the processing of an item got from `get`; required for it to be queued again. */
  done(item: T): void;
  /** Stops accepting items and wakes every waiting `get`; does not wait for workers. */
  shutDown(): void;
  /** As shutDown, then resolves once every item being processed is done (or shutDown is called). */
  shutDownWithDrain(): Promise<void>;
  shuttingDown(): boolean;
}

export class Queue<T> implements WorkQueue<T> {
  #items: T[] = [];
  #head = 0;
  readonly #dirty = new Set<T>();
  readonly #processing = new Set<T>();
  #getters: ((r: GetResult<T>) => void)[] = [];
  #drainers: (() => void)[] = [];
  #shuttingDown = false;

  add(item: T): void {
    if (this.#shuttingDown || this.#dirty.has(item)) return;
    this.#dirty.add(item);
    if (this.#processing.has(item)) return;
    this.#push(item);
  }

  len(): number {
    return this.#items.length - this.#head;
  }

  get(): Promise<GetResult<T>> {
    if (this.len() > 0) return Promise.resolve({ shutdown: false, item: this.#take() });
    if (this.#shuttingDown) return Promise.resolve({ shutdown: true });
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  done(item: T): void {
    this.#processing.delete(item);
    if (this.#dirty.has(item)) this.#push(item);
    else if (this.#processing.size === 0) this.#wakeDrainers();
  }

  shutDown(): void {
    this.#shutDown();
    this.#wakeDrainers();
  }

  shutDownWithDrain(): Promise<void> {
    this.#shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainers.push(resolve));
  }

  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  #shutDown(): void {
    this.#shuttingDown = true;
    // A getter only waits while the queue is empty, so every one of them learns of the shutdown.
    const getters = this.#getters;
    this.#getters = [];
    for (const resolve of getters) resolve({ shutdown: true });
  }

  #push(item: T): void {
    const getter = this.#getters.shift();
    if (getter !== undefined) {
      this.#items.push(item);
      getter({ shutdown: false, item: this.#take() });
      return;
    }
    this.#items.push(item);
  }

  /** Moves the head item into processing; the caller knows the queue is not empty. */
  #take(): T {
    const item = this.#items[this.#head] as T;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    this.#processing.add(item);
    this.#dirty.delete(item);
    return item;
  }

  #wakeDrainers(): void {
    const drainers = this.#drainers;
    this.#drainers = [];
    for (const resolve of drainers) resolve();
  }
}
