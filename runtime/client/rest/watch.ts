import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { Watch, WatchEvent } from '../types.js';
import { decodeWatchEvent, DecodeError } from './decode.js';
import { TransportError } from './errors.js';

/**
 * The body of a watch response: node's IncomingMessage over HTTP, an in-memory stream over
 * loopback. `complete` says the server ended the body itself (a clean end, not a broken one).
 */
export type WatchBody = AsyncIterable<unknown> & Pick<IncomingMessage, 'complete'>;

/**
 * The events of one watch response, read from its newline-delimited JSON stream.
 *
 * How the iteration ends tells the consumer what happened:
 * - it completes normally when the server closed the stream cleanly (timeoutSeconds passed,
 *   the server shut the watch down), after stop(), or when the caller's signal aborted; the
 *   consumer re-watches from the last resourceVersion it saw;
 * - it throws when the stream broke: a TransportError when the connection reset or closed
 *   inside the chunked body, a DecodeError when a line is not a watch event (the partial event
 *   at a broken end included). Nothing is dropped silently.
 * ERROR events (a 410 Expired, say) are events, not exceptions: they carry the server's Status.
 */
export class StreamWatch<T> implements Watch<T> {
  private readonly events: AsyncGenerator<WatchEvent<T>>;
  private ended = false;

  /**
   * `signal` aborts when stop() is called or the caller's own signal aborts; both end the
   * iteration cleanly. `end` aborts the request and releases what it holds.
   */
  constructor(
    private readonly res: WatchBody,
    private readonly signal: AbortSignal,
    private readonly end: () => void,
    private readonly where: string,
  ) {
    this.events = this.read();
  }

  /** Ends the iteration (cleanly) and the request; idempotent. */
  stop(): void {
    if (this.ended) return;
    this.ended = true;
    this.end();
  }

  private get stopped(): boolean {
    return this.ended || this.signal.aborted;
  }

  [Symbol.asyncIterator](): AsyncGenerator<WatchEvent<T>> {
    return this.events;
  }

  private async *read(): AsyncGenerator<WatchEvent<T>> {
    const text = new StringDecoder('utf8');
    let pending = '';
    let line = 0;
    try {
      for await (const chunk of this.res) {
        const buffered = pending + text.write(chunk as Buffer);
        let start = 0;
        let nl: number;
        while ((nl = buffered.indexOf('\n', start)) >= 0) {
          const raw = buffered.slice(start, nl);
          start = nl + 1;
          line++;
          if (raw.trim() === '') continue;
          yield decodeWatchEvent<T>(raw, `${this.where} (event ${line})`);
          if (this.stopped) return;
        }
        pending = buffered.slice(start);
      }
      if (this.stopped) return;
      if (!this.res.complete) throw new TransportError(`${this.where}: the watch stream broke: the connection closed inside the response`, 'ERR_STREAM_PREMATURE_CLOSE');
      pending += text.end();
      if (pending.trim() !== '') {
        yield decodeWatchEvent<T>(pending, `${this.where} (event ${line + 1})`);
      }
    } catch (e) {
      if (this.stopped) return;
      if (e instanceof DecodeError || e instanceof TransportError) throw e;
      const code = (e as { code?: unknown }).code;
      throw new TransportError(`${this.where}: the watch stream broke: ${(e as Error).message}`, typeof code === 'string' ? code : undefined, { cause: e });
    } finally {
      // A consumer that breaks out of its loop ends the request too.
      this.stop();
    }
  }
}
