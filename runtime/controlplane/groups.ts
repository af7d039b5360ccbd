import { apiextensionsGroup } from '../../generated/registry/apiextensions.js';
import { apiregistrationGroup } from '../../generated/registry/apiregistration.js';
import { authenticationGroup } from '../../generated/registry/authentication.js';
import { authorizationGroup } from '../../generated/registry/authorization.js';
import { coordinationGroup } from '../../generated/registry/coordination.js';
import { coreGroup } from '../../generated/registry/core.js';
import { eventsGroup } from '../../generated/registry/events.js';
import { rbacGroup } from '../../generated/registry/rbac.js';
import type { AdmissionPlugin, PluginInitializer } from '../admission/types.js';
import type { APIGroupDefinition, GroupServer } from '../registry/types.js';

/**
 * The groups a control plane always serves, whatever groups it is given: kube-apiserver hard-codes
 * its own API (the core group, CRDs, APIServices, RBAC, the review APIs of authentication and
 * authorization, Leases, and the events API over the core group's Events) and so does this runtime.
 * Groups are installed in this order: a group whose kinds cohabit with another's comes after it.
 */
export const BUILTIN_GROUPS: readonly APIGroupDefinition[] = [coreGroup, apiextensionsGroup, apiregistrationGroup, rbacGroup, authenticationGroup, authorizationGroup, coordinationGroup, eventsGroup];

const BUILTIN_GROUP_NAMES: ReadonlySet<string> = new Set(BUILTIN_GROUPS.map((g) => g.name));

/** Whether a group is one of the built-in groups only a control plane serves. */
export function isBuiltinGroup(name: string): boolean {
  return BUILTIN_GROUP_NAMES.has(name);
}

/**
 * The built-in groups, then the given ones, each group once. A project's generated index may list
 * the built-in groups too (this repository's does): the same definition given twice is one group.
 * Two different definitions of one group name are an error, never a silent choice: a project that
 * redefines a built-in group (or lists two of its own under one name) would otherwise be served
 * something other than what it wrote.
 */
export function withBuiltinGroups(groups: readonly APIGroupDefinition[]): readonly APIGroupDefinition[] {
  const byName = new Map<string, APIGroupDefinition>();
  for (const g of [...BUILTIN_GROUPS, ...groups]) {
    const seen = byName.get(g.name);
    if (seen === undefined) byName.set(g.name, g);
    else if (seen !== g) {
      const what = g.name === '' ? 'the core group' : `group "${g.name}"`;
      throw new Error(`${what} is defined twice${isBuiltinGroup(g.name) ? ' (it is built in: a project cannot define it again)' : ''}`);
    }
  }
  return [...byName.values()];
}

/** The server a group declares it is served by (kube-apiserver unless it says otherwise). */
export function groupServer(group: APIGroupDefinition): GroupServer {
  return group.declaration?.server ?? 'kube-apiserver';
}

/** The admission plugins the groups declare, built for one server, in group then declaration order. */
export function groupAdmissionPlugins(groups: readonly APIGroupDefinition[], init: PluginInitializer): AdmissionPlugin[] {
  return groups.flatMap((g) => (g.declaration?.admissionPlugins ?? []).map((factory) => factory(init)));
}
