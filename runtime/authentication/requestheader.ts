import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../apimachinery/request/types.js';
import type { APIRequest } from '../apimachinery/request/http.js';
import type { AuthenticationResponse, Authenticator } from './authenticator.js';
import { CertificateVerificationError, type ClientCertificateVerifier, type VerifiedChain } from './clientcert.js';

/** The request-header flags (--requestheader-*), header names as given (any case). */
export interface RequestHeaderConfig {
  /** Verifies the front proxy's client certificate (--requestheader-client-ca-file). */
  readonly verifier: ClientCertificateVerifier;
  /** CNs the front proxy's certificate may have; empty allows any the CA signed (--requestheader-allowed-names). */
  readonly allowedNames: readonly string[];
  /** The first of these with a value names the user (--requestheader-username-headers). */
  readonly usernameHeaders: readonly string[];
  /** The first of these with a value is the user's UID (--requestheader-uid-headers); default none. */
  readonly uidHeaders?: readonly string[];
  /** Every value of every one of these is a group (--requestheader-group-headers). */
  readonly groupHeaders: readonly string[];
  /** `<prefix><key>: value` adds value to extra[key], key lower-cased and percent-decoded (--requestheader-extra-headers-prefix). */
  readonly extraHeaderPrefixes: readonly string[];
}

/**
 * headerrequest.NewSecure: a front proxy (the aggregator of another apiserver, an
 * authenticating proxy) says who the user is in headers, and is believed only when its own
 * client certificate verifies against the request-header CA and, when allowed names are
 * configured, carries one of them as CN. A certificate that fails either check is an error;
 * a trusted proxy that names no user is not this authenticator's credential. The headers it
 * reads are removed from the request once it has used them.
 */
export function requestHeaderAuthenticator(c: RequestHeaderConfig): Authenticator {
  const nameHeaders = lowerHeaders(c.usernameHeaders);
  const uidHeaders = lowerHeaders(c.uidHeaders ?? []);
  const groupHeaders = lowerHeaders(c.groupHeaders);
  const extraPrefixes = lowerHeaders(c.extraHeaderPrefixes);
  const allowedNames = [...c.allowedNames];
  const fromProxy = async (req: APIRequest, verified: VerifiedChain): Promise<AuthenticationResponse | undefined> => {
    const cn = verified.subject.commonName;
    if (allowedNames.length > 0 && !allowedNames.includes(cn)) throw new CertificateVerificationError(`x509: subject with cn=${cn} is not in the allowed list`);
    const headers = distinctHeaders(req.raw);
    const name = firstValue(headers, nameHeaders);
    if (name === '') return undefined;
    const uid = firstValue(headers, uidHeaders);
    const groups = groupHeaders.flatMap((h) => (headers[h] ?? []).filter((v) => v !== ''));
    const extra = extraValues(headers, extraPrefixes);
    deleteHeaders(req.raw, (h) => nameHeaders.includes(h) || uidHeaders.includes(h) || groupHeaders.includes(h) || extraPrefixes.some((p) => h.startsWith(p)));
    const user: UserInfo = { name, ...(uid !== '' ? { uid } : {}), groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
    return { user };
  };
  return {
    authenticate(req) {
      // Every client certificate the front-proxy CA did not sign (any ordinary client's) fails
      // here on every request, from an outcome cached per connection. Its error comes back as a
      // rejected promise made once per outcome and already handled: a throw (V8's throw
      // machinery, deep in the handler chain) or a new rejection (node's unhandled-rejection
      // bookkeeping) per request each cost microseconds in a profile of the server.
      const verified = c.verifier.check(req);
      if (verified instanceof CertificateVerificationError) return rejectionOf(verified);
      return verified === undefined ? Promise.resolve(undefined) : fromProxy(req, verified);
    },
  };
}

const rejections = new WeakMap<Error, Promise<never>>();

/** One rejected promise per error, handled from the start, so each request awaits it without new bookkeeping. */
function rejectionOf(err: Error): Promise<never> {
  let rejected = rejections.get(err);
  if (rejected === undefined) {
    rejected = Promise.reject(err);
    rejected.catch(() => undefined);
    rejections.set(err, rejected);
  }
  return rejected;
}

/** Trimmed and lower-cased (node's header keys); an empty name is a configuration error, as kube's trimHeaders. */
function lowerHeaders(names: readonly string[]): string[] {
  return names.map((n) => {
    const t = n.trim();
    if (t === '') throw new Error(`empty header ${JSON.stringify(n)}`);
    return t.toLowerCase();
  });
}

function firstValue(headers: NodeJS.Dict<string[]>, names: readonly string[]): string {
  for (const h of names) {
    const v = headers[h]?.[0];
    if (v !== undefined && v !== '') return v;
  }
  return '';
}

/** Prefixes in the order given, headers in the order received, so values keep their order. */
function extraValues(headers: NodeJS.Dict<string[]>, prefixes: readonly string[]): Record<string, string[]> {
  const extra: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const prefix of prefixes) {
    for (const [h, values] of Object.entries(headers)) {
      if (values === undefined || !h.startsWith(prefix)) continue;
      const key = unescapeExtraKey(h.slice(prefix.length));
      (extra[key] ??= []).push(...values);
    }
  }
  return { ...extra };
}

/** url.PathUnescape; a malformed escape keeps the key as sent (also the impersonation filter's Impersonate-Extra-<key>). */
export function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/**
 * Every value of every header by lower-cased name, in the order sent (node's headersDistinct,
 * which HTTP/2 requests lack: then built from rawHeaders, with no prototype, names being data).
 */
function distinctHeaders(raw: IncomingMessage): NodeJS.Dict<string[]> {
  const given = (raw as Partial<Pick<IncomingMessage, 'headersDistinct'>>).headersDistinct;
  if (given !== undefined) return given;
  const out = Object.create(null) as NodeJS.Dict<string[]>;
  const rawHeaders = raw.rawHeaders;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    (out[name] ??= []).push(rawHeaders[i + 1] ?? '');
  }
  return out;
}

/**
 * Removes headers from every view node keeps of them, so nothing downstream (a proxy least of all)
 * sees them. HTTP/2 requests have no headersDistinct.
 */
export function deleteHeaders(raw: IncomingMessage, remove: (lowerName: string) => boolean): void {
  for (const h of Object.keys(raw.headers)) if (remove(h)) delete raw.headers[h];
  const distinct = (raw as Partial<Pick<IncomingMessage, 'headersDistinct'>>).headersDistinct ?? {};
  for (const h of Object.keys(distinct)) if (remove(h)) delete distinct[h];
  const rawHeaders = raw.rawHeaders;
  for (let i = rawHeaders.length - 2; i >= 0; i -= 2) {
    if (remove((rawHeaders[i] ?? '').toLowerCase())) rawHeaders.splice(i, 2);
  }
}
