import type { UserInfo } from './types.js';

/**
 * Token authentication and issuance as the REST storages that answer with them see it
 * (TokenReview, TokenRequest); the request authenticators themselves are runtime/authentication's.
 */

/** authenticator.Token: who a bearer token names, for which of the audiences asked. */
export interface TokenAuthenticator {
  /**
   * Undefined when the token is not one this authenticator knows or is invalid for every audience
   * in `audiences` (empty: the server's own); rejects when it could not tell (a store error).
   */
  authenticateToken(token: string, audiences: readonly string[]): Promise<{ readonly user: UserInfo; readonly audiences: readonly string[] } | undefined>;
  /** The audiences a token is checked against when a review names none (--api-audiences). */
  readonly implicitAudiences: readonly string[];
}

/** The object a service-account token is bound to (authentication/v1 BoundObjectReference, resolved). */
export interface BoundObject {
  readonly kind: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly uid: string;
}

/** What a TokenRequest asks for, after its REST storage validated it. */
export interface ServiceAccountTokenClaims {
  readonly namespace: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUID: string;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  readonly boundObject?: BoundObject;
}

/** serviceaccount.TokenGenerator: signs bound service-account tokens (JWTs). */
export interface ServiceAccountTokenIssuer {
  issue(claims: ServiceAccountTokenClaims): Promise<{ readonly token: string; readonly expirationTimestamp: string }>;
  /** The audiences a TokenRequest without audiences gets (the issuer's --api-audiences). */
  readonly defaultAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds (0: none). */
  readonly maxExpirationSeconds: number;
}
