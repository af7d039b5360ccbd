import { alwaysAllowAuthorizer, alwaysDenyAuthorizer, unionAuthorizer, type Authorizer, type RuleResolver } from './authorizer.js';
import { privilegedGroupsAuthorizer, SYSTEM_PRIVILEGED_GROUP } from './privileged.js';
import { alwaysAllowRuleResolver, alwaysDenyRuleResolver, unionRuleResolver } from './rule-resolvers.js';

/**
 * kube-apiserver's --authorization-mode (k8s.io/kubernetes/pkg/kubeapiserver/authorizer: modes and
 * the authorizer config's New): an ordered list of modes, each an authorizer and a rule resolver,
 * asked in order after the privileged group.
 */

/** modes.AuthorizationModeChoices: every mode kube knows. */
export const AUTHORIZATION_MODE_CHOICES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;

/** The modes this server implements; ABAC (a policy file) and Node (kubelets) have nothing to serve here. */
export const SUPPORTED_AUTHORIZATION_MODES: readonly string[] = ['AlwaysAllow', 'AlwaysDeny', 'Webhook', 'RBAC'];

/** What one mode contributes, and what the union of the modes is. */
export interface ModeAuthorization {
  readonly authorizer: Authorizer;
  readonly ruleResolver: RuleResolver;
}

/**
 * The modes that need more than a constant, built only when listed: RBAC's authorizer reads
 * roles and bindings (runtime/authorization/rbac), the webhook's reads a kubeconfig.
 */
export interface ModeFactories {
  readonly rbac?: () => ModeAuthorization;
  readonly webhook?: () => ModeAuthorization;
}

/**
 * The authorizer of the modes in order, behind the privileged-group authorizer (system:masters is
 * always allowed, as kube's NewPrivilegedGroups placed first), and the union of their rule
 * resolvers (the privileged group lists no rules). Throws for an empty list, a repeated mode, a
 * mode this server does not implement or a factory the mode needs and was not given; the
 * options reject the first three with kube's flag wording before this runs.
 */
export function newAuthorizerFromModes(modes: readonly string[], factories: ModeFactories): ModeAuthorization {
  if (modes.length === 0) throw new Error('at least one authorization mode must be passed');
  const authorizers: Authorizer[] = [privilegedGroupsAuthorizer(SYSTEM_PRIVILEGED_GROUP)];
  const resolvers: RuleResolver[] = [];
  const seen = new Set<string>();
  for (const mode of modes) {
    if (seen.has(mode)) throw new Error(`authorization mode ${mode} specified more than once`);
    seen.add(mode);
    const m = modeAuthorization(mode, factories);
    authorizers.push(m.authorizer);
    resolvers.push(m.ruleResolver);
  }
  return { authorizer: unionAuthorizer(...authorizers), ruleResolver: unionRuleResolver(...resolvers) };
}

function modeAuthorization(mode: string, factories: ModeFactories): ModeAuthorization {
  switch (mode) {
    case 'AlwaysAllow':
      return { authorizer: alwaysAllowAuthorizer, ruleResolver: alwaysAllowRuleResolver };
    case 'AlwaysDeny':
      return { authorizer: alwaysDenyAuthorizer, ruleResolver: alwaysDenyRuleResolver };
    case 'RBAC':
      if (factories.rbac === undefined) throw new Error('authorization mode RBAC: no RBAC authorizer was given');
      return factories.rbac();
    case 'Webhook':
      if (factories.webhook === undefined) throw new Error('authorization mode Webhook: no webhook authorizer was given');
      return factories.webhook();
    default:
      if ((AUTHORIZATION_MODE_CHOICES as readonly string[]).includes(mode)) throw new Error(`authorization mode ${mode} is not supported by this server`);
      throw new Error(`unknown authorization mode ${mode} specified`);
  }
}
