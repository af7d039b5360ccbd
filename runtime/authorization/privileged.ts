import type { Authorizer } from './authorizer.js';

/** The group whose members are always allowed (user.SystemPrivilegedGroup). */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

/**
 * authorizerfactory.NewPrivilegedGroups: allows any user in one of `groups`, has no opinion on
 * anyone else. kube puts it before every configured mode, so `system:masters` cannot be locked
 * out by RBAC, a webhook or AlwaysDeny. It lists no rules: it is no rule resolver.
 */
export function privilegedGroupsAuthorizer(...groups: readonly string[]): Authorizer {
  const privileged: ReadonlySet<string> = new Set(groups);
  return {
    authorize(attributes) {
      if (attributes.user === undefined) return Promise.reject(new Error('no user on request.'));
      const allowed = attributes.user.groups.some((g) => privileged.has(g));
      return Promise.resolve({ decision: allowed ? 'allow' : 'noOpinion', reason: '' });
    },
  };
}
