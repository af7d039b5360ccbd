import { AmbiguousKindError, AmbiguousResourceError } from './errors.js';
import type { GroupKind, GroupVersionKind, GroupVersionResource } from './schema.js';
import type { RESTMapping, StaticRESTMapper } from './types.js';

/** Matches any group, version, resource or kind in a priority pattern. */
export const ANY = '*';

/**
 * A mapper that settles ambiguity by patterns (meta.PriorityRESTMapper): when the delegate finds
 * several answers, each pattern in turn narrows them; the first pattern leaving exactly one wins.
 * The list methods pass through unchanged.
 */
export class PriorityRESTMapper implements StaticRESTMapper {
  constructor(
    readonly delegate: StaticRESTMapper,
    readonly resourcePriority: readonly GroupVersionResource[],
    readonly kindPriority: readonly GroupVersionKind[],
  ) {}

  resourceFor(partial: GroupVersionResource): GroupVersionResource {
    const original = this.delegate.resourcesFor(partial);
    const picked = narrow(original, this.resourcePriority, resourceMatches);
    if (picked !== undefined) return picked;
    throw new AmbiguousResourceError(partial, original);
  }

  kindFor(partial: GroupVersionResource): GroupVersionKind {
    const original = this.delegate.kindsFor(partial);
    const picked = narrow(original, this.kindPriority, kindMatches);
    if (picked !== undefined) return picked;
    throw new AmbiguousResourceError(partial, [], original);
  }

  restMapping(gk: GroupKind, ...versions: string[]): RESTMapping {
    const mappings = this.delegate.restMappings(gk, ...versions);
    // Versions the caller named come before the discovery order.
    const priorities = versions.length === 0 ? this.kindPriority : [...versions.map((version) => ({ group: gk.group, version, kind: ANY })), ...this.kindPriority];
    let remaining = mappings;
    if (remaining.length === 1 && remaining[0] !== undefined) return remaining[0];
    for (const pattern of priorities) {
      const matching = remaining.filter((m) => kindMatches(pattern, m.groupVersionKind));
      if (matching.length === 0) continue;
      if (matching.length === 1 && matching[0] !== undefined) return matching[0];
      remaining = matching;
    }
    if (remaining.length === 1 && remaining[0] !== undefined) return remaining[0];
    throw new AmbiguousKindError(
      { ...gk, version: '' },
      [],
      mappings.map((m) => m.groupVersionKind),
    );
  }

  restMappings(gk: GroupKind, ...versions: string[]): RESTMapping[] {
    return this.delegate.restMappings(gk, ...versions);
  }

  resourceSingularizer(resource: string): string {
    return this.delegate.resourceSingularizer(resource);
  }

  resourcesFor(partial: GroupVersionResource): GroupVersionResource[] {
    return this.delegate.resourcesFor(partial);
  }

  kindsFor(partial: GroupVersionResource): GroupVersionKind[] {
    return this.delegate.kindsFor(partial);
  }

  reset(): void {
    this.delegate.reset?.();
  }
}

/** The one candidate left by the patterns in order, or undefined when they leave several. */
function narrow<T, P>(original: readonly T[], patterns: readonly P[], matches: (p: P, x: T) => boolean): T | undefined {
  if (original.length === 1) return original[0];
  let remaining = original;
  for (const pattern of patterns) {
    const matched = remaining.filter((x) => matches(pattern, x));
    if (matched.length === 0) continue;
    if (matched.length === 1) return matched[0];
    remaining = matched;
  }
  return undefined;
}

function resourceMatches(p: GroupVersionResource, r: GroupVersionResource): boolean {
  return (p.group === ANY || p.group === r.group) && (p.version === ANY || p.version === r.version) && (p.resource === ANY || p.resource === r.resource);
}

function kindMatches(p: GroupVersionKind, k: GroupVersionKind): boolean {
  return (p.group === ANY || p.group === k.group) && (p.version === ANY || p.version === k.version) && (p.kind === ANY || p.kind === k.kind);
}
