import { ServerResponse, type IncomingMessage } from 'node:http';
import { isStatusError, newInternalError } from '../../apimachinery/errors/index.js';
import { writeErrorStatus, type APIResponse, type ResponseStream } from '../../apimachinery/request/http.js';
import { MemoryBody } from './body.js';

/** What the handler answered: a whole body, or the start of a stream. */
export type LoopbackAnswer =
  | { readonly kind: 'whole'; readonly code: number; readonly contentType: string; readonly headers: ReadonlyMap<string, string | readonly string[]>; readonly body: Buffer }
  | { readonly kind: 'stream'; readonly code: number; readonly contentType: string; readonly headers: ReadonlyMap<string, string | readonly string[]>; readonly body: MemoryBody };

/**
 * The APIResponse of one loopback request: what node's response would put on the wire is kept
 * in memory instead, and `answer` resolves once the status line would have been sent (a whole
 * body, or the start of a stream). Warnings are collected for the client's warning handler.
 *
 * `raw` exists only because the type requires it: a ServerResponse attached to no socket, made
 * on first use. Handlers that write to it directly instead of through this object (the 304 of a
 * conditional discovery GET, which needs an If-None-Match this client never sends) are not seen.
 */
export class LoopbackResponse implements APIResponse {
  readonly answer: Promise<LoopbackAnswer>;
  private code = 0;
  private readonly headers = new Map<string, string | readonly string[]>();
  private readonly warningSet = new Set<string>();
  private settle!: (answer: LoopbackAnswer) => void;
  private streamBody: MemoryBody | undefined;
  private rawResponse: ServerResponse | undefined;

  constructor(private readonly request: () => IncomingMessage) {
    this.answer = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  get raw(): ServerResponse {
    return (this.rawResponse ??= new ServerResponse(this.request()));
  }

  get headersSent(): boolean {
    return this.code !== 0;
  }

  get statusCode(): number {
    return this.code;
  }

  /** The warnings the handler added before answering, in order. */
  get warnings(): readonly string[] {
    return [...this.warningSet];
  }

  setHeader(name: string, value: string | readonly string[]): void {
    if (!this.headersSent) this.headers.set(name.toLowerCase(), value);
  }

  addWarning(message: string): void {
    if (!this.headersSent) this.warningSet.add(message);
  }

  writeJSON(code: number, body: unknown, contentType = 'application/json'): void {
    this.writeBytes(code, JSON.stringify(body), contentType);
  }

  writeBytes(code: number, body: Buffer | string, contentType: string): void {
    if (this.headersSent) return;
    this.code = code;
    this.settle({ kind: 'whole', code, contentType, headers: this.headers, body: typeof body === 'string' ? Buffer.from(body) : body });
  }

  writeError(err: unknown): void {
    writeErrorStatus(this, err);
  }

  stream(contentType: string, code = 200): ResponseStream {
    if (this.headersSent) throw new Error(`loopback: a stream was started after the response was written (${this.code})`);
    this.code = code;
    const body = (this.streamBody = new MemoryBody());
    this.settle({ kind: 'stream', code, contentType, headers: this.headers, body });
    return body.writer;
  }

  /**
   * The handler returned: a stream it left open ends (as a response ends when ServeHTTP
   * returns); a handler that wrote nothing answers 500.
   */
  handlerDone(): void {
    if (this.streamBody !== undefined) this.streamBody.writer.end();
    else if (!this.headersSent) this.writeError(newInternalError(new Error('the handler returned without writing a response')));
  }

  /**
   * The handler rejected, as panic recovery sees it: before the answer, a StatusError is the
   * answer and anything else a 500 InternalError naming the failure (in-process, the message
   * helps the controller that made the call and leaks nothing); after a stream started, the
   * body breaks so the reader gets an error rather than a clean end (without the message, as
   * over HTTP).
   */
  handlerFailed(err: unknown): void {
    if (this.streamBody !== undefined) this.streamBody.fail();
    else if (!this.headersSent) this.writeError(isStatusError(err) ? err : newInternalError(err));
  }
}
