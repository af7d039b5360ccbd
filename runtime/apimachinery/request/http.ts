import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { newRequestEntityTooLarge, toStatusError } from '../errors/index.js';
import type { RequestInfo, UserInfo } from './types.js';
import type { Authorizer } from './authorizer.js';
import { Cancellation } from './cancellation.js';

/**
 * The request and response every filter, server and handler of the chain works with: a thin
 * layer over node's IncomingMessage/ServerResponse (fastify hands them over untouched, so
 * handlers added while serving and streaming watches need nothing fastify-specific).
 */
export interface APIRequest {
  readonly raw: IncomingMessage;
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The path as sent, undecoded, without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /**
   * Aborted when the client goes away, the request times out or the server shuts down: the
   * AbortSignal view of `cancellation`, created on first use.
   */
  readonly signal: AbortSignal;
  readonly cancellation: Cancellation;
  /** When the server received the request (performance.now() milliseconds). */
  readonly receivedAt: number;
  /** Set by the RequestInfo filter; every later filter and handler may rely on it. */
  info: RequestInfo;
  /** Set by the authentication filter. */
  user: UserInfo | undefined;
  /**
   * Set by the authorization filter when it lets the request through: the authorizer that
   * allowed it, for the checks a handler derives from the request (a PUT or an apply that
   * creates needs `create` as well). Unset where no authorization filter ran (in-process
   * callers behind the filters).
   */
  authorizer?: Authorizer;
  /** Annotations recorded for the audit event (`authorization.k8s.io/decision`, …). */
  readonly auditAnnotations: Map<string, string>;
  /**
   * The whole body, read once and cached. Rejects with 413 RequestEntityTooLarge once more than
   * the server's limit (default 3 MiB) arrives, without buffering the rest.
   */
  readBody(): Promise<Buffer>;
}

/** A streaming body (watch): writes go straight to the socket, flushed. */
export interface ResponseStream {
  /** Resolves once the data is handed to the socket buffer, waiting for drain on backpressure. */
  write(chunk: Buffer | string): Promise<void>;
  end(): void;
  /** True once the client has gone or the stream ended. */
  readonly closed: boolean;
}

export interface APIResponse {
  readonly raw: ServerResponse;
  readonly headersSent: boolean;
  /** The status code written (0 before headers are sent). */
  readonly statusCode: number;
  setHeader(name: string, value: string | readonly string[]): void;
  /** Queues a `Warning: 299 - "<message>"` header; duplicates are dropped; ignored once headers are sent. */
  addWarning(message: string): void;
  /** Writes a complete JSON response (Content-Type application/json unless given). */
  writeJSON(code: number, body: unknown, contentType?: string): void;
  writeBytes(code: number, body: Buffer | string, contentType: string): void;
  /** Writes any error as its Status (see apimachinery/errors toStatusError). */
  writeError(err: unknown): void;
  /** Starts a chunked streaming response (200 unless given), flushing headers at once. */
  stream(contentType: string, code?: number): ResponseStream;
}

/** Handles a request completely, or hands it to a delegate it was built with. */
export type Handler = (req: APIRequest, res: APIResponse) => Promise<void>;

/** A step of the filter chain: does its work and calls next (or answers itself). */
export type Filter = (req: APIRequest, res: APIResponse, next: Handler) => Promise<void>;

/**
 * The connection a request came on, the same object for every request of it: `raw.socket` on
 * HTTP/1.1; on HTTP/2, where node gives each stream its own view of the socket, the session's
 * (one per connection). What per-connection state (a verified client certificate) is keyed by.
 */
export function connectionOf(raw: IncomingMessage): IncomingMessage['socket'] {
  if (raw.httpVersionMajor !== 2) return raw.socket;
  const session = (raw as unknown as { stream?: { session?: { socket?: IncomingMessage['socket'] } } }).stream?.session;
  return session?.socket ?? raw.socket;
}

/** Composes filters around a handler; the first filter runs first. */
export function withFilters(filters: readonly Filter[], handler: Handler): Handler {
  return filters.reduceRight<Handler>((next, filter) => (req, res) => filter(req, res, next), handler);
}

export const DEFAULT_MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

const NO_INFO: RequestInfo = Object.freeze({
  isResourceRequest: false,
  path: '',
  verb: '',
  apiPrefix: '',
  apiGroup: '',
  apiVersion: '',
  namespace: '',
  resource: '',
  subresource: '',
  name: '',
  parts: [],
});

export interface AdapterOptions {
  maxRequestBodyBytes?: number;
  /**
   * The request's cancellation, when the server tracks it (to abort every request on shutdown);
   * otherwise one is made. Either way it aborts when the response closes.
   */
  cancellation?: Cancellation;
}

const CLIENT_GONE = new Error('client disconnected');

/** Wraps node's request/response pair. The RequestInfo filter must run before anything reads `info`. */
export function adaptRequest(raw: IncomingMessage, response: ServerResponse, opts: AdapterOptions = {}): { req: APIRequest; res: APIResponse } {
  const url = raw.url ?? '/';
  const q = url.indexOf('?');
  const cancellation = opts.cancellation ?? new Cancellation();
  // After a normal end too, as Go cancels a request's context when ServeHTTP returns.
  response.once('close', () => cancellation.abort(CLIENT_GONE));
  const limit = opts.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
  let body: Promise<Buffer> | undefined;
  const req: APIRequest = {
    raw,
    method: (raw.method ?? 'GET').toUpperCase(),
    path: q < 0 ? url : url.slice(0, q),
    query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
    headers: raw.headers,
    get signal() {
      return cancellation.signal;
    },
    cancellation,
    receivedAt: performance.now(),
    info: NO_INFO,
    user: undefined,
    auditAnnotations: new Map(),
    readBody: () => (body ??= readLimited(raw, limit)),
  };
  return { req, res: new NodeResponse(response) };
}

/**
 * The same request under another cancellation (the timeout filter's deadline, a watch's
 * shutdown): every field is copied, so the result also survives a spread, except `signal`,
 * which stays lazy; `info` and `user` are forwarded to the original, so filters outside the
 * derivation (metrics, audit, panic recovery) see what filters and handlers inside it set.
 */
export function withCancellation(req: APIRequest, cancellation: Cancellation): APIRequest {
  return {
    raw: req.raw,
    method: req.method,
    path: req.path,
    query: req.query,
    headers: req.headers,
    get signal() {
      return cancellation.signal;
    },
    cancellation,
    receivedAt: req.receivedAt,
    get info() {
      return req.info;
    },
    set info(v) {
      req.info = v;
    },
    get user() {
      return req.user;
    },
    set user(v) {
      req.user = v;
    },
    auditAnnotations: req.auditAnnotations,
    readBody: req.readBody,
  };
}

/**
 * APIResponse.writeError for every implementation: any error as its Status, with Retry-After
 * wherever the Status asks for one, whatever its code (kube's ErrorNegotiated: a 500
 * ServerTimeout from unreachable storage carries `Retry-After: 2`).
 */
export function writeErrorStatus(res: Pick<APIResponse, 'setHeader' | 'writeJSON'>, err: unknown): void {
  const status = toStatusError(err).status;
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined && retry > 0) res.setHeader('Retry-After', String(retry));
  res.writeJSON(status.code, status);
}

function readLimited(raw: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    raw.resume();
    return Promise.reject(newRequestEntityTooLarge(`limit is ${limit}`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        raw.off('data', onData);
        raw.resume();
        reject(newRequestEntityTooLarge(`limit is ${limit}`));
        return;
      }
      chunks.push(chunk);
    };
    raw.on('data', onData);
    raw.once('end', () => resolve(Buffer.concat(chunks, size)));
    raw.once('error', reject);
  });
}

class NodeResponse implements APIResponse {
  private readonly warnings = new Set<string>();

  constructor(readonly raw: ServerResponse) {}

  get headersSent(): boolean {
    return this.raw.headersSent;
  }

  get statusCode(): number {
    return this.raw.headersSent ? this.raw.statusCode : 0;
  }

  setHeader(name: string, value: string | readonly string[]): void {
    if (!this.raw.headersSent) this.raw.setHeader(name, value as string | string[]);
  }

  addWarning(message: string): void {
    if (this.raw.headersSent) return;
    this.warnings.add(message);
  }

  private flushWarnings(): void {
    if (this.warnings.size === 0) return;
    this.raw.setHeader(
      'Warning',
      [...this.warnings].map((m) => `299 - ${JSON.stringify(m)}`),
    );
  }

  writeJSON(code: number, body: unknown, contentType = 'application/json'): void {
    this.writeBytes(code, JSON.stringify(body), contentType);
  }

  writeBytes(code: number, body: Buffer | string, contentType: string): void {
    if (this.raw.headersSent) {
      this.raw.end();
      return;
    }
    this.flushWarnings();
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    this.raw.writeHead(code, { 'Content-Type': contentType, 'Content-Length': bytes.length });
    this.raw.end(bytes);
  }

  writeError(err: unknown): void {
    writeErrorStatus(this, err);
  }

  stream(contentType: string, code = 200): ResponseStream {
    const raw = this.raw;
    this.flushWarnings();
    // No Content-Length: HTTP/1.1 frames the body in chunks and ends it with the terminating
    // chunk, HTTP/2 in DATA frames ending with END_STREAM (where a Transfer-Encoding header is
    // forbidden, RFC 9113 §8.2.2).
    raw.writeHead(code, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
    raw.flushHeaders();
    let ended = false;
    return {
      get closed() {
        return ended || raw.destroyed || raw.writableEnded;
      },
      write(chunk) {
        if (ended || raw.destroyed) return Promise.resolve();
        if (raw.write(chunk)) return Promise.resolve();
        return new Promise<void>((resolve) => {
          const done = (): void => {
            raw.off('drain', done);
            raw.off('close', done);
            resolve();
          };
          raw.once('drain', done);
          raw.once('close', done);
        });
      },
      end() {
        if (ended) return;
        ended = true;
        if (!raw.destroyed) raw.end();
      },
    };
  }
}
