import { resolve } from 'node:path';
import { aggregateMessage } from '../../apimachinery/errors/aggregate.js';
import { AUTHORIZATION_MODE_CHOICES, newAuthorizerFromModes, SUPPORTED_AUTHORIZATION_MODES, type ModeAuthorization } from '../../authorization/modes.js';
import { WebhookAuthorizer, type WebhookLogger } from '../../authorization/webhook.js';
import { httpsSubjectAccessReviewer, WEBHOOK_VERSIONS, type SubjectAccessReviewVersion } from '../../authorization/webhook-client.js';
import { loadWebhookKubeconfig } from '../../authorization/webhook-kubeconfig.js';
import { durationFlag, OptionsError, stringSliceFlag, type FlagSpecs } from './flags.js';

/**
 * kube-apiserver's BuiltInAuthorizationOptions (k8s.io/kubernetes/pkg/kubeapiserver/options):
 * --authorization-mode and the webhook's flags, validated with kube's wording, and the
 * authorizer they make.
 */

export interface AuthorizationOptions {
  /** --authorization-mode, in order of evaluation. */
  modes?: readonly string[];
  /** --authorization-webhook-config-file: a kubeconfig naming the webhook (Webhook mode only). */
  webhookConfigFile?: string;
  /** --authorization-webhook-version: v1 or v1beta1 SubjectAccessReviews. */
  webhookVersion?: string;
  /** --authorization-webhook-cache-authorized-ttl in ms. */
  webhookCacheAuthorizedTTLMs?: number;
  /** --authorization-webhook-cache-unauthorized-ttl in ms. */
  webhookCacheUnauthorizedTTLMs?: number;
}

export interface CompletedAuthorizationOptions {
  readonly modes: readonly string[];
  /** Absolute; undefined unless Webhook is a mode. */
  readonly webhookConfigFile: string | undefined;
  readonly webhookVersion: SubjectAccessReviewVersion;
  readonly webhookCacheAuthorizedTTLMs: number;
  readonly webhookCacheUnauthorizedTTLMs: number;
}

export const AUTHORIZATION_FLAGS = {
  'authorization-mode': { type: 'string', multiple: true },
  'authorization-webhook-config-file': { type: 'string' },
  'authorization-webhook-version': { type: 'string' },
  'authorization-webhook-cache-authorized-ttl': { type: 'string' },
  'authorization-webhook-cache-unauthorized-ttl': { type: 'string' },
} as const satisfies FlagSpecs;

/** The parsed values of AUTHORIZATION_FLAGS, as parseFlags returns them. */
export type AuthorizationFlagValues = { readonly [K in Exclude<keyof typeof AUTHORIZATION_FLAGS, 'authorization-mode'>]?: string } & {
  readonly 'authorization-mode'?: readonly string[];
};

/** kube's defaults, but RBAC rather than AlwaysAllow: a fresh server is not open to everyone. */
export const DEFAULT_AUTHORIZATION_MODES: readonly string[] = ['RBAC'];
const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;

/** The authorization options of parsed flags, each undefined when its flag is absent. */
export function authorizationOptionsFromFlags(values: AuthorizationFlagValues): { [K in keyof Required<AuthorizationOptions>]: AuthorizationOptions[K] | undefined } {
  const modes = values['authorization-mode'];
  return {
    // `--authorization-mode=` is an empty list (kube then says at least one must be passed).
    modes: modes === undefined ? undefined : (stringSliceFlag(modes) ?? []),
    webhookConfigFile: values['authorization-webhook-config-file'],
    webhookVersion: values['authorization-webhook-version'],
    webhookCacheAuthorizedTTLMs: durationFlag('authorization-webhook-cache-authorized-ttl', values['authorization-webhook-cache-authorized-ttl']),
    webhookCacheUnauthorizedTTLMs: durationFlag('authorization-webhook-cache-unauthorized-ttl', values['authorization-webhook-cache-unauthorized-ttl']),
  };
}

/** Resolves the defaults and validates as BuiltInAuthorizationOptions.Validate; every error at once, aggregated as kube prints them. */
export function completeAuthorizationOptions(o: AuthorizationOptions): CompletedAuthorizationOptions {
  const modes = o.modes ?? DEFAULT_AUTHORIZATION_MODES;
  const webhookConfigFile = o.webhookConfigFile === undefined || o.webhookConfigFile === '' ? undefined : o.webhookConfigFile;
  const errors: string[] = [];
  if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const mode of modes) {
    if (!(AUTHORIZATION_MODE_CHOICES as readonly string[]).includes(mode)) errors.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    else if (!SUPPORTED_AUTHORIZATION_MODES.includes(mode)) errors.push(`authorization-mode ${JSON.stringify(mode)} is not supported by this server (${SUPPORTED_AUTHORIZATION_MODES.join(', ')})`);
    if (mode === 'Webhook' && webhookConfigFile === undefined) errors.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (webhookConfigFile !== undefined && !modes.includes('Webhook')) errors.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(modes).size !== modes.length) errors.push(`authorization-mode [${modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`);
  const version = o.webhookVersion ?? 'v1';
  if (!(WEBHOOK_VERSIONS as readonly string[]).includes(version)) errors.push(`unsupported webhook authorizer version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`);
  if (errors.length > 0) throw new OptionsError(aggregateMessage(errors));
  return {
    modes,
    webhookConfigFile: webhookConfigFile === undefined ? undefined : resolve(webhookConfigFile),
    webhookVersion: version as SubjectAccessReviewVersion,
    webhookCacheAuthorizedTTLMs: o.webhookCacheAuthorizedTTLMs ?? DEFAULT_AUTHORIZED_TTL_MS,
    webhookCacheUnauthorizedTTLMs: o.webhookCacheUnauthorizedTTLMs ?? DEFAULT_UNAUTHORIZED_TTL_MS,
  };
}

/** kube's warning when it turns anonymous authentication off. */
export const ANONYMOUS_WITH_ALWAYS_ALLOW_WARNING = 'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer';

/**
 * BuiltInAuthenticationOptions.ApplyAuthorization: with AlwaysAllow among the modes, anonymous
 * authentication is forced off (anyone reaching the port would otherwise do anything), with
 * kube's warning. Returns the --anonymous-auth value to apply.
 */
export function anonymousAuthWithAuthorization(anonymousAuth: boolean, o: Pick<CompletedAuthorizationOptions, 'modes'>, warn: (message: string) => void): boolean {
  if (!anonymousAuth || !o.modes.includes('AlwaysAllow')) return anonymousAuth;
  warn(ANONYMOUS_WITH_ALWAYS_ALLOW_WARNING);
  return false;
}

/**
 * The authorizer and rule resolver of the options: system:masters first, then the modes in
 * order. RBAC's comes from the caller (it reads the server's roles and bindings); the webhook's
 * is made here from its kubeconfig (OptionsError naming the flag and the file when unusable).
 */
export function newAuthorizationFromOptions(o: CompletedAuthorizationOptions, deps: { readonly rbac?: () => ModeAuthorization; readonly logger?: WebhookLogger }): ModeAuthorization {
  return newAuthorizerFromModes(o.modes, {
    ...(deps.rbac !== undefined ? { rbac: deps.rbac } : {}),
    webhook: () => {
      const file = o.webhookConfigFile ?? '';
      let connection;
      try {
        connection = loadWebhookKubeconfig(file);
      } catch (e) {
        throw new OptionsError(`--authorization-webhook-config-file ${(e as Error).message}`, { cause: e });
      }
      const webhook = new WebhookAuthorizer({
        reviewer: httpsSubjectAccessReviewer(connection, o.webhookVersion),
        authorizedTTLMs: o.webhookCacheAuthorizedTTLMs,
        unauthorizedTTLMs: o.webhookCacheUnauthorizedTTLMs,
        ...(deps.logger !== undefined ? { logger: deps.logger } : {}),
      });
      return { authorizer: webhook, ruleResolver: webhook };
    },
  });
}

/** The usage lines of the authorization flags. */
export function authorizationUsage(): string {
  return `  --authorization-mode MODE[,MODE…]  Ordered list of authorizers: ${SUPPORTED_AUTHORIZATION_MODES.join(', ')} (kube's ABAC and Node
                                  are not served). Members of system:masters are always allowed. Default ${DEFAULT_AUTHORIZATION_MODES.join(',')}.
                                  With AlwaysAllow, anonymous requests are refused (--anonymous-auth is forced false).
  --authorization-webhook-config-file FILE  Kubeconfig naming the remote authorizer (Webhook mode): its current context's
                                  cluster (server, CA) and user (client certificate or token).
  --authorization-webhook-version v1|v1beta1  The SubjectAccessReview version sent to the webhook. Default v1.
  --authorization-webhook-cache-authorized-ttl D    How long allowed answers are cached (Go duration). Default 5m.
  --authorization-webhook-cache-unauthorized-ttl D  How long other answers are cached (Go duration). Default 30s.
`;
}
