import type { SubjectAccessReview, SubjectAccessReviewSpec, SubjectAccessReviewStatus } from '../../apis/authorization/v1/types.js';
import { isInternalError, isTimeout, isTooManyRequests, suggestsClientDelay } from '../apimachinery/errors/index.js';
import { setField } from '../apimachinery/serializer/jsonvalue.js';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesReview } from './authorizer.js';
import { LRUExpireCache } from './webhook-cache.js';

/**
 * kube's webhook authorizer (k8s.io/apiserver/plugin/pkg/authorizer/webhook): every decision is
 * a SubjectAccessReview sent to a remote service, its answer cached per attributes (allowed for
 * the authorized TTL, anything else for the unauthorized TTL), transient failures retried with
 * exponential backoff. The transport is a SubjectAccessReviewer: HTTPS from a kubeconfig for
 * --authorization-webhook-config-file (./webhook-client.ts), or any client that can create a
 * SubjectAccessReview (the delegated authorization of an aggregated server).
 */

/** Creates one SubjectAccessReview remotely; rejects with a StatusError for an HTTP error answer, or the transport's error. */
export interface SubjectAccessReviewer {
  create(review: SubjectAccessReview): Promise<SubjectAccessReviewStatus>;
}

/** wait.Backoff: `steps` attempts, the first wait `durationMs`, each next one `factor` times longer, plus up to `jitter` of itself. */
export interface Backoff {
  readonly durationMs: number;
  readonly factor: number;
  readonly jitter: number;
  readonly steps: number;
}

/** webhook.DefaultRetryBackoffWithInitialDelay(500ms): 5 attempts, 500 ms × 1.5ⁿ, jitter 0.2. */
export const DEFAULT_WEBHOOK_RETRY_BACKOFF: Backoff = Object.freeze({ durationMs: 500, factor: 1.5, jitter: 0.2, steps: 5 });

/** The part of a logger the authorizer writes to (klog.Errorf of a failed review). */
export interface WebhookLogger {
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
}

export interface WebhookAuthorizerOptions {
  readonly reviewer: SubjectAccessReviewer;
  /** --authorization-webhook-cache-authorized-ttl (kube: 5 m; delegated authorization: 10 s). */
  readonly authorizedTTLMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl (kube: 30 s; delegated authorization: 10 s). */
  readonly unauthorizedTTLMs: number;
  /** Default DEFAULT_WEBHOOK_RETRY_BACKOFF. */
  readonly retryBackoff?: Backoff;
  /** Which failures are worth another attempt; default shouldRetryWebhook. */
  readonly shouldRetry?: (err: unknown) => boolean;
  /** The cache's clock in ms; default Date.now. */
  readonly now?: () => number;
  /** Waits between attempts; default a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly logger?: WebhookLogger;
}

/** Requester-controlled attributes longer than this are not cached (a cache-filling attack). */
const MAX_CONTROLLED_ATTR_CACHE_SIZE = 10000;
const CACHE_SIZE = 8192;

/**
 * WebhookAuthorizer.Authorize: allowed → allow, denied → deny, neither → noOpinion, each with the
 * service's reason. A review that could not be made after the retries rejects with its error
 * (kube's decisionOnError NoOpinion with the error: 500 unless another authorizer allows). An
 * answer both allowed and denied is a deny (kube denies and reports an error).
 * RulesFor: a webhook cannot list rules, so the review is incomplete, as kube's.
 */
export class WebhookAuthorizer implements Authorizer, RuleResolver {
  private readonly cache: LRUExpireCache<SubjectAccessReviewStatus>;
  private readonly backoff: Backoff;

  constructor(private readonly o: WebhookAuthorizerOptions) {
    this.cache = new LRUExpireCache(CACHE_SIZE, o.now ?? Date.now);
    this.backoff = o.retryBackoff ?? DEFAULT_WEBHOOK_RETRY_BACKOFF;
    if (this.backoff.steps <= 0) throw new Error(`number of webhook retry attempts must be greater than 0, but is: ${this.backoff.steps}`);
  }

  async authorize(attributes: Attributes): Promise<AuthorizationResult> {
    const spec = subjectAccessReviewSpec(attributes);
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (status === undefined) {
      const review: SubjectAccessReview = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: {}, spec, status: { allowed: false } };
      try {
        status = await withExponentialBackoff(this.backoff, () => this.o.reviewer.create(review), this.o.shouldRetry ?? shouldRetryWebhook, this.o.sleep ?? timerSleep);
      } catch (err) {
        this.o.logger?.error('Failed to make webhook authorizer request', { err });
        throw err;
      }
      if (shouldCache(attributes)) this.cache.add(key, status, status.allowed ? this.o.authorizedTTLMs : this.o.unauthorizedTTLMs);
    }
    const reason = status.reason ?? '';
    if (status.denied === true && status.allowed) {
      this.o.logger?.error('webhook subject access review returned both allow and deny response', { reason });
      return { decision: 'deny', reason };
    }
    if (status.denied === true) return { decision: 'deny', reason };
    if (status.allowed) return { decision: 'allow', reason };
    return { decision: 'noOpinion', reason };
  }

  rulesFor(): Promise<RulesReview> {
    return Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' });
  }
}

/**
 * The review's spec in the field order of Go's encoding (also the cache key): the user, then
 * resource or non-resource attributes; empty fields omitted as omitempty does; extra keys sorted
 * as Go marshals a map, in an object without prototype (keys are the user's data).
 */
export function subjectAccessReviewSpec(a: Attributes): SubjectAccessReviewSpec {
  const spec: SubjectAccessReviewSpec = {};
  if (a.isResourceRequest) {
    const ra: Record<string, string> = {};
    const fields: [string, string][] = [
      ['namespace', a.namespace],
      ['verb', a.verb],
      ['group', a.apiGroup],
      ['version', a.apiVersion],
      ['resource', a.resource],
      ['subresource', a.subresource],
      ['name', a.name],
    ];
    for (const [k, v] of fields) if (v !== '') ra[k] = v;
    spec.resourceAttributes = ra;
  } else {
    spec.nonResourceAttributes = { ...(a.path !== '' ? { path: a.path } : {}), ...(a.verb !== '' ? { verb: a.verb } : {}) };
  }
  const user = a.user;
  if (user === undefined) return spec;
  if (user.name !== '') spec.user = user.name;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  const entries = Object.entries(user.extra ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length > 0) {
    const extra = Object.create(null) as Record<string, string[]>;
    for (const [k, v] of entries) setField(extra, k, [...v]);
    spec.extra = extra;
  }
  if (user.uid !== undefined && user.uid !== '') spec.uid = user.uid;
  return spec;
}

function shouldCache(a: Attributes): boolean {
  const size = a.namespace.length + a.verb.length + a.apiGroup.length + a.apiVersion.length + a.resource.length + a.subresource.length + a.name.length + a.path.length;
  return size < MAX_CONTROLLED_ATTR_CACHE_SIZE;
}

/**
 * webhook.DefaultShouldRetry: a reset connection, 500 InternalError, 504 Timeout, 429, or any
 * answer that asks the client to come back later (Retry-After).
 */
export function shouldRetryWebhook(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ECONNRESET' || code === 'ERR_HTTP2_STREAM_ERROR' || code === 'ERR_HTTP2_SESSION_ERROR') return true;
  return isInternalError(err) || isTimeout(err) || isTooManyRequests(err) || suggestsClientDelay(err) !== undefined;
}

/**
 * webhook.WithExponentialBackoff: up to `steps` attempts while `shouldRetry` says the failure is
 * transient; the last failure is the result when attempts run out, any other failure at once.
 */
export async function withExponentialBackoff<T>(backoff: Backoff, attempt: () => Promise<T>, shouldRetry: (err: unknown) => boolean, sleep: (ms: number) => Promise<void>): Promise<T> {
  let delay = backoff.durationMs;
  for (let left = backoff.steps; ; left--) {
    try {
      return await attempt();
    } catch (err) {
      if (!shouldRetry(err) || left <= 1) throw err;
    }
    await sleep(delay + Math.random() * backoff.jitter * delay);
    delay *= backoff.factor;
  }
}

function timerSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
