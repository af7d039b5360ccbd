import { AmbiguousResourceError, NoKindMatchError, NoResourceMatchError } from './errors.js';
import { gvrString, sameGV, tupleKey, type GroupKind, type GroupVersion, type GroupVersionKind, type GroupVersionResource } from './schema.js';
import type { RESTMapping, RESTScopeName, StaticRESTMapper } from './types.js';

const gvrKey = (r: GroupVersionResource): string => tupleKey(r.group, r.version, r.resource);
const gvkKey = (k: GroupVersionKind): string => tupleKey(k.group, k.version, k.kind);

/** Kinds whose resource is their lower-cased name, not a plural (`endpoints`). */
const UNPLURALIZED_SUFFIXES = ['endpoints'];

/**
 * The plural and singular resource a kind most likely has (meta.UnsafeGuessKindToResource):
 * lower case, then `s`→`ses`, `y`→`ies`, else `s`. A guess: discovery's names win where known.
 */
export function unsafeGuessKindToResource(kind: GroupVersionKind): { plural: GroupVersionResource; singular: GroupVersionResource } {
  const gv = { group: kind.group, version: kind.version };
  if (kind.kind === '') {
    const empty = { group: '', version: '', resource: '' };
    return { plural: empty, singular: empty };
  }
  const singular = kind.kind.toLowerCase();
  const at = (resource: string): GroupVersionResource => ({ ...gv, resource });
  if (UNPLURALIZED_SUFFIXES.some((s) => singular.endsWith(s))) return { plural: at(singular), singular: at(singular) };
  if (singular.endsWith('s')) return { plural: at(`${singular}es`), singular: at(singular) };
  if (singular.endsWith('y')) return { plural: at(`${singular.slice(0, -1)}ies`), singular: at(singular) };
  return { plural: at(`${singular}s`), singular: at(singular) };
}

/**
 * A mapper over explicit kind↔resource pairs (meta.DefaultRESTMapper). Matches ignore the case
 * of the resource; several matches are ordered by the default group versions given to the
 * constructor, then by name.
 */
export class DefaultRESTMapper implements StaticRESTMapper {
  private readonly resourceToKind = new Map<string, { resource: GroupVersionResource; kind: GroupVersionKind }>();
  private readonly kindToPluralResource = new Map<string, GroupVersionResource>();
  private readonly kindToScope = new Map<string, RESTScopeName>();
  /** plural key → { plural, singular }, in insertion order. */
  private readonly pluralToSingular = new Map<string, { plural: GroupVersionResource; singular: GroupVersionResource }>();

  constructor(private readonly defaultGroupVersions: readonly GroupVersion[] = []) {}

  /** Adds a kind with guessed resource names. */
  add(kind: GroupVersionKind, scope: RESTScopeName): void {
    const { plural, singular } = unsafeGuessKindToResource(kind);
    this.addSpecific(kind, plural, singular, scope);
  }

  addSpecific(kind: GroupVersionKind, plural: GroupVersionResource, singular: GroupVersionResource, scope: RESTScopeName): void {
    this.pluralToSingular.set(gvrKey(plural), { plural, singular });
    this.resourceToKind.set(gvrKey(singular), { resource: singular, kind });
    this.resourceToKind.set(gvrKey(plural), { resource: plural, kind });
    this.kindToPluralResource.set(gvkKey(kind), plural);
    this.kindToScope.set(gvkKey(kind), scope);
  }

  resourceSingularizer(resourceType: string): string {
    const resources = this.resourcesFor({ group: '', version: '', resource: resourceType });
    let singular: GroupVersionResource | undefined;
    for (const curr of resources) {
      const s = this.pluralToSingular.get(gvrKey(curr))?.singular;
      if (s === undefined) continue;
      if (singular === undefined) {
        singular = s;
        continue;
      }
      if (s.resource !== singular.resource) {
        throw new Error(`multiple possible singular resources (${goResources(resources)}) found for ${resourceType}`);
      }
    }
    if (singular === undefined || isEmptyGVR(singular)) throw new Error(`no singular of resource ${resourceType} has been defined`);
    return singular.resource;
  }

  resourcesFor(input: GroupVersionResource): GroupVersionResource[] {
    const resource = coerceResourceForMatching(input);
    if (resource.resource === '') throw new Error(`a resource must be present, got: ${gvrString(resource)}`);
    const ret: GroupVersionResource[] = [];
    const pairs = [...this.pluralToSingular.values()];
    const hasGroup = resource.group !== '';
    const hasVersion = resource.version !== '';
    if (hasGroup && hasVersion) {
      for (const { plural, singular } of pairs) {
        if (isGVR(singular, resource) || isGVR(plural, resource)) {
          ret.push(plural);
          break;
        }
      }
    } else if (hasGroup) {
      let exact = false;
      for (const { plural, singular } of pairs) {
        if (singular.group === resource.group && singular.resource === resource.resource) {
          exact = true;
          ret.push(plural);
        }
        if (plural.group === resource.group && plural.resource === resource.resource) {
          exact = true;
          ret.push(plural);
        }
      }
      // A group prefix matches too: `autoscal` for `autoscaling`.
      if (!exact) {
        for (const { plural, singular } of pairs) {
          if (!plural.group.startsWith(resource.group)) continue;
          if (singular.resource === resource.resource) ret.push(plural);
          if (plural.resource === resource.resource) ret.push(plural);
        }
      }
    } else {
      for (const { plural, singular } of pairs) {
        if (hasVersion && singular.version === resource.version && singular.resource === resource.resource) ret.push(plural);
        else if (!hasVersion && singular.resource === resource.resource) ret.push(plural);
        if (hasVersion && plural.version === resource.version && plural.resource === resource.resource) ret.push(plural);
        else if (!hasVersion && plural.resource === resource.resource) ret.push(plural);
      }
    }
    if (ret.length === 0) throw new NoResourceMatchError(resource);
    return ret.sort((a, b) => byPreferredGroupVersion(a, b, a.resource, b.resource, this.defaultGroupVersions));
  }

  resourceFor(resource: GroupVersionResource): GroupVersionResource {
    const resources = this.resourcesFor(resource);
    if (resources.length === 1 && resources[0] !== undefined) return resources[0];
    throw new AmbiguousResourceError(resource, resources);
  }

  kindsFor(input: GroupVersionResource): GroupVersionKind[] {
    const resource = coerceResourceForMatching(input);
    if (resource.resource === '') throw new Error(`a resource must be present, got: ${gvrString(resource)}`);
    const ret: GroupVersionKind[] = [];
    const entries = [...this.resourceToKind.values()];
    const hasGroup = resource.group !== '';
    const hasVersion = resource.version !== '';
    if (hasGroup && hasVersion) {
      const hit = this.resourceToKind.get(gvrKey(resource));
      if (hit !== undefined) ret.push(hit.kind);
    } else if (hasGroup) {
      let exact = false;
      for (const e of entries) {
        if (e.resource.group === resource.group && e.resource.resource === resource.resource) {
          exact = true;
          ret.push(e.kind);
        }
      }
      if (!exact) {
        for (const e of entries) {
          if (e.resource.group.startsWith(resource.group) && e.resource.resource === resource.resource) ret.push(e.kind);
        }
      }
    } else {
      for (const e of entries) {
        if (e.resource.resource !== resource.resource) continue;
        if (!hasVersion || e.resource.version === resource.version) ret.push(e.kind);
      }
    }
    if (ret.length === 0) throw new NoResourceMatchError(input);
    return ret.sort((a, b) => byPreferredGroupVersion(a, b, a.kind, b.kind, this.defaultGroupVersions));
  }

  kindFor(resource: GroupVersionResource): GroupVersionKind {
    const kinds = this.kindsFor(resource);
    if (kinds.length === 1 && kinds[0] !== undefined) return kinds[0];
    throw new AmbiguousResourceError(resource, [], kinds);
  }

  restMapping(gk: GroupKind, ...versions: string[]): RESTMapping {
    const mappings = this.restMappings(gk, ...versions);
    const first = mappings[0];
    if (first === undefined) throw new NoKindMatchError(gk, versions);
    return first;
  }

  /**
   * The mappings of a kind: the first of `versions` this mapper knows, or, when no version was
   * given, every default group version of the kind's group.
   */
  restMappings(gk: GroupKind, ...versions: string[]): RESTMapping[] {
    const potential: GroupVersionKind[] = [];
    let hadVersion = false;
    for (const version of versions) {
      if (version === '' || version === INTERNAL_VERSION) continue;
      hadVersion = true;
      const gvk = { ...gk, version };
      if (this.kindToPluralResource.has(gvkKey(gvk))) {
        potential.push(gvk);
        break;
      }
    }
    if (!hadVersion && potential.length === 0) {
      for (const gv of this.defaultGroupVersions) if (gv.group === gk.group) potential.push({ group: gk.group, version: gv.version, kind: gk.kind });
    }
    if (potential.length === 0) throw new NoKindMatchError(gk, versions);
    const mappings: RESTMapping[] = [];
    for (const gvk of potential) {
      const resource = this.kindToPluralResource.get(gvkKey(gvk));
      if (resource === undefined) continue;
      const scope = this.kindToScope.get(gvkKey(gvk));
      if (scope === undefined) throw new Error(`the provided version "${gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`}" and kind "${gvk.kind}" cannot be mapped to a supported scope`);
      mappings.push({ resource, groupVersionKind: gvk, scope });
    }
    if (mappings.length === 0) throw new NoResourceMatchError({ group: gk.group, version: '', resource: gk.kind });
    return mappings;
  }
}

/** runtime.APIVersionInternal: never a served version. */
const INTERNAL_VERSION = '__internal';

function coerceResourceForMatching(r: GroupVersionResource): GroupVersionResource {
  return { group: r.group, version: r.version === INTERNAL_VERSION ? '' : r.version, resource: r.resource.toLowerCase() };
}

function isGVR(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

function isEmptyGVR(r: GroupVersionResource): boolean {
  return r.group === '' && r.version === '' && r.resource === '';
}

function goResources(rs: readonly GroupVersionResource[]): string {
  return `[${rs.map(gvrString).join(' ')}]`;
}

/** Orders by the position of the group version among the defaults (unknown last), then by name. */
function byPreferredGroupVersion(a: GroupVersion, b: GroupVersion, nameA: string, nameB: string, order: readonly GroupVersion[]): number {
  if (sameGV(a, b)) return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
  const ia = order.findIndex((gv) => sameGV(gv, a));
  const ib = order.findIndex((gv) => sameGV(gv, b));
  const ka = ia === -1 ? Number.MAX_SAFE_INTEGER : ia;
  const kb = ib === -1 ? Number.MAX_SAFE_INTEGER : ib;
  return ka - kb;
}
