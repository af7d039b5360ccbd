import type { ServerResponse } from 'node:http';
import { newBadRequest, newTimeoutError } from '../../apimachinery/errors/index.js';
import { Cancellation } from '../../apimachinery/request/cancellation.js';
import { withCancellation, type APIResponse, type Filter, type ResponseStream } from '../../apimachinery/request/http.js';
import { parseGoDuration } from '../../apimachinery/goduration.js';
import type { Logger } from './log.js';
import type { LongRunningRequestCheck } from './longrunning.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * kube's requestTimeoutUpperBound: the create, update, patch and delete handlers run their
 * storage work under a deadline of at most 34 s (the request's own when shorter).
 */
export const WRITE_TIMEOUT_UPPER_BOUND_MS = 34_000;

const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export interface RequestTimeoutOptions {
  /** The server's maximum (kube's --request-timeout); the `timeout` query can only shorten it. */
  requestTimeoutMs: number;
  longRunning: LongRunningRequestCheck;
  logger: Logger;
}

/**
 * WithRequestDeadline + WithTimeoutForNonLongRunningRequests. Long-running requests pass
 * untouched. Others get a deadline counted from when the request was received: the server's
 * maximum, or the `timeout` query parameter (Go duration syntax) when it is shorter and
 * positive; a malformed one is 400 BadRequest. At the deadline the handler's signal aborts and
 * the client gets 504 Timeout if nothing was written yet, or a cut connection if a response was
 * under way; whatever the handler writes afterwards is dropped.
 *
 * Writes to resources are also bounded by kube's 34 s write deadline and answered as kube's
 * finisher (rest.FinishRequest) answers them: `request did not complete within requested
 * timeout - context deadline exceeded` (kube's filter and finisher wake on the same deadline;
 * for a write the finisher's answer is the one clients see, always so beyond 34 s). A write
 * whose storage hangs (a stopped etcd) thus ends with kube's 504 at this deadline.
 */
export function withRequestTimeout(opts: RequestTimeoutOptions): Filter {
  return async (req, res, next) => {
    if (opts.longRunning(req.info)) return next(req, res);
    let timeoutMs = opts.requestTimeoutMs;
    const param = req.query.get('timeout');
    if (param !== null && param !== '') {
      let requested: number;
      try {
        requested = parseGoDuration(param);
      } catch (err) {
        res.writeError(newBadRequest(`invalid timeout specified in the request URL - ${(err as Error).message}`));
        return;
      }
      if (requested > 0 && requested < timeoutMs) timeoutMs = requested;
    }

    const write = req.info.isResourceRequest && WRITE_VERBS.has(req.info.verb);
    if (write) timeoutMs = Math.min(timeoutMs, WRITE_TIMEOUT_UPPER_BOUND_MS);

    const deadline = new Cancellation([req.cancellation]);
    const guarded = new TimeoutGuardedResponse(res);
    const timer = setTimeout(
      () => {
        const timeout = newTimeoutError(write ? 'request did not complete within requested timeout - context deadline exceeded' : 'request did not complete within the allotted timeout');
        guarded.expire();
        deadline.abort(timeout);
        work.catch((err: unknown) => opts.logger.error('post-timeout activity', { method: req.method, URI: req.raw.url, err }));
        if (!res.headersSent) res.writeError(timeout);
        else if (!res.raw.writableEnded) res.raw.destroy();
        expired();
      },
      Math.max(0, req.receivedAt + timeoutMs - performance.now()),
    );
    let expired!: () => void;
    // The filter returns when the handler does or when the deadline passes, whichever is first;
    // a handler still running after the deadline writes into the guarded (dropping) response.
    const deadlinePassed = new Promise<void>((resolve) => {
      expired = resolve;
    });
    const work = next(withCancellation(req, deadline), guarded);
    try {
      await Promise.race([work, deadlinePassed]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The handler's view of the response: writes go through until the deadline, and are dropped after it. */
class TimeoutGuardedResponse implements APIResponse {
  private expired = false;

  constructor(private readonly inner: APIResponse) {}

  expire(): void {
    this.expired = true;
  }

  get raw(): ServerResponse {
    return this.inner.raw;
  }

  get headersSent(): boolean {
    return this.inner.headersSent;
  }

  get statusCode(): number {
    return this.inner.statusCode;
  }

  setHeader(name: string, value: string | readonly string[]): void {
    if (!this.expired) this.inner.setHeader(name, value);
  }

  addWarning(message: string): void {
    if (!this.expired) this.inner.addWarning(message);
  }

  writeJSON(code: number, body: unknown, contentType?: string): void {
    if (!this.expired) this.inner.writeJSON(code, body, contentType);
  }

  writeBytes(code: number, body: Buffer | string, contentType: string): void {
    if (!this.expired) this.inner.writeBytes(code, body, contentType);
  }

  writeError(err: unknown): void {
    if (!this.expired) this.inner.writeError(err);
  }

  stream(contentType: string, code?: number): ResponseStream {
    if (this.expired) return CLOSED_STREAM;
    const stream = this.inner.stream(contentType, code);
    const isExpired = (): boolean => this.expired;
    return {
      get closed() {
        return isExpired() || stream.closed;
      },
      write: (chunk) => (this.expired ? Promise.resolve() : stream.write(chunk)),
      end: () => {
        if (!this.expired) stream.end();
      },
    };
  }
}

const CLOSED_STREAM: ResponseStream = { closed: true, write: () => Promise.resolve(), end: () => {} };
