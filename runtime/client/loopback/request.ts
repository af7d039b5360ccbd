import { IncomingMessage, type IncomingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { newRequestEntityTooLarge } from '../../apimachinery/errors/index.js';
import { resolveRequestInfo } from '../../apimachinery/request/requestinfo.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import type { Cancellation } from '../../apimachinery/request/cancellation.js';
import type { APIRequest } from '../../apimachinery/request/http.js';

export interface LoopbackRequestInit {
  readonly method: string;
  /** Path as sent, already escaped (no query). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer | undefined;
  readonly user: UserInfo;
  readonly cancellation: Cancellation;
  readonly maxRequestBodyBytes: number;
}

const EMPTY = Buffer.alloc(0);

/**
 * An APIRequest made in memory: what the RequestInfo and authentication filters would have set
 * (`info`, `user`) is set here, since the request enters a server's handler behind its filters.
 * The body is the client's buffer, with the server's size limit (413 beyond it) as over HTTP.
 *
 * `raw` exists only because the type requires it: an IncomingMessage over an unconnected socket,
 * made on first use (discovery reads the Host header from it; nothing on the resource path does).
 */
export function newLoopbackRequest(init: LoopbackRequestInit): APIRequest {
  let raw: IncomingMessage | undefined;
  const { body, cancellation } = init;
  const read: Promise<Buffer> =
    body !== undefined && body.length > init.maxRequestBodyBytes ? Promise.reject(newRequestEntityTooLarge(`limit is ${init.maxRequestBodyBytes}`)) : Promise.resolve(body ?? EMPTY);
  // Read or not, the rejection must not surface as unhandled.
  read.catch(() => undefined);
  return {
    get raw() {
      return (raw ??= rawMessage(init));
    },
    method: init.method,
    path: init.path,
    query: init.query,
    headers: init.headers,
    get signal() {
      return cancellation.signal;
    },
    cancellation,
    receivedAt: performance.now(),
    info: resolveRequestInfo(init.method, init.path, init.query),
    user: init.user,
    auditAnnotations: new Map(),
    readBody: () => read,
  };
}

function rawMessage(init: LoopbackRequestInit): IncomingMessage {
  const m = new IncomingMessage(new Socket());
  m.method = init.method;
  const q = init.query.toString();
  m.url = q === '' ? init.path : `${init.path}?${q}`;
  m.headers = init.headers;
  m.httpVersion = '1.1';
  m.httpVersionMajor = 1;
  m.httpVersionMinor = 1;
  m.complete = true;
  return m;
}
