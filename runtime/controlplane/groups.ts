import { apiextensionsGroup } from '../../generated/registry/apiextensions.js';
import { apiregistrationGroup } from '../../generated/registry/apiregistration.js';
import { coreGroup } from '../../generated/registry/core.js';
import type { AdmissionPlugin, PluginInitializer } from '../admission/types.js';
import type { APIGroupDefinition, GroupServer } from '../registry/types.js';

/**
 * The groups a control plane always serves, whatever groups it is given: kube-apiserver hard-codes
 * its own API (the core group, CRDs, APIServices) and so does this runtime.
 */
export const BUILTIN_GROUPS: readonly APIGroupDefinition[] = [coreGroup, apiextensionsGroup, apiregistrationGroup];

const BUILTIN_GROUP_NAMES: ReadonlySet<string> = new Set(BUILTIN_GROUPS.map((g) => g.name));

/** Whether a group is one of the built-in groups only a control plane serves. */
export function isBuiltinGroup(name: string): boolean {
  return BUILTIN_GROUP_NAMES.has(name);
}

/**
 * The built-in groups, then the given ones, each group name once: the first definition of a name
 * wins, so a project's generated index that lists the built-in groups too gives the same set.
 */
export function withBuiltinGroups(groups: readonly APIGroupDefinition[]): readonly APIGroupDefinition[] {
  const byName = new Map<string, APIGroupDefinition>();
  for (const g of [...BUILTIN_GROUPS, ...groups]) if (!byName.has(g.name)) byName.set(g.name, g);
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
