import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest, type Agent } from 'node:https';
import type { CachedAPIService } from './discovery-apiservices.js';

/**
 * How to reach the server behind a service-backed APIService: the base URL of its resolved
 * address, and the agent holding the TLS setup (the APIService's caBundle or
 * insecureSkipTLSVerify, the front-proxy client certificate, the server name to verify).
 */
export interface BackendTransport {
  /** `https://<host>:<port>`; request paths are appended to it. */
  readonly baseURL: string;
  readonly agent: Agent;
  /** The TLS server name to send and verify (`<service>.<namespace>.svc`); default the URL's host. */
  readonly servername?: string;
}

/**
 * What the discovery and OpenAPI aggregation need from the APIService registration: a way to
 * reach a service-backed APIService's server. Rejects with the reason it cannot be reached (no
 * Service, no Endpoints...); the callers treat that like a failed request.
 */
export interface BackendResolver {
  transportFor(apiService: CachedAPIService): Promise<BackendTransport>;
}

/** The user the aggregator's own requests to backends are made as (kube's discovery and OpenAPI downloads). */
export const AGGREGATOR_IDENTITY_HEADERS: Readonly<Record<string, string | string[]>> = {
  'X-Remote-User': 'system:kube-aggregator',
  'X-Remote-Group': ['system:masters', 'system:authenticated'],
};

export interface BackendResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface BackendGetOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** Abort the request (and reject) after this long. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * One GET to a backend as the aggregator, the whole body buffered. Resolves with any HTTP
 * answer; rejects on transport failures and timeouts, naming the URL.
 */
export function backendGet(transport: BackendTransport, path: string, o: BackendGetOptions): Promise<BackendResponse> {
  const url = new URL(path, transport.baseURL);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        method: 'GET',
        agent: transport.agent,
        headers: { ...AGGREGATOR_IDENTITY_HEADERS, ...o.headers },
        ...(transport.servername !== undefined ? { servername: transport.servername } : {}),
        ...(o.signal !== undefined ? { signal: o.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(new Error(`GET ${url.href}: ${err.message}`, { cause: err })));
      },
    );
    req.setTimeout(o.timeoutMs, () => req.destroy(new Error(`timed out after ${o.timeoutMs}ms`)));
    req.on('error', (err) => reject(new Error(`GET ${url.href}: ${err.message}`, { cause: err })));
    req.end();
  });
}

/** The body as JSON, or a rejection naming what was fetched. */
export function decodeJSON(res: BackendResponse, what: string): unknown {
  try {
    return JSON.parse(res.body.toString('utf8')) as unknown;
  } catch (err) {
    throw new Error(`${what}: invalid JSON: ${(err as Error).message}`, { cause: err });
  }
}

/** A header's value, undefined when absent or empty. */
export function headerValue(res: BackendResponse, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** An answer the caller cannot use, with the start of its body. */
export function unexpectedStatus(path: string, res: BackendResponse): Error {
  const text = res.body.toString('utf8').slice(0, 512).trim();
  return new Error(`GET ${path}: unexpected status ${res.status}${text !== '' ? `: ${text}` : ''}`);
}
