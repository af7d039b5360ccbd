import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../apimachinery/request/types.js';
import { messageOf } from './errors.js';
import { AGGREGATOR_USER, authProxyHeaders } from './proxy-headers.js';
import type { ResolvedEndpoint } from './service-resolver.js';
import type { BackendTransport } from './transport.js';

/** A request the aggregator itself sends to an aggregated server (discovery, OpenAPI, availability checks). */
export interface BackendRequest {
  /** Path and query on the backend, e.g. `/apis` or `/openapi/v3`. */
  readonly path: string;
  readonly method?: 'GET' | 'HEAD';
  /** Accept, If-None-Match, …; the user headers are added. */
  readonly headers?: OutgoingHttpHeaders;
  /** Who the backend is told the request is from; default system:kube-aggregator in system:masters. */
  readonly user?: UserInfo;
  readonly signal?: AbortSignal;
  /** The whole exchange, connecting included; default 5 s (kube's discovery client timeout). */
  readonly timeoutMs?: number;
}

/** A whole answer of a backend, whatever its status. */
export interface BackendResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export const DEFAULT_BACKEND_REQUEST_TIMEOUT_MS = 5_000;

/** Why an exchange with a backend produced no answer; the message as Go's http client words it: `Get "<url>": <cause>`. */
export class BackendRequestError extends Error {
  override readonly name = 'BackendRequestError';
  constructor(
    readonly url: string,
    method: string,
    readonly causeMessage: string,
  ) {
    super(`${method.charAt(0)}${method.slice(1).toLowerCase()} "${url}": ${causeMessage}`);
  }
}

/** `https://<host>:<port><path>` of an endpoint, IPv6 hosts bracketed. */
export function endpointURL(endpoint: ResolvedEndpoint, path: string): string {
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  return `https://${host}:${endpoint.port}${path}`;
}

/**
 * Sends one request over an APIService's transport (front-proxy certificate, the backend's
 * TLS verification) and reads the whole answer. Resolves for any status; rejects with
 * BackendRequestError when there is no answer in time.
 */
export function requestBackend(transport: BackendTransport, endpoint: ResolvedEndpoint, r: BackendRequest): Promise<BackendResponse> {
  const method = r.method ?? 'GET';
  const url = endpointURL(endpoint, r.path);
  if (transport.buildError !== undefined) return Promise.reject(new BackendRequestError(url, method, transport.buildError.message));
  const timeout = AbortSignal.timeout(r.timeoutMs ?? DEFAULT_BACKEND_REQUEST_TIMEOUT_MS);
  const signal = r.signal === undefined ? timeout : AbortSignal.any([r.signal, timeout]);
  return new Promise((resolve, reject) => {
    const fail = (err: unknown): void => {
      const cause = timeout.aborted ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)' : messageOf(err);
      reject(new BackendRequestError(url, method, cause));
    };
    const req = transport.request(endpoint, { method, path: r.path, headers: { ...r.headers, ...authProxyHeaders(r.user ?? AGGREGATOR_USER) }, signal });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.once('error', fail);
    });
    req.once('error', fail);
    req.end();
  });
}
