import { AggregateError, AmbiguousKindError, AmbiguousResourceError, isNoMatchError, NoKindMatchError, NoResourceMatchError } from './errors.js';
import { sameGVK, sameGVR, type GroupKind, type GroupVersionKind, type GroupVersionResource } from './schema.js';
import type { RESTMapping, StaticRESTMapper } from './types.js';

/**
 * Several mappers asked in order (meta.MultiRESTMapper): answers are the union, first seen
 * first; a mapper that has no match is skipped, any other error ends the question.
 */
export class MultiRESTMapper implements StaticRESTMapper {
  constructor(readonly mappers: readonly StaticRESTMapper[]) {}

  resourceSingularizer(resource: string): string {
    let last: unknown;
    for (const m of this.mappers) {
      try {
        return m.resourceSingularizer(resource);
      } catch (e) {
        last = e;
      }
    }
    if (last !== undefined) throw last as Error;
    return '';
  }

  resourcesFor(resource: GroupVersionResource): GroupVersionResource[] {
    const all = this.union((m) => m.resourcesFor(resource), sameGVR);
    if (all.length === 0) throw new NoResourceMatchError(resource);
    return all;
  }

  kindsFor(resource: GroupVersionResource): GroupVersionKind[] {
    const all = this.union((m) => m.kindsFor(resource), sameGVK);
    if (all.length === 0) throw new NoResourceMatchError(resource);
    return all;
  }

  resourceFor(resource: GroupVersionResource): GroupVersionResource {
    const resources = this.resourcesFor(resource);
    if (resources.length === 1 && resources[0] !== undefined) return resources[0];
    throw new AmbiguousResourceError(resource, resources);
  }

  kindFor(resource: GroupVersionResource): GroupVersionKind {
    const kinds = this.kindsFor(resource);
    if (kinds.length === 1 && kinds[0] !== undefined) return kinds[0];
    throw new AmbiguousResourceError(resource, [], kinds);
  }

  restMapping(gk: GroupKind, ...versions: string[]): RESTMapping {
    const all: RESTMapping[] = [];
    const errors: Error[] = [];
    for (const m of this.mappers) {
      try {
        all.push(m.restMapping(gk, ...versions));
      } catch (e) {
        if (!isNoMatchError(e)) errors.push(e as Error);
      }
    }
    if (all.length === 1 && all[0] !== undefined) return all[0];
    if (all.length > 1)
      throw new AmbiguousKindError(
        { ...gk, version: '' },
        [],
        all.map((m) => m.groupVersionKind),
      );
    if (errors.length > 0) throw new AggregateError(errors);
    throw new NoKindMatchError(gk, versions);
  }

  restMappings(gk: GroupKind, ...versions: string[]): RESTMapping[] {
    const all: RESTMapping[] = [];
    const errors: Error[] = [];
    for (const m of this.mappers) {
      try {
        all.push(...m.restMappings(gk, ...versions));
      } catch (e) {
        if (!isNoMatchError(e)) errors.push(e as Error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    if (all.length === 0) throw new NoKindMatchError(gk, versions);
    return all;
  }

  reset(): void {
    for (const m of this.mappers) m.reset?.();
  }

  private union<T>(ask: (m: StaticRESTMapper) => T[], same: (a: T, b: T) => boolean): T[] {
    const all: T[] = [];
    for (const m of this.mappers) {
      let found: T[];
      try {
        found = ask(m);
      } catch (e) {
        if (isNoMatchError(e)) continue;
        throw e;
      }
      for (const x of found) if (!all.some((y) => same(x, y))) all.push(x);
    }
    return all;
  }
}
