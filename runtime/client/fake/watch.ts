import type { Watch, WatchEvent } from '../types.js';

/**
 * An in-memory watch stream: the tracker pushes events, one consumer
 * iterates them. Events queue up without bound (a test reads them at its own
 * pace). `stop()` (or `break` out of the loop) ends the iteration and calls
 * `onStop` once, which unsubscribes the stream from the tracker.
 */
export class WatchChannel<T> implements Watch<T> {
  readonly #events: WatchEvent<T>[] = [];
  #waiter: ((r: IteratorResult<WatchEvent<T>>) => void) | undefined;
  #ended = false;
  #onStop: (() => void) | undefined;

  constructor(onStop?: () => void) {
    this.#onStop = onStop;
  }

  /** Queues an event; ignored once the stream has ended. */
  push(event: WatchEvent<T>): void {
    if (this.#ended) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ done: false, value: event });
    } else {
      this.#events.push(event);
    }
  }

  /** Ends the stream after the queued events, as a server closing the response (timeout, ERROR). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#release();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.({ done: true, value: undefined });
  }

  stop(): void {
    this.#events.length = 0;
    this.end();
  }

  /** Whether the stream has ended (stopped by the consumer or closed by the tracker). */
  get ended(): boolean {
    return this.#ended;
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return {
      next: () => {
        const event = this.#events.shift();
        if (event !== undefined) return Promise.resolve({ done: false, value: event });
        if (this.#ended) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve) => {
          this.#waiter = resolve;
        });
      },
      return: () => {
        this.stop();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  #release(): void {
    const onStop = this.#onStop;
    this.#onStop = undefined;
    onStop?.();
  }
}
