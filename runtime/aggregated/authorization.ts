import { alwaysAllowAuthorizer, unionAuthorizer, type Authorizer } from '../authorization/authorizer.js';
import { privilegedGroupsAuthorizer } from '../authorization/privileged.js';
import { WebhookAuthorizer } from '../authorization/webhook.js';
import type { CompletedDelegationOptions } from './delegation-options.js';
import { subjectAccessReviewerOver, type DelegationClients } from './delegated-clients.js';

/**
 * An aggregated server's authorizer (kube's DelegatingAuthorizationOptions.toAuthorizer): members
 * of the always-allowed groups (system:masters, whom the control plane always allows), then the
 * always-allowed paths, then a SubjectAccessReview to the control plane: kube's delegating
 * authorizer is the webhook authorizer over a client of --authorization-kubeconfig, allowed and
 * denied answers cached for their TTLs, a review that fails being no opinion with the error
 * (500 unless something else allowed). Without an authorization kubeconfig there is nothing to
 * delegate to: every request is allowed, as a server without delegated authorization.
 */
export function delegatedAuthorizer(d: CompletedDelegationOptions, clients: DelegationClients): Authorizer {
  if (d.authorizationKubeconfig === undefined) return alwaysAllowAuthorizer;
  const authorizers: Authorizer[] = [];
  if (d.authorizationAlwaysAllowGroups.length > 0) authorizers.push(privilegedGroupsAuthorizer(...d.authorizationAlwaysAllowGroups));
  if (d.authorizationAlwaysAllowPaths.length > 0) authorizers.push(pathAuthorizer(d.authorizationAlwaysAllowPaths));
  authorizers.push(
    new WebhookAuthorizer({
      reviewer: subjectAccessReviewerOver(clients.client('authorization-kubeconfig', d.authorizationKubeconfig)),
      authorizedTTLMs: d.authorizationWebhookCacheAuthorizedTTLMs,
      unauthorizedTTLMs: d.authorizationWebhookCacheUnauthorizedTTLMs,
      logger: { error: (message, details) => process.stderr.write(`E ${message}: ${String((details?.['err'] as Error | undefined)?.message ?? details?.['reason'] ?? '')}\n`) },
    }),
  );
  return unionAuthorizer(...authorizers);
}

/**
 * path.NewAuthorizer: allows non-resource requests to one of `paths` (a leading / optional; a
 * trailing * matches a prefix); no opinion on anything else. The options reject a * elsewhere.
 */
export function pathAuthorizer(paths: readonly string[]): Authorizer {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of paths.map((p) => p.replace(/^\//, ''))) {
    if (p.endsWith('*')) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  return {
    authorize(a) {
      if (a.isResourceRequest) return Promise.resolve({ decision: 'noOpinion', reason: '' });
      const path = a.path.replace(/^\//, '');
      const allowed = exact.has(path) || prefixes.some((p) => path.startsWith(p));
      return Promise.resolve({ decision: allowed ? 'allow' : 'noOpinion', reason: '' });
    },
  };
}
