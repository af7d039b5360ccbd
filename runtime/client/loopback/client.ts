import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../../apimachinery/request/types.js';
import { Cancellation } from '../../apimachinery/request/cancellation.js';
import { DEFAULT_MAX_REQUEST_BODY_BYTES, type Handler } from '../../apimachinery/request/http.js';
import { decodeSuccess, DecodeError, defaultUserAgent, encodeBody, isJSON, retryAfterSeconds, statusErrorFromResponse, StreamWatch, warningLogger, type WarningHandler } from '../rest/index.js';
import type { RESTClient, RESTRequest, Watch } from '../types.js';
import { MemoryBody } from './body.js';
import { newLoopbackRequest } from './request.js';
import { LoopbackResponse, type LoopbackAnswer } from './response.js';

export interface LoopbackClientOptions {
  /**
   * Where requests go: a server's handler behind its filters (GenericAPIServer.handler). The
   * head's reaches every server of the chain, as kube's loopback connection does.
   */
  readonly handler: Handler;
  /** Who every request is from (system:apiserver for the control plane's own controllers). */
  readonly user: UserInfo;
  /** Default: warningLogger(), as the HTTP client. */
  readonly warningHandler?: WarningHandler;
  readonly userAgent?: string;
  /** The server's request body limit (413 beyond); default 3 MiB, as over HTTP. */
  readonly maxRequestBodyBytes?: number;
}

type WatchRequest = Omit<RESTRequest, 'method' | 'body' | 'contentType' | 'accept'>;

/** One request in flight: its answer, and the cancellation the handler sees. */
interface Exchange {
  readonly answer: Promise<LoopbackAnswer>;
  readonly cancellation: Cancellation;
  /** Stops following the caller's signal (the request is over for the caller). */
  release(): void;
}

/** Why a request's handler sees its signal abort once the caller is done with it. */
const REQUEST_DONE = new Error('loopback request finished');
const WATCH_STOPPED = new Error('loopback watch stopped');

/**
 * The RESTClient in process (client-go's loopback client): requests go straight into a
 * server's handler as in-memory request and response objects, with no socket, TLS or HTTP
 * parsing in between, and come back through the same decoding as HTTP answers: JSON bodies
 * decoded by decodeSuccess, non-2xx answers as the StatusError statusErrorFromResponse makes,
 * watch streams read by StreamWatch. Bodies are still encoded to JSON and decoded again, so a
 * caller never shares objects with the server's caches.
 *
 * Requests enter behind the filters (authentication, authorization, timeouts and in-flight
 * limits are for network clients; kube's loopback user is a system:masters member that every
 * filter lets through): the user is given, the RequestInfo resolved here. There are no retries
 * (nothing between client and handler can fail transiently) and no client-side timeout: the
 * caller's signal cancels, and the handler sees it as the request's signal.
 */
export class LoopbackRESTClient implements RESTClient {
  private readonly warn: WarningHandler;
  private readonly userAgent: string;
  private readonly maxRequestBodyBytes: number;

  constructor(readonly options: LoopbackClientOptions) {
    this.warn = options.warningHandler ?? warningLogger();
    this.userAgent = options.userAgent ?? defaultUserAgent();
    this.maxRequestBodyBytes = options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
  }

  async request<R>(req: RESTRequest): Promise<R> {
    const body = encodeBody(req.body);
    const contentType = body === undefined ? undefined : (req.contentType ?? 'application/json');
    const exchange = this.send(req.method, req.path, req.query, body, contentType, req.signal, req.accept);
    try {
      const answer = await untilAborted(exchange.answer, req.signal);
      const bytes = answer.kind === 'whole' ? answer.body : await readAll(answer.body, req.signal);
      const path = exchange.path;
      if (!isSuccess(answer.code)) throw errorOf(req.method, answer, bytes);
      return decodeSuccess<R>({ method: req.method, path, contentType: answer.contentType, body: bytes });
    } finally {
      exchange.release();
      // As Go cancels a request's context when ServeHTTP returns: whatever the handler left running stops.
      exchange.cancellation.abort(REQUEST_DONE);
    }
  }

  async watch<T>(req: WatchRequest): Promise<Watch<T>> {
    const exchange = this.send('GET', req.path, req.query, undefined, undefined, req.signal);
    let answer: LoopbackAnswer;
    try {
      answer = await untilAborted(exchange.answer, req.signal);
      if (!isSuccess(answer.code)) {
        throw errorOf('GET', answer, answer.kind === 'whole' ? answer.body : await readAll(answer.body, req.signal));
      }
      if (!isJSON(answer.contentType)) throw new DecodeError(`watch ${exchange.path}: expected a JSON stream, got Content-Type ${answer.contentType}`);
    } catch (e) {
      exchange.release();
      exchange.cancellation.abort(REQUEST_DONE);
      throw e;
    }
    // The handler ending the stream (timeoutSeconds, shutdown) ends the iteration cleanly; stop()
    // and the caller's signal end it through the cancellation the handler watches.
    const end = (): void => {
      exchange.release();
      exchange.cancellation.abort(WATCH_STOPPED);
    };
    const body = answer.kind === 'stream' ? answer.body : wholeBody(answer.body);
    return new StreamWatch<T>(body, exchange.cancellation.signal, end, `watch ${exchange.path}`);
  }

  private send(
    method: RESTRequest['method'],
    path: string,
    query: RESTRequest['query'],
    body: Buffer | undefined,
    contentType: string | undefined,
    signal: AbortSignal | undefined,
    accept = 'application/json',
  ): Exchange & { readonly path: string } {
    const url = new URL(path.startsWith('/') ? path : `/${path}`, 'http://loopback');
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.append(k, String(v));
    const headers: IncomingHttpHeaders = { accept, 'user-agent': this.userAgent };
    if (body !== undefined) {
      headers['content-type'] = contentType ?? 'application/json';
      headers['content-length'] = String(body.length);
    }
    const cancellation = new Cancellation();
    const onAbort = (): void => cancellation.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const request = newLoopbackRequest({
      method,
      path: url.pathname,
      query: url.searchParams,
      headers,
      body,
      user: this.options.user,
      cancellation,
      maxRequestBodyBytes: this.maxRequestBodyBytes,
    });
    const response = new LoopbackResponse(() => request.raw);
    // The handler may well finish after the caller has its answer (a watch, a slow cleanup).
    let handled: Promise<void>;
    try {
      handled = this.options.handler(request, response);
    } catch (err) {
      handled = Promise.reject(err);
    }
    handled.then(
      () => response.handlerDone(),
      (err: unknown) => response.handlerFailed(err),
    );
    const answer = response.answer.then((a) => {
      for (const text of response.warnings) this.warn({ code: 299, agent: '-', text });
      return a;
    });
    return { answer, cancellation, path: url.pathname, release: () => signal?.removeEventListener('abort', onAbort) };
  }
}

function errorOf(method: string, answer: LoopbackAnswer, body: Buffer): Error {
  const retry = answer.headers.get('retry-after');
  return statusErrorFromResponse({
    method,
    statusCode: answer.code,
    contentType: answer.contentType,
    body,
    retryAfterSeconds: retryAfterSeconds(typeof retry === 'string' || retry === undefined ? retry : [...retry]),
  });
}

function isSuccess(code: number): boolean {
  return code >= 200 && code <= 206;
}

/** Resolves with `p`, or rejects with the caller's reason once `signal` aborts (as the HTTP client does). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return p;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new DOMException('This operation was aborted', 'AbortError');
}

async function readAll(body: MemoryBody, signal: AbortSignal | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const read = (async () => {
    for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks);
  })();
  return untilAborted(read, signal);
}

/** A whole answer to a watch request read as a stream that has already ended. */
function wholeBody(bytes: Buffer): MemoryBody {
  const body = new MemoryBody();
  void body.writer.write(bytes);
  body.writer.end();
  return body;
}
