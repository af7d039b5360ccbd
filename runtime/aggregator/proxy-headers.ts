import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../apimachinery/request/types.js';

/** Headers that describe one connection, never forwarded (RFC 7230 §6.1, Go's ReverseProxy list). */
const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The request-header authentication headers the aggregator speaks (transport.SetAuthProxyHeaders). */
export const REMOTE_USER_HEADER = 'X-Remote-User';
export const REMOTE_UID_HEADER = 'X-Remote-Uid';
export const REMOTE_GROUP_HEADER = 'X-Remote-Group';
export const REMOTE_EXTRA_HEADER_PREFIX = 'X-Remote-Extra-';

/** The identity of the aggregator's own requests to backends (availability checks, discovery): always allowed. */
export const AGGREGATOR_USER: UserInfo = Object.freeze({ name: 'system:kube-aggregator', groups: Object.freeze(['system:masters']) });

export interface ForwardedRequest {
  readonly headers: IncomingHttpHeaders;
  /** The client's address, appended to X-Forwarded-For. */
  readonly remoteAddress: string | undefined;
  /** Keep Connection: Upgrade and Upgrade (the request switches protocols). */
  readonly upgrade: boolean;
}

/**
 * The headers a proxied request carries to the backend: the client's, without hop-by-hop
 * headers (and those its Connection header names), Host (the backend's address is used), the
 * client's credentials (Authorization) and any X-Remote-* the client sent, which a client must
 * never be able to assert; then the authenticated user in X-Remote-* headers, which the backend
 * believes because the connection carries the front-proxy client certificate.
 */
export function backendRequestHeaders(r: ForwardedRequest, user: UserInfo): OutgoingHttpHeaders {
  const named = connectionTokens(r.headers['connection']);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(r.headers)) {
    // HTTP/2 pseudo-headers (:method, :path, :authority, :scheme) describe the client's
    // request line; the backend request has its own.
    if (value === undefined || name.startsWith(':')) continue;
    const lower = name.toLowerCase();
    const keepForUpgrade = r.upgrade && (lower === 'connection' || lower === 'upgrade');
    if (!keepForUpgrade && (HOP_BY_HOP.has(lower) || named.has(lower))) continue;
    // Expect: 100-continue was this server's to answer, and it has.
    if (lower === 'host' || lower === 'authorization' || lower === 'expect' || isRemoteHeader(lower)) continue;
    out[lower] = value;
  }
  if (r.remoteAddress !== undefined) {
    const prior = out['x-forwarded-for'];
    out['x-forwarded-for'] = prior === undefined ? r.remoteAddress : `${String(prior)}, ${r.remoteAddress}`;
  }
  return { ...out, ...authProxyHeaders(user) };
}

/** The user as request-header authentication reads it; extra keys percent-encoded where a header name cannot carry them. */
export function authProxyHeaders(user: UserInfo): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { [REMOTE_USER_HEADER]: user.name };
  if (user.uid !== undefined && user.uid !== '') headers[REMOTE_UID_HEADER] = user.uid;
  if (user.groups.length > 0) headers[REMOTE_GROUP_HEADER] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0) headers[`${REMOTE_EXTRA_HEADER_PREFIX}${escapeExtraKey(key)}`] = [...values];
  }
  return headers;
}

/** The headers of a backend's answer to pass on: all but hop-by-hop ones, as raw name/value pairs (repeats kept). */
export function backendResponseHeaders(rawHeaders: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] ?? '').toLowerCase() === 'connection') for (const t of connectionTokens(rawHeaders[i + 1])) named.add(t);
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    out.push(name, rawHeaders[i + 1] ?? '');
  }
  return out;
}

function isRemoteHeader(lower: string): boolean {
  return lower === 'x-remote-user' || lower === 'x-remote-uid' || lower === 'x-remote-group' || lower.startsWith('x-remote-extra-');
}

function connectionTokens(value: string | string[] | undefined): Set<string> {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    joined
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter((t) => t !== ''),
  );
}

/** Bytes a header name may hold (RFC 7230 tchar); everything else, and `%` itself, is percent-encoded (headerKeyEscape). */
const TCHAR = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

export function escapeExtraKey(key: string): string {
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += TCHAR.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
