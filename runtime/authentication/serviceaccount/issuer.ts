import { randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { ServiceAccountTokenClaims, ServiceAccountTokenIssuer } from '../../apimachinery/request/authenticator.js';
import { EXPIRATION_EXTENSION_SECONDS, tokenPayload, WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS } from './claims.js';
import { importSigningKey } from './keys.js';

/**
 * kube's JWTTokenGenerator (pkg/serviceaccount/jwt.go) with the expiration rules of the
 * TokenRequest storage: signs bound service-account tokens with the --service-account-signing-key-file
 * key (RS256 for RSA, ES256/384/512 by EC curve), `kid` as kube derives it, `iss` the first
 * --service-account-issuer.
 */

export interface ServiceAccountTokenIssuerOptions {
  /** The first --service-account-issuer: the `iss` of every token. */
  readonly issuer: string;
  /** The private key of --service-account-signing-key-file. */
  readonly signingKey: KeyObject;
  /** --api-audiences (default: the issuers): what a TokenRequest without audiences gets. */
  readonly apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0: no bound. */
  readonly maxExpirationSeconds: number;
  /** --service-account-extend-token-expiration (kube's default true). */
  readonly extendExpiration: boolean;
  /** For tests: the clock (ms) and the JTI source. */
  readonly now?: () => number;
  readonly newJTI?: () => string;
}

/**
 * The lifetime a token is signed with, and the one its TokenRequest reports. The requested one is
 * bounded by the maximum (the TokenRequest storage says so in a warning; bounding here again
 * keeps the maximum whatever the caller did). A pod-bound token asked for with admission's
 * 3607 s for the API's own audiences is signed for a year with `warnafter` at 3607 s (kube's
 * safe transition to bound tokens), and reported as 3607 s so that its holder refreshes it.
 */
export function tokenLifetime(
  o: Pick<ServiceAccountTokenIssuerOptions, 'apiAudiences' | 'maxExpirationSeconds' | 'extendExpiration'>,
  c: ServiceAccountTokenClaims,
): { readonly signedSeconds: number; readonly reportedSeconds: number; readonly warnAfterSeconds: number } {
  const requested = o.maxExpirationSeconds > 0 ? Math.min(c.expirationSeconds, o.maxExpirationSeconds) : c.expirationSeconds;
  const apiAudiences = new Set(o.apiAudiences);
  const extend = o.extendExpiration && c.boundObject?.kind === 'Pod' && requested === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && c.audiences.every((a) => apiAudiences.has(a));
  return extend
    ? { signedSeconds: EXPIRATION_EXTENSION_SECONDS, reportedSeconds: requested, warnAfterSeconds: requested }
    : { signedSeconds: requested, reportedSeconds: requested, warnAfterSeconds: 0 };
}

/** metav1.Time: RFC 3339, UTC, whole seconds. */
function rfc3339Seconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Makes the issuer; rejects for a key kube cannot sign with (`unknown private key curve, …`). */
export async function newServiceAccountTokenIssuer(o: ServiceAccountTokenIssuerOptions): Promise<ServiceAccountTokenIssuer> {
  const signing = await importSigningKey(o.signingKey);
  const now = o.now ?? Date.now;
  const newJTI = o.newJTI ?? randomUUID;
  return {
    defaultAudiences: o.apiAudiences,
    maxExpirationSeconds: o.maxExpirationSeconds,
    async issue(claims) {
      // jwt.NewNumericDate truncates to seconds; the reported expiration counts from the same second.
      const nowSeconds = Math.floor(now() / 1000);
      const lifetime = tokenLifetime(o, claims);
      const payload = tokenPayload(o.issuer, claims, nowSeconds, lifetime.signedSeconds, lifetime.warnAfterSeconds, newJTI());
      const token = await new SignJWT(payload).setProtectedHeader({ alg: signing.algorithm, kid: signing.keyID }).sign(signing.key);
      return { token, expirationTimestamp: rfc3339Seconds(nowSeconds + lifetime.reportedSeconds) };
    },
  };
}
