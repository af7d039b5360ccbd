import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { StatusError } from '../../apimachinery/errors/index.js';
import type { RESTClient, RESTRequest, Watch } from '../types.js';
import { newAuthorizer, type AttemptCredentials, type Authorizer } from './auth.js';
import { completeRESTConfig, type CompletedRESTConfig, type RESTConfig } from './config.js';
import { decodeBody, DecodeError } from './decode.js';
import { isRecord, statusErrorFromResponse, TransportError } from './errors.js';
import { retryAfterAnswer, retryAfterFailure, retryAfterSeconds } from './retry.js';
import { readBody, Transport } from './transport.js';
import { defaultUserAgent } from './user-agent.js';
import { parseWarningHeaders, warningLogger, type WarningHandler } from './warnings.js';
import { StreamWatch } from './watch.js';

type WatchRequest = Omit<RESTRequest, 'method' | 'body' | 'contentType' | 'accept'>;

/** What one call sends, fixed before the first attempt so every retry sends the same bytes. */
interface Call {
  readonly method: RESTRequest['method'];
  readonly url: URL;
  readonly body: Buffer | undefined;
  readonly contentType: string | undefined;
  readonly accept?: string;
  readonly signal: AbortSignal;
  /** Says why `signal` aborted: the caller's own signal, or the client's deadline. */
  readonly deadline: Deadline;
}

/**
 * The RESTClient over HTTP(S) (client-go's rest.RESTClient): JSON in and out, typed errors for
 * every non-2xx answer, retries only where they are safe (./retry.ts), watches as async
 * iterators. Built from a completed configuration: restClientForConfig(config).
 */
export class HTTPRESTClient implements RESTClient {
  private readonly transport: Transport;
  private readonly auth: Authorizer;
  private readonly warn: WarningHandler;

  constructor(readonly config: CompletedRESTConfig) {
    this.transport = new Transport(config);
    this.auth = newAuthorizer(config.auth, config);
    this.warn = config.warningHandler ?? warningLogger();
  }

  async request<R>(req: RESTRequest): Promise<R> {
    const timeoutMs = this.config.timeoutMs;
    const deadline = new Deadline(req.signal, timeoutMs);
    const query = timeoutMs === undefined ? req.query : { ...req.query, timeout: goDuration(timeoutMs) };
    const call: Call = {
      method: req.method,
      url: this.url(req.path, query),
      body: encodeBody(req.body),
      contentType: req.body === undefined ? undefined : (req.contentType ?? 'application/json'),
      ...(req.accept === undefined ? {} : { accept: req.accept }),
      signal: deadline.signal,
      deadline,
    };
    try {
      const { res, body } = await this.exchange(call, true);
      return decodeSuccess<R>({ method: call.method, path: call.url.pathname, contentType: res.headers['content-type'], body });
    } finally {
      deadline.dispose();
    }
  }

  async watch<T>(req: WatchRequest): Promise<Watch<T>> {
    const stop = new AbortController();
    const deadline = new Deadline(req.signal, undefined, stop.signal);
    const call: Call = { method: 'GET', url: this.url(req.path, req.query), body: undefined, contentType: undefined, signal: deadline.signal, deadline };
    try {
      const { res } = await this.exchange(call, false);
      const contentType = res.headers['content-type'];
      if (contentType !== undefined && !isJSON(contentType)) {
        res.destroy();
        throw new DecodeError(`watch ${call.url.pathname}: expected a JSON stream, got Content-Type ${contentType}`);
      }
      // The stream outlives this call: the caller's signal and stop() keep ending it through `deadline`.
      const end = (): void => {
        stop.abort();
        deadline.dispose();
      };
      return new StreamWatch<T>(res, deadline.signal, end, `watch ${call.url.pathname}`);
    } catch (e) {
      deadline.dispose();
      throw e;
    }
  }

  /** Closes idle connections; in-flight requests and open watches are not interrupted. */
  close(): void {
    this.transport.close();
  }

  private url(path: string, query: RESTRequest['query']): URL {
    const url = new URL(this.config.baseURL.href);
    url.pathname = url.pathname.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined) url.searchParams.append(k, String(v));
    }
    return url;
  }

  /**
   * Sends the call until it gets a final answer. A 2xx answer is returned (with its body read
   * when `readWhole`); any other final answer rejects with its StatusError, a failure with a
   * TransportError, an abort by the caller with the caller's reason.
   */
  private async exchange(call: Call, readWhole: boolean): Promise<{ res: IncomingMessage; body?: Buffer }> {
    const { maxRetries, backoff, clock } = this.config;
    let previous = '';
    for (let attempt = 1; ; attempt++) {
      let res: IncomingMessage;
      let body: Buffer | undefined;
      let creds: AttemptCredentials;
      try {
        creds = await this.auth.credentials(call.signal);
        res = await this.transport.send({ method: call.method, url: call.url, headers: this.headers(call, creds), body: call.body, signal: call.signal, cert: creds.cert });
        this.handleWarnings(res);
        const ok = isSuccess(res.statusCode);
        if (ok && !readWhole) return { res };
        body = await readBody(res);
        if (ok) return { res, body };
      } catch (e) {
        const failure = this.failure(call, e);
        const code = failure instanceof TransportError && !call.signal.aborted ? failure.code : undefined;
        const wait = retryAfterFailure(call.method, code, attempt, maxRetries, backoff);
        if (wait === undefined) throw withPrevious(failure, previous);
        previous = (e as Error).message;
        await this.sleep(call, wait, clock);
        continue;
      }
      if (res.statusCode === 401) this.auth.unauthorized(creds);
      const retryAfter = retryAfterSeconds(res.headers['retry-after']);
      const err = statusErrorFromResponse({ method: call.method, statusCode: res.statusCode ?? 0, contentType: res.headers['content-type'], retryAfterSeconds: retryAfter, body });
      const wait = retryAfterAnswer(res.statusCode ?? 0, retryAfter, attempt, maxRetries);
      if (wait === undefined) throw err;
      previous = err.message;
      await this.sleep(call, wait, clock);
    }
  }

  private headers(call: Call, creds: AttemptCredentials): OutgoingHttpHeaders {
    const h: OutgoingHttpHeaders = { Accept: call.accept ?? 'application/json', 'User-Agent': this.config.userAgent };
    if (call.body !== undefined) {
      h['Content-Type'] = call.contentType ?? 'application/json';
      h['Content-Length'] = call.body.length;
    }
    if (creds.authorization !== undefined) h['Authorization'] = creds.authorization;
    return h;
  }

  private handleWarnings(res: IncomingMessage): void {
    const values = res.headersDistinct['warning'];
    if (values === undefined) return;
    for (const w of parseWarningHeaders(values)) this.warn(w);
  }

  /** What a thrown transport error means for the caller; the caller's own abort passes through as is. */
  private failure(call: Call, e: unknown): Error {
    if (call.deadline.callerAborted()) return call.deadline.callerReason();
    const where = `${call.method} ${call.url.href}`;
    if (call.deadline.timedOut()) return new TransportError(`${where}: no answer within ${call.deadline.timeoutMs} ms`, 'ETIMEDOUT', { cause: e });
    if (e instanceof StatusError || e instanceof TransportError || e instanceof DecodeError) return e;
    const code = (e as { code?: unknown }).code;
    return new TransportError(`${where}: ${(e as Error).message}`, typeof code === 'string' ? code : undefined, { cause: e });
  }

  private async sleep(call: Call, ms: number, clock: CompletedRESTConfig['clock']): Promise<void> {
    try {
      await clock.sleep(ms, call.signal);
    } catch (e) {
      throw this.failure(call, e);
    }
  }
}

/** A final transport failure names the previous attempt's failure when it differed (client-go's WrapPreviousError). */
function withPrevious(failure: Error, previous: string): Error {
  if (!(failure instanceof TransportError) || previous === '' || failure.message.endsWith(previous)) return failure;
  return new TransportError(`${failure.message} - error from a previous attempt: ${previous}`, failure.code, { cause: failure.cause });
}

/** Builds the HTTP client of one configuration (rest.RESTClientFor). */
export function restClientForConfig(config: RESTConfig): HTTPRESTClient {
  return new HTTPRESTClient(completeRESTConfig(config, defaultUserAgent()));
}

/**
 * The signal of one call: the caller's signal, the client's deadline and (for watches) stop(),
 * joined without AbortSignal.any so that long-lived caller signals do not collect listeners.
 */
class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private expired = false;
  private readonly onCallerAbort = (): void => this.controller.abort(this.caller?.reason);
  private readonly onStop = (): void => this.controller.abort();

  constructor(
    private readonly caller: AbortSignal | undefined,
    readonly timeoutMs: number | undefined,
    private readonly stop?: AbortSignal,
  ) {
    if (caller?.aborted) this.controller.abort(caller.reason);
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    stop?.addEventListener('abort', this.onStop, { once: true });
    if (timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.expired = true;
        this.controller.abort();
      }, timeoutMs);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  callerAborted(): boolean {
    return this.caller?.aborted === true;
  }

  callerReason(): Error {
    const r: unknown = this.caller?.reason;
    return r instanceof Error ? r : new DOMException('This operation was aborted', 'AbortError');
  }

  timedOut(): boolean {
    return this.expired;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
    this.stop?.removeEventListener('abort', this.onStop);
  }
}

function isSuccess(code: number | undefined): boolean {
  return code !== undefined && code >= 200 && code <= 206;
}

/**
 * The object of a 2xx answer (undefined for an empty body). A body that is not JSON is a
 * DecodeError; a failure Status (some proxies answer errors with 200) rejects as its
 * StatusError. Shared by every transport, so HTTP and loopback answers decode alike.
 */
export function decodeSuccess<R>(a: { method: string; path: string; contentType: string | undefined; body: Buffer | undefined }): R {
  if (a.body === undefined || a.body.length === 0) return undefined as R;
  const where = `${a.method} ${a.path}`;
  if (a.contentType !== undefined && !isJSON(a.contentType)) throw new DecodeError(`${where}: expected a JSON body, got Content-Type ${a.contentType}`);
  const obj = decodeBody<R>(a.body, where);
  if (isRecord(obj) && obj['kind'] === 'Status' && obj['status'] === 'Failure') {
    throw statusErrorFromResponse({ method: a.method, statusCode: typeof obj['code'] === 'number' ? obj['code'] : 500, contentType: a.contentType, retryAfterSeconds: undefined, body: a.body });
  }
  return obj;
}

/** Whether a Content-Type is JSON or a +json type. */
export function isJSON(contentType: string): boolean {
  return /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType);
}

/** Pre-encoded bodies (a YAML string, bytes) go as they are; everything else as JSON, valid YAML too. */
export function encodeBody(body: unknown): Buffer | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/** The `timeout` query parameter in Go's duration syntax, as client-go sends it. */
function goDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${Math.round(ms)}ms`;
}
