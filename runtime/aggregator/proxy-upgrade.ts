import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { newBadRequest } from '../apimachinery/errors/index.js';
import type { APIRequest, APIResponse } from '../apimachinery/request/http.js';
import { backendUnreachable } from './errors.js';
import { backendRequestHeaders, backendResponseHeaders } from './proxy-headers.js';
import { backendPath, type ProxyTarget } from './proxy-request.js';

/** httpstream.IsUpgradeRequest: the Connection header names `upgrade`. */
export function isUpgradeRequest(req: APIRequest): boolean {
  const connection = req.headers['connection'];
  const value = Array.isArray(connection) ? connection.join(',') : (connection ?? '');
  return value.split(',').some((t) => t.trim().toLowerCase() === 'upgrade');
}

/**
 * Proxies a request that switches protocols (kubectl exec, attach, port-forward; websockets),
 * as kube's UpgradeAwareHandler does: the request goes to the backend with the user's headers;
 * a 101 answer is written to the client and from then on the two connections are piped both
 * ways, raw, until either side closes (or the request's signal aborts: shutdown). Any other
 * answer is relayed as it is and the connection closed. Only a request that arrived as an
 * upgrade (its socket handed over by the server) can switch; others are 400.
 */
export async function proxyUpgrade(req: APIRequest, res: APIResponse, t: ProxyTarget): Promise<void> {
  const client = req.raw.socket as Duplex | null;
  if ((req.raw as { upgrade?: boolean }).upgrade !== true || client === null) {
    res.writeError(newBadRequest('an upgrade request needs a connection that can switch protocols'));
    return;
  }
  const headers = backendRequestHeaders({ headers: req.headers, remoteAddress: req.raw.socket.remoteAddress, upgrade: true }, t.user);
  await new Promise<void>((resolve) => {
    let settled = false;
    const done = (): void => {
      settled = true;
      resolve();
    };
    const backend = t.transport.request(t.endpoint, { method: req.method, path: backendPath(req), headers, signal: req.signal });
    backend.once('upgrade', (answer: IncomingMessage, upstream: Duplex, head: Buffer) => {
      if (settled || req.signal.aborted) {
        upstream.destroy();
        return done();
      }
      switchProtocols(req, res, answer, upstream, head, client).then(done, done);
    });
    backend.once('response', (answer) => {
      if (settled) return answer.destroy();
      // Not switching after all: the backend's answer, then the connection closes.
      res.raw.writeHead(answer.statusCode ?? 502, answer.statusMessage, backendResponseHeaders(answer.rawHeaders));
      answer.pipe(res.raw);
      answer.once('close', done);
    });
    backend.on('error', (err) => {
      if (settled) return;
      if (!req.signal.aborted) {
        t.onUnreachable?.();
        if (!res.headersSent) res.writeError(backendUnreachable(t.apiService, err));
      }
      done();
    });
    backend.end();
  });
}

/**
 * Writes the backend's 101 through the request's response (so nothing else can answer on this
 * connection any more), then pipes the sockets, bytes the backend sent past its headers first.
 */
function switchProtocols(req: APIRequest, res: APIResponse, answer: IncomingMessage, upstream: Duplex, head: Buffer, client: Duplex): Promise<void> {
  res.raw.writeHead(101, answer.statusMessage, backendResponseHeadersForUpgrade(answer.rawHeaders));
  res.raw.flushHeaders();
  if (head.length > 0) client.write(head);
  upstream.pipe(client);
  client.pipe(upstream);
  return new Promise((resolve) => {
    let open = 2;
    const closed = (): void => {
      upstream.destroy();
      client.destroy();
      if (--open === 0) resolve();
    };
    upstream.once('close', closed);
    client.once('close', closed);
    upstream.on('error', () => undefined);
    const onAbort = (): void => {
      upstream.destroy();
      client.destroy();
    };
    if (req.signal.aborted) onAbort();
    else req.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The 101's headers: Connection and Upgrade are this hop's and must stay; the rest as for any answer. */
function backendResponseHeadersForUpgrade(rawHeaders: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const lower = (rawHeaders[i] ?? '').toLowerCase();
    if (lower === 'connection' || lower === 'upgrade') kept.push(rawHeaders[i] ?? '', rawHeaders[i + 1] ?? '');
  }
  return [...kept, ...backendResponseHeaders(rawHeaders)];
}
