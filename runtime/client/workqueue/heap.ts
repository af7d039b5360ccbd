/** An entry of the waiting heap; `index` is the heap's bookkeeping. */
export interface WaitingEntry<T> {
  readonly item: T;
  readyAt: number;
  /** Insertion order: entries ready at the same time leave in the order they came. */
  readonly seq: number;
  index: number;
}

function before<T>(a: WaitingEntry<T>, b: WaitingEntry<T>): boolean {
  return a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq);
}

/** A binary min-heap of entries by readyAt, with `fix` for entries whose time moved earlier. */
export class WaitingHeap<T> {
  readonly #entries: WaitingEntry<T>[] = [];

  get size(): number {
    return this.#entries.length;
  }

  peek(): WaitingEntry<T> | undefined {
    return this.#entries[0];
  }

  push(entry: WaitingEntry<T>): void {
    entry.index = this.#entries.length;
    this.#entries.push(entry);
    this.#up(entry.index);
  }

  pop(): WaitingEntry<T> | undefined {
    const top = this.#entries[0];
    const last = this.#entries.pop();
    if (top === undefined || last === undefined) return undefined;
    if (last !== top) {
      this.#entries[0] = last;
      last.index = 0;
      this.#down(0);
    }
    return top;
  }

  /** Restores the order after `entry.readyAt` decreased. */
  fix(entry: WaitingEntry<T>): void {
    this.#up(entry.index);
  }

  clear(): void {
    this.#entries.length = 0;
  }

  #up(i: number): void {
    const e = this.#entries;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(e[i] as WaitingEntry<T>, e[parent] as WaitingEntry<T>)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #down(i: number): void {
    const e = this.#entries;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < e.length && before(e[l] as WaitingEntry<T>, e[min] as WaitingEntry<T>)) min = l;
      if (r < e.length && before(e[r] as WaitingEntry<T>, e[min] as WaitingEntry<T>)) min = r;
      if (min === i) return;
      this.#swap(i, min);
      i = min;
    }
  }

  #swap(i: number, j: number): void {
    const e = this.#entries;
    const a = e[i] as WaitingEntry<T>;
    const b = e[j] as WaitingEntry<T>;
    e[i] = b;
    e[j] = a;
    a.index = j;
    b.index = i;
  }
}
