import type { ClientRequest, IncomingMessage } from 'node:http';
import type { UserInfo } from '../apimachinery/request/types.js';
import type { APIRequest, APIResponse } from '../apimachinery/request/http.js';
import { backendUnreachable } from './errors.js';
import { backendRequestHeaders, backendResponseHeaders } from './proxy-headers.js';
import type { ResolvedEndpoint } from './service-resolver.js';
import type { BackendTransport } from './transport.js';

/** Where and as whom one request is proxied. */
export interface ProxyTarget {
  /** The APIService's name, for error messages. */
  readonly apiService: string;
  readonly transport: BackendTransport;
  readonly endpoint: ResolvedEndpoint;
  readonly user: UserInfo;
  /** Called when the backend could not be reached at all (the availability controller re-checks it). */
  readonly onUnreachable?: () => void;
}

/**
 * Whether the request came over a real connection (node's request and response) rather than
 * the in-process loopback client, whose bodies are buffers and whose answers go through
 * APIResponse only.
 */
export function onTheWire(req: APIRequest, res: APIResponse): boolean {
  return res.raw.socket !== null && req.raw.socket?.remoteAddress !== undefined;
}

/** The path and query the backend gets: the request's path, the query re-encoded (as kube's proxy does). */
export function backendPath(req: APIRequest): string {
  const q = req.query.toString();
  return q === '' ? req.path : `${req.path}?${q}`;
}

/**
 * Proxies one request (not an upgrade) and resolves when it is over. Everything streams: the
 * request body is piped to the backend, the answer piped back with its status and headers, its
 * headers flushed at once when it has no length (a watch), each chunk written as it arrives.
 * A backend that cannot be reached is 503 ServiceUnavailable; one failing mid-answer cuts the
 * client's connection, as a reverse proxy must. The request's signal (client gone, timeout,
 * shutdown) ends the backend request.
 */
export async function proxyRequest(req: APIRequest, res: APIResponse, t: ProxyTarget): Promise<void> {
  const wire = onTheWire(req, res);
  // In process the body is a buffer already; read it before dialling so a 413 is the answer.
  const body = !wire && hasBody(req) ? await req.readBody() : undefined;
  const headers = backendRequestHeaders({ headers: req.headers, remoteAddress: wire ? req.raw.socket.remoteAddress : undefined, upgrade: false }, t.user);
  await new Promise<void>((resolve) => {
    let settled = false;
    const done = (): void => {
      settled = true;
      resolve();
    };
    const backend = t.transport.request(t.endpoint, { method: req.method, path: backendPath(req), headers, signal: req.signal });
    backend.once('response', (answer) => {
      if (settled) return answer.destroy();
      const relayed = wire ? relayOnTheWire(req, res, answer) : relayInProcess(req, res, answer);
      relayed.then(done, done);
    });
    backend.on('error', (err) => {
      if (settled) return;
      if (!req.signal.aborted) {
        t.onUnreachable?.();
        if (!res.headersSent) res.writeError(backendUnreachable(t.apiService, err));
      }
      done();
    });
    sendBody(req, backend, wire, body);
  });
}

function hasBody(req: APIRequest): boolean {
  // HTTP/2 frames a body without either header; a request without one ends with its headers.
  if (req.raw.httpVersionMajor === 2) return (req.raw as { stream?: { endAfterHeaders?: boolean } }).stream?.endAfterHeaders !== true;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function sendBody(req: APIRequest, backend: ClientRequest, wire: boolean, body: Buffer | undefined): void {
  if (wire && hasBody(req)) req.raw.pipe(backend);
  else backend.end(body);
}

/** node's response: the backend's status line and headers, then its body piped. */
function relayOnTheWire(req: APIRequest, res: APIResponse, answer: IncomingMessage): Promise<void> {
  const raw = res.raw;
  if (req.signal.aborted || raw.headersSent) {
    answer.destroy();
    return Promise.resolve();
  }
  const headers = backendResponseHeaders(answer.rawHeaders);
  // HTTP/2 has no reason phrase.
  if (req.raw.httpVersionMajor === 2) raw.writeHead(answer.statusCode ?? 502, headers);
  else raw.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
  // A watch must reach the client before its first event does.
  if (answer.headers['content-length'] === undefined) raw.flushHeaders();
  return new Promise((resolve) => {
    const cancel = (): void => {
      if (!answer.complete) answer.destroy();
    };
    req.signal.addEventListener('abort', cancel, { once: true });
    answer.pipe(raw);
    answer.once('close', () => {
      req.signal.removeEventListener('abort', cancel);
      if (!answer.complete) raw.destroy();
      resolve();
    });
    raw.once('close', cancel);
  });
}

/** The loopback client's response: the same answer through APIResponse, streamed chunk by chunk. */
async function relayInProcess(req: APIRequest, res: APIResponse, answer: IncomingMessage): Promise<void> {
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || name === 'content-type' || name === 'content-length' || name === 'transfer-encoding' || name === 'connection' || name === 'keep-alive') continue;
    res.setHeader(name, value);
  }
  const stream = res.stream(answer.headers['content-type'] ?? 'application/octet-stream', answer.statusCode ?? 502);
  // A quiet watch has no next chunk to notice the caller leaving by: end it when the caller goes.
  const cancel = (): void => {
    answer.destroy();
  };
  req.signal.addEventListener('abort', cancel, { once: true });
  try {
    for await (const chunk of answer) {
      if (stream.closed || req.signal.aborted) break;
      await stream.write(chunk as Buffer);
    }
  } catch {
    // The backend went away mid-answer: the stream ends where it broke.
  } finally {
    req.signal.removeEventListener('abort', cancel);
    answer.destroy();
    stream.end();
  }
}
