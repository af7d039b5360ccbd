import type { SubjectAccessReviewStatus } from '../../apis/authorization/v1/types.js';
import type { TokenReviewStatus } from '../../apis/authentication/v1/types.js';
import { AuthenticationV1Client } from '../../generated/clientset/authentication/v1/index.js';
import { AuthorizationV1Client } from '../../generated/clientset/authorization/v1/index.js';
import type { TokenReviewer } from '../authentication/webhook.js';
import type { SubjectAccessReviewer } from '../authorization/webhook.js';
import { restClientFromKubeconfig } from '../client/index.js';
import type { RESTClient } from '../client/types.js';

/**
 * The clients of delegated authentication and authorization (kube's getClient of
 * DelegatingAuthenticationOptions and DelegatingAuthorizationOptions): one REST client per
 * kubeconfig, each call bounded by 10 s (kube's TokenRequestTimeout and ClientTimeout), retries
 * left to the webhooks' backoff, which knows which failures are worth another attempt.
 */
export class DelegationClients {
  private readonly clients = new Map<string, RESTClient>();

  /** The REST client of a kubeconfig file; a file that cannot be used throws naming the flag. */
  client(flag: string, kubeconfig: string): RESTClient {
    let rest = this.clients.get(kubeconfig);
    if (rest === undefined) {
      try {
        rest = restClientFromKubeconfig({ path: kubeconfig, options: { userAgent: 'kube-ts-aggregated/delegation', timeoutMs: 10_000, maxRetries: 0 } }).rest;
      } catch (err) {
        throw new Error(`failed to get delegated ${flag === 'authentication-kubeconfig' ? 'authentication' : 'authorization'} kubeconfig: --${flag} ${kubeconfig}: ${(err as Error).message}`, {
          cause: err,
        });
      }
      this.clients.set(kubeconfig, rest);
    }
    return rest;
  }
}

/** TokenReviews created through the typed client (authentication.k8s.io/v1 tokenreviews). */
export function tokenReviewerOver(rest: RESTClient): TokenReviewer {
  const reviews = new AuthenticationV1Client(rest).tokenreviews();
  return { create: async (review): Promise<TokenReviewStatus> => (await reviews.create(review)).status ?? {} };
}

/** SubjectAccessReviews created through the typed client (authorization.k8s.io/v1 subjectaccessreviews). */
export function subjectAccessReviewerOver(rest: RESTClient): SubjectAccessReviewer {
  const reviews = new AuthorizationV1Client(rest).subjectaccessreviews();
  return { create: async (review): Promise<SubjectAccessReviewStatus> => (await reviews.create(review)).status ?? { allowed: false } };
}
