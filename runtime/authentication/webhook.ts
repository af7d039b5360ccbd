import type { TokenReview, TokenReviewStatus } from '../../apis/authentication/v1/types.js';
import type { UserInfo } from '../apimachinery/request/types.js';
import { setField } from '../apimachinery/serializer/jsonvalue.js';
import type { Authenticator, AuthenticationResponse } from './authenticator.js';
import { bearerToken } from './bearertoken.js';
import { TokenSuccessCache } from './serviceaccount/cache.js';

/**
 * kube's webhook token authenticator (k8s.io/apiserver/plugin/pkg/authenticator/token/webhook)
 * behind its token cache (pkg/authentication/token/cache): a bearer token is a TokenReview
 * (authentication.k8s.io/v1) sent to another server, the delegated authentication of an
 * aggregated server being one (the TokenReview goes to the control plane).
 */

/** Creates one TokenReview remotely; rejects with a StatusError for an HTTP error answer, or the transport's error. */
export interface TokenReviewer {
  create(review: TokenReview): Promise<TokenReviewStatus>;
}

/** The part of a logger the authenticator writes to (klog.Errorf of a failed review). */
export interface TokenWebhookLogger {
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
}

export interface WebhookTokenAuthenticatorOptions {
  readonly reviewer: TokenReviewer;
  /** --authentication-token-webhook-cache-ttl: how long an answer (authenticated or not) is kept; 0: none. Delegated: 10 s. */
  readonly cacheTTLMs: number;
  /**
   * The audiences a review is for: sent in the spec, and the answer's (or, when it names none,
   * these) must intersect them. Empty: the reviewing server's own audiences, not checked here.
   */
  readonly audiences?: readonly string[];
  /** Retries of a failed review (webhook.WithExponentialBackoff with DefaultShouldRetry); default one attempt. */
  readonly retry?: (attempt: () => Promise<TokenReviewStatus>) => Promise<TokenReviewStatus>;
  /** The cache's clock in ms; default Date.now. */
  readonly now?: () => number;
  readonly logger?: TokenWebhookLogger;
}

type Answer = AuthenticationResponse | undefined;

/**
 * An Authenticator of `Authorization: Bearer` requests. The answer for a token (keyed by a hash of
 * the token and audiences: the cache never holds a token) is cached for the TTL whether the token
 * authenticated or not; a review that failed is not cached and rejects (kube's cacheErrs false),
 * as does an answer that is not authenticated but carries status.error. Concurrent requests with
 * one token share one review (kube's singleflight).
 */
export class WebhookTokenAuthenticator implements Authenticator {
  private readonly successes: TokenSuccessCache<AuthenticationResponse>;
  /** The failures' own TTL store: the same bounded, expiring map, remembering "not authenticated". */
  private readonly failures: TokenSuccessCache<true>;
  private readonly inFlight = new Map<string, Promise<Answer>>();
  private readonly now: () => number;

  constructor(private readonly o: WebhookTokenAuthenticatorOptions) {
    this.successes = new TokenSuccessCache(o.cacheTTLMs);
    this.failures = new TokenSuccessCache(o.cacheTTLMs);
    this.now = o.now ?? Date.now;
  }

  async authenticate(req: Parameters<Authenticator['authenticate']>[0]): Promise<Answer> {
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    const resp = await this.authenticateToken(token);
    // bearertoken.New: a token no authenticator accepts is refused, never served as anonymous.
    if (resp === undefined) throw new Error('invalid bearer token');
    return resp;
  }

  /** AuthenticateToken through the cache: the user, or undefined when the token does not authenticate. */
  authenticateToken(token: string): Promise<Answer> {
    const audiences = this.o.audiences ?? [];
    const key = TokenSuccessCache.key(token, audiences);
    const now = this.now();
    const hit = this.successes.get(key, now);
    if (hit !== undefined) return Promise.resolve(hit);
    if (this.failures.get(key, now) !== undefined) return Promise.resolve(undefined);
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = this.review(token, audiences).then((answer) => {
        if (answer === undefined) this.failures.set(key, true, this.now());
        else this.successes.set(key, answer, this.now());
        return answer;
      });
      const forget = (): void => void this.inFlight.delete(key);
      pending.then(forget, forget);
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async review(token: string, audiences: readonly string[]): Promise<Answer> {
    const review: TokenReview = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token, ...(audiences.length > 0 ? { audiences: [...audiences] } : {}) } };
    let status: TokenReviewStatus;
    try {
      status = await (this.o.retry ?? ((attempt) => attempt()))(() => this.o.reviewer.create(review));
    } catch (err) {
      this.o.logger?.error('Failed to make webhook authenticator request', { err });
      throw err;
    }
    let valid: readonly string[] = [];
    if (audiences.length > 0) {
      const got = status.audiences !== undefined && status.audiences.length > 0 ? status.audiences : audiences;
      valid = audiences.filter((a) => got.includes(a));
      if (valid.length === 0) return undefined;
    }
    if (status.authenticated !== true) {
      if (status.error !== undefined && status.error !== '') throw new Error(status.error);
      return undefined;
    }
    const u = status.user ?? {};
    const user: UserInfo = {
      name: u.username ?? '',
      ...(u.uid !== undefined && u.uid !== '' ? { uid: u.uid } : {}),
      groups: [...(u.groups ?? [])],
      ...(u.extra !== undefined ? { extra: copyExtra(u.extra) } : {}),
    };
    return { user, ...(valid.length > 0 ? { audiences: valid } : {}) };
  }
}

/** The answer's extra as data: keys such as `__proto__` are entries, never property lookups. */
function copyExtra(extra: Readonly<Record<string, readonly string[]>>): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  for (const [k, v] of Object.entries(extra)) setField(out, k, [...v]);
  return out;
}
