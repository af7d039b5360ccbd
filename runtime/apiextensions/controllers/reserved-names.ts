import type { APIGroupDefinition } from '../../registry/types.js';
import type { ReservedNames } from './naming.js';

export type { ReservedNames };

/**
 * The names the built-in groups use, per group: what a CRD of such a group may not take
 * (a request for them would reach the built-in resource, never the CRD).
 */
export function groupReservedNames(groups: readonly APIGroupDefinition[]): (group: string) => ReservedNames | undefined {
  const byGroup = new Map<string, { resources: Set<string>; kinds: Set<string> }>();
  for (const g of groups) {
    let names = byGroup.get(g.name);
    if (names === undefined) byGroup.set(g.name, (names = { resources: new Set(), kinds: new Set() }));
    for (const v of g.versions) {
      for (const r of v.resources) {
        for (const n of [r.plural, r.singular, ...r.shortNames]) if (n !== '') names.resources.add(n);
        names.kinds.add(r.kind);
        names.kinds.add(r.listKind);
      }
    }
  }
  return (group) => byGroup.get(group);
}
