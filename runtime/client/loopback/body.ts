import { Readable } from 'node:stream';
import type { ResponseStream } from '../../apimachinery/request/http.js';
import type { WatchBody } from '../rest/index.js';

/**
 * The body of a streamed loopback answer (a watch): what the handler writes to its
 * ResponseStream is read by the client as it would read a chunked HTTP body, with the same
 * backpressure (a write resolves once the reader has room) and the same ending semantics:
 * `complete` once the handler ended the stream itself, an error when it failed mid-stream.
 */
export class MemoryBody extends Readable implements WatchBody {
  complete = false;
  private ended = false;
  /** Resolves the write waiting for the reader to want more. */
  private resumeWriter: (() => void) | undefined;

  /** The handler's side. */
  readonly writer: ResponseStream;

  constructor() {
    super();
    const isClosed = (): boolean => this.ended || this.destroyed;
    this.writer = {
      write: (chunk) => this.send(chunk),
      end: () => this.finish(),
      get closed() {
        return isClosed();
      },
    };
  }

  override _read(): void {
    this.wake();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.wake();
    callback(err);
  }

  /**
   * Breaks the body: the reader gets what was written, then an end without `complete`, which
   * it reports as a connection closed inside the response, as when panic recovery cuts an
   * HTTP connection mid-stream.
   */
  fail(): void {
    if (this.ended || this.destroyed) return;
    this.ended = true;
    this.push(null);
    this.wake();
  }

  private send(chunk: Buffer | string): Promise<void> {
    if (this.ended || this.destroyed) return Promise.resolve();
    if (this.push(chunk)) return Promise.resolve();
    return new Promise((resolve) => {
      this.resumeWriter = resolve;
    });
  }

  private finish(): void {
    if (this.ended || this.destroyed) return;
    this.ended = true;
    this.complete = true;
    this.push(null);
    this.wake();
  }

  private wake(): void {
    const resume = this.resumeWriter;
    this.resumeWriter = undefined;
    resume?.();
  }
}
