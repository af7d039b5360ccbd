import { aggregateMessage } from '../../apimachinery/errors/aggregate.js';
import { compactVerify, decodeProtectedHeader } from 'jose';
import type { TokenAuthenticator } from '../../apimachinery/request/authenticator.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import { isJSONObject, ownField } from '../../apimachinery/serializer/jsonvalue.js';
import type { AuthenticationResponse, Authenticator } from '../authenticator.js';
import { bearerToken } from '../bearertoken.js';
import { TokenSuccessCache } from './cache.js';
import { DEFAULT_LEEWAY_SECONDS, parseTokenClaims } from './claims.js';
import type { PublicKeySet } from './keys.js';
import { validateServiceAccountToken, type ServiceAccountTokenGetter } from './validator.js';
import { serviceAccountUserInfo } from './util.js';

/**
 * kube's JWTTokenAuthenticator (pkg/serviceaccount/jwt.go) over bound service-account tokens:
 * a token that is not a JWT, or names another issuer, is not this authenticator's (the next one
 * is asked); a token of one of our issuers is verified (key by `kid`, signature, issuer,
 * audiences, times) and validated against the store, and any failure is an error (401), never
 * anonymous.
 */

export interface ServiceAccountTokenAuthenticatorOptions {
  /** Every --service-account-issuer: tokens of any of them are accepted. */
  readonly issuers: readonly string[];
  /** The keys of --service-account-key-file (and the signing key's public half). */
  readonly keys: PublicKeySet;
  /** --api-audiences: what a token must share one of when the caller names none. */
  readonly apiAudiences: readonly string[];
  readonly getter: ServiceAccountTokenGetter;
  /** Successes are remembered this long (kube's TokenSuccessCacheTTL, 10 s); 0 disables. */
  readonly successCacheTTLMs?: number;
  /** For tests: the clock (ms). */
  readonly now?: () => number;
}

export type ServiceAccountTokenAuthenticator = TokenAuthenticator & Authenticator;

type Result = { readonly user: UserInfo; readonly audiences: readonly string[] };

/** Go's %q of a []string: `["a" "b"]`. */
function goQuoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** utilerrors.NewAggregate's message: the one error, or all in brackets. */
function aggregate(errors: readonly unknown[]): Error {
  return new Error(aggregateMessage(errors));
}

/** hasCorrectIssuer: a compact JWS whose (unverified) `iss` is one of ours. */
function hasOurIssuer(token: string, issuers: ReadonlySet<string>): boolean {
  if (token.trimStart().startsWith('{')) return false;
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]*$/.test(parts[1]!)) return false;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    const iss = isJSONObject(claims) ? ownField(claims, 'iss') : undefined;
    return typeof iss === 'string' && issuers.has(iss);
  } catch {
    return false;
  }
}

function keyIDOf(token: string): string | undefined {
  try {
    const { kid } = decodeProtectedHeader(token);
    return typeof kid === 'string' ? kid : '';
  } catch {
    return undefined;
  }
}

export function newServiceAccountTokenAuthenticator(o: ServiceAccountTokenAuthenticatorOptions): ServiceAccountTokenAuthenticator {
  const issuers = new Set(o.issuers);
  const implicit = o.apiAudiences;
  const now = o.now ?? Date.now;
  const cache = new TokenSuccessCache<Result>(o.successCacheTTLMs ?? 10_000);

  async function verify(token: string, requested: readonly string[]): Promise<{ result: Result; expMs: number } | undefined> {
    if (!hasOurIssuer(token, issuers)) return undefined;
    const kid = keyIDOf(token);
    if (kid === undefined) return undefined;
    const keys = o.keys.keysFor(kid);
    if (keys.length === 0) throw new Error('invalid signature, no keys found');
    let payload: Uint8Array | undefined;
    const errors: unknown[] = [];
    for (const key of keys) {
      try {
        payload = (await compactVerify(token, key.key, { algorithms: [key.algorithm] })).payload;
        break;
      } catch (err) {
        errors.push(err);
      }
    }
    if (payload === undefined) throw aggregate(errors);
    const claims = parseTokenClaims(JSON.parse(Buffer.from(payload).toString('utf8')));
    // The issuer was read before the signature was checked: check it again.
    if (!issuers.has(claims.public.iss)) throw new Error(`token issuer ${JSON.stringify(claims.public.iss)} is invalid`);
    const tokenAudiences = claims.public.aud.length === 0 ? implicit : claims.public.aud;
    const wanted = new Set(requested);
    const audiences = tokenAudiences.filter((a) => wanted.has(a));
    if (audiences.length === 0 && implicit.length !== 0) throw new Error(`token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(requested)}`);
    const nowMs = now();
    const info = await validateServiceAccountToken(o.getter, claims.public, claims.kubernetes, nowMs);
    const expMs = claims.public.exp === undefined ? Infinity : (claims.public.exp + DEFAULT_LEEWAY_SECONDS) * 1000;
    return { result: { user: serviceAccountUserInfo(info), audiences }, expMs };
  }

  async function authenticateToken(token: string, audiences: readonly string[]): Promise<Result | undefined> {
    const requested = audiences.length === 0 ? implicit : audiences;
    const key = TokenSuccessCache.key(token, requested);
    const cached = cache.get(key, now());
    if (cached !== undefined) return cached;
    const verified = await verify(token, requested);
    if (verified === undefined) return undefined;
    cache.set(key, verified.result, now(), verified.expMs);
    return verified.result;
  }

  return {
    implicitAudiences: implicit,
    authenticateToken,
    async authenticate(req): Promise<AuthenticationResponse | undefined> {
      const token = bearerToken(req);
      if (token === undefined) return undefined;
      return authenticateToken(token, []);
    },
  };
}
