import { resolve } from 'node:path';
import { boolFlag, durationFlag, OptionsError, stringSliceFlag, type FlagSpecs } from '../server/options/flags.js';

/**
 * sample-apiserver's DelegatingAuthenticationOptions and DelegatingAuthorizationOptions
 * (k8s.io/apiserver/pkg/server/options): which control plane tokens and access are checked
 * against, how long its answers are kept, and whether the CAs are looked up in its
 * kube-system/extension-apiserver-authentication ConfigMap.
 */
export interface DelegationOptions {
  /** --authentication-kubeconfig: the control plane TokenReviews go to and the ConfigMap is read from; default --kubeconfig. */
  authenticationKubeconfig?: string;
  /** --authorization-kubeconfig: the control plane SubjectAccessReviews go to; default --kubeconfig. */
  authorizationKubeconfig?: string;
  /** --authentication-skip-lookup: do not read missing CAs from the ConfigMap. */
  authenticationSkipLookup?: boolean;
  /** --authentication-tolerate-lookup-failure: start without the request-header configuration when the ConfigMap cannot be read. */
  authenticationTolerateLookupFailure?: boolean;
  /** --authentication-token-webhook-cache-ttl in ms (kube's 10 s). */
  authenticationTokenWebhookCacheTTLMs?: number;
  /** --authorization-webhook-cache-authorized-ttl in ms (kube's 10 s). */
  authorizationWebhookCacheAuthorizedTTLMs?: number;
  /** --authorization-webhook-cache-unauthorized-ttl in ms (kube's 10 s). */
  authorizationWebhookCacheUnauthorizedTTLMs?: number;
  /** --authorization-always-allow-paths: authorized without asking the control plane; a trailing * is a prefix. */
  authorizationAlwaysAllowPaths?: readonly string[];
}

export interface CompletedDelegationOptions {
  /** Absolute; undefined: no token reviews and no ConfigMap lookup. */
  readonly authenticationKubeconfig: string | undefined;
  /** Absolute; undefined: requests are not authorized (every request allowed, as a server without delegated authorization). */
  readonly authorizationKubeconfig: string | undefined;
  readonly authenticationSkipLookup: boolean;
  readonly authenticationTolerateLookupFailure: boolean;
  readonly authenticationTokenWebhookCacheTTLMs: number;
  readonly authorizationWebhookCacheAuthorizedTTLMs: number;
  readonly authorizationWebhookCacheUnauthorizedTTLMs: number;
  readonly authorizationAlwaysAllowPaths: readonly string[];
  /** kube's AlwaysAllowGroups (no flag): members are allowed without a review, as the control plane allows them. */
  readonly authorizationAlwaysAllowGroups: readonly string[];
}

export const DELEGATION_FLAGS = {
  'authentication-kubeconfig': { type: 'string' },
  'authorization-kubeconfig': { type: 'string' },
  'authentication-skip-lookup': { type: 'string' },
  'authentication-tolerate-lookup-failure': { type: 'string' },
  'authentication-token-webhook-cache-ttl': { type: 'string' },
  'authorization-webhook-cache-authorized-ttl': { type: 'string' },
  'authorization-webhook-cache-unauthorized-ttl': { type: 'string' },
  'authorization-always-allow-paths': { type: 'string', multiple: true },
} as const satisfies FlagSpecs;

type DelegationFlagValues = { readonly [K in Exclude<keyof typeof DELEGATION_FLAGS, 'authorization-always-allow-paths'>]?: string } & {
  readonly 'authorization-always-allow-paths'?: readonly string[];
};

/** The delegation options of parsed flags, each undefined when its flag is absent. */
export function delegationOptionsFromFlags(values: DelegationFlagValues): { [K in keyof Required<DelegationOptions>]: DelegationOptions[K] | undefined } {
  const paths = values['authorization-always-allow-paths'];
  return {
    authenticationKubeconfig: values['authentication-kubeconfig'],
    authorizationKubeconfig: values['authorization-kubeconfig'],
    authenticationSkipLookup: boolFlag('authentication-skip-lookup', values['authentication-skip-lookup']),
    authenticationTolerateLookupFailure: boolFlag('authentication-tolerate-lookup-failure', values['authentication-tolerate-lookup-failure']),
    authenticationTokenWebhookCacheTTLMs: durationFlag('authentication-token-webhook-cache-ttl', values['authentication-token-webhook-cache-ttl']),
    authorizationWebhookCacheAuthorizedTTLMs: durationFlag('authorization-webhook-cache-authorized-ttl', values['authorization-webhook-cache-authorized-ttl']),
    authorizationWebhookCacheUnauthorizedTTLMs: durationFlag('authorization-webhook-cache-unauthorized-ttl', values['authorization-webhook-cache-unauthorized-ttl']),
    // `--authorization-always-allow-paths=` clears the list, as kube's StringSlice.
    authorizationAlwaysAllowPaths: paths === undefined ? undefined : (stringSliceFlag(paths) ?? []),
  };
}

/** kube's defaults: 10 s caches, the health paths always allowed, system:masters never reviewed. */
export const DEFAULT_ALWAYS_ALLOW_PATHS: readonly string[] = ['/healthz', '/readyz', '/livez'];
const DEFAULT_TTL_MS = 10_000;

/** Resolves the defaults; both kubeconfigs default to `kubeconfig` (the server's --kubeconfig). */
export function completeDelegationOptions(o: DelegationOptions, kubeconfig: string | undefined): CompletedDelegationOptions {
  const file = (v: string | undefined): string | undefined => (v === undefined || v === '' ? (kubeconfig === undefined ? undefined : resolve(kubeconfig)) : resolve(v));
  const paths = o.authorizationAlwaysAllowPaths ?? DEFAULT_ALWAYS_ALLOW_PATHS;
  for (const p of paths) {
    const trimmed = p.replace(/^\//, '');
    if (trimmed.slice(0, -1).includes('*')) throw new OptionsError(`--authorization-always-allow-paths: only trailing * allowed in ${JSON.stringify(trimmed)}`);
  }
  for (const [flag, ms] of [
    ['authentication-token-webhook-cache-ttl', o.authenticationTokenWebhookCacheTTLMs],
    ['authorization-webhook-cache-authorized-ttl', o.authorizationWebhookCacheAuthorizedTTLMs],
    ['authorization-webhook-cache-unauthorized-ttl', o.authorizationWebhookCacheUnauthorizedTTLMs],
  ] as const) {
    if (ms !== undefined && ms < 0) throw new OptionsError(`--${flag} must not be negative`);
  }
  return {
    authenticationKubeconfig: file(o.authenticationKubeconfig),
    authorizationKubeconfig: file(o.authorizationKubeconfig),
    authenticationSkipLookup: o.authenticationSkipLookup ?? false,
    authenticationTolerateLookupFailure: o.authenticationTolerateLookupFailure ?? false,
    authenticationTokenWebhookCacheTTLMs: o.authenticationTokenWebhookCacheTTLMs ?? DEFAULT_TTL_MS,
    authorizationWebhookCacheAuthorizedTTLMs: o.authorizationWebhookCacheAuthorizedTTLMs ?? DEFAULT_TTL_MS,
    authorizationWebhookCacheUnauthorizedTTLMs: o.authorizationWebhookCacheUnauthorizedTTLMs ?? DEFAULT_TTL_MS,
    authorizationAlwaysAllowPaths: paths,
    authorizationAlwaysAllowGroups: ['system:masters'],
  };
}

export const DELEGATION_USAGE = `  --authentication-kubeconfig FILE  The control plane bearer tokens are reviewed by (TokenReview) and whose
                                  kube-system/extension-apiserver-authentication ConfigMap gives the client and
                                  front-proxy CAs and headers not given as flags. Default --kubeconfig.
  --authorization-kubeconfig FILE  The control plane requests are authorized by (SubjectAccessReview). Default
                                  --kubeconfig. Neither: every authenticated request is allowed.
  --authentication-skip-lookup    Do not read missing CAs from the ConfigMap.
  --authentication-tolerate-lookup-failure  Start even when the ConfigMap cannot be read (front proxies are then not trusted).
  --authentication-token-webhook-cache-ttl D      How long token reviews are cached (Go duration). Default 10s.
  --authorization-webhook-cache-authorized-ttl D  How long allowed answers are cached. Default 10s.
  --authorization-webhook-cache-unauthorized-ttl D  How long other answers are cached. Default 10s.
  --authorization-always-allow-paths P[,P…]  Paths authorized without a review (a trailing * matches a prefix).
                                  Default /healthz,/readyz,/livez. Members of system:masters are always allowed.
`;
