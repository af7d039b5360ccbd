import type { GroupKind, GroupVersionKind, GroupVersionResource } from './schema.js';

/** Whether a resource lives in namespaces (meta.RESTScopeNameNamespace) or at the root. */
export type RESTScopeName = 'namespace' | 'root';

/** How to reach a kind: its resource and scope (meta.RESTMapping). */
export interface RESTMapping {
  readonly resource: GroupVersionResource;
  readonly groupVersionKind: GroupVersionKind;
  readonly scope: RESTScopeName;
}

/**
 * A mapper that answers from what it holds (meta.RESTMapper): DefaultRESTMapper and the
 * multi and priority mappers built from discovery. Partial inputs leave group or version empty.
 * Failures throw NoResourceMatchError, NoKindMatchError or an ambiguity error.
 */
export interface StaticRESTMapper {
  kindFor(resource: GroupVersionResource): GroupVersionKind;
  kindsFor(resource: GroupVersionResource): GroupVersionKind[];
  resourceFor(input: GroupVersionResource): GroupVersionResource;
  resourcesFor(input: GroupVersionResource): GroupVersionResource[];
  restMapping(gk: GroupKind, ...versions: string[]): RESTMapping;
  restMappings(gk: GroupKind, ...versions: string[]): RESTMapping[];
  resourceSingularizer(resource: string): string;
  /** Drops what the mapper learnt from discovery, when it can (meta.ResettableRESTMapper). */
  reset?(): void;
}

/**
 * A mapper that may ask the server first (DeferredDiscoveryRESTMapper, the shortcut expander):
 * the same questions, answered asynchronously.
 */
export interface RESTMapper {
  kindFor(resource: GroupVersionResource): Promise<GroupVersionKind>;
  kindsFor(resource: GroupVersionResource): Promise<GroupVersionKind[]>;
  resourceFor(input: GroupVersionResource): Promise<GroupVersionResource>;
  resourcesFor(input: GroupVersionResource): Promise<GroupVersionResource[]>;
  restMapping(gk: GroupKind, ...versions: string[]): Promise<RESTMapping>;
  restMappings(gk: GroupKind, ...versions: string[]): Promise<RESTMapping[]>;
  resourceSingularizer(resource: string): Promise<string>;
  reset?(): void;
}

/** An asynchronous view of a static mapper, for code that takes either. */
export function asyncMapper(m: StaticRESTMapper): RESTMapper {
  const run = <T>(f: () => T): Promise<T> => {
    try {
      return Promise.resolve(f());
    } catch (e) {
      return Promise.reject(e as Error);
    }
  };
  return {
    kindFor: (r) => run(() => m.kindFor(r)),
    kindsFor: (r) => run(() => m.kindsFor(r)),
    resourceFor: (r) => run(() => m.resourceFor(r)),
    resourcesFor: (r) => run(() => m.resourcesFor(r)),
    restMapping: (gk, ...v) => run(() => m.restMapping(gk, ...v)),
    restMappings: (gk, ...v) => run(() => m.restMappings(gk, ...v)),
    resourceSingularizer: (r) => run(() => m.resourceSingularizer(r)),
    reset: () => m.reset?.(),
  };
}
