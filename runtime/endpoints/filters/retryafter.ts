import type { APIRequest, Filter } from '../../apimachinery/request/http.js';

/** Health probes and metrics scraping are served to the end of a shutdown. */
const EXEMPT_PATH_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];

/**
 * Whether a request is served even once the server no longer accepts new ones (kube's
 * isRequestExemptFromRetryAfter): the probe and metrics paths, and the server's own loopback
 * client (its user agent, since authentication has not run yet). The retry-after filter and the
 * wait group must exempt exactly the same requests, or the drain could wait on one forever.
 */
export function isRequestExemptFromRetryAfter(req: Pick<APIRequest, 'path' | 'headers'>): boolean {
  const userAgent = req.headers['user-agent'];
  if (typeof userAgent === 'string' && userAgent.startsWith('kube-apiserver/')) return true;
  return EXEMPT_PATH_PREFIXES.some((p) => req.path.startsWith(p));
}

/** kube's message for requests refused during a shutdown with --shutdown-send-retry-after. */
export const SHUTDOWN_RETRY_AFTER_MESSAGE = 'The apiserver is shutting down, please try again later.';

/**
 * The lifecycle event the filter reads (the server's LifecycleSignal is one): whether it happened.
 * Declared here, as kube's filter takes a channel, so the filters need nothing of the server.
 */
export interface ShutdownEvent {
  readonly signaled: boolean;
}

/**
 * WithRetryAfter (--shutdown-send-retry-after): once the server stops accepting new requests,
 * every new one, on a new or a kept-alive connection, is answered 429 with `Retry-After: 5` and,
 * on HTTP/1.1, `Connection: close`, so the client retries elsewhere (or here, after a restart)
 * on a new connection; the listener stays open until the requests in flight are drained. The
 * body is kube's: net/http's http.Error, plain text, not a Status.
 */
export function withRetryAfter(notAcceptingNewRequest: ShutdownEvent): Filter {
  return async (req, res, next) => {
    if (!notAcceptingNewRequest.signaled || isRequestExemptFromRetryAfter(req)) return next(req, res);
    // HTTP/2 has no Connection header (RFC 9113 §8.2.2): there the server's GOAWAY ends the connection.
    if (req.raw.httpVersionMajor === 1) res.setHeader('Connection', 'close');
    res.setHeader('Retry-After', '5');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.writeBytes(429, `${SHUTDOWN_RETRY_AFTER_MESSAGE}\n`, 'text/plain; charset=utf-8');
  };
}
