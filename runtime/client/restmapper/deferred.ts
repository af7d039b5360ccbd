import type { CachedDiscoveryInterface } from '../discovery/types.js';
import { getAPIGroupResources, newDiscoveryRESTMapper } from './discovery.js';
import type { GroupKind, GroupVersionKind, GroupVersionResource } from './schema.js';
import type { RESTMapper, RESTMapping, StaticRESTMapper } from './types.js';

/**
 * A discovery REST mapper built on first use (restmapper.DeferredDiscoveryRESTMapper). A miss
 * answered from a cache that is not fresh resets the mapper, invalidating the cache, and asks
 * again: a kind added since the cache was written (a new CRD) is found on the second try.
 */
export class DeferredDiscoveryRESTMapper implements RESTMapper {
  private delegate: Promise<StaticRESTMapper> | undefined;

  constructor(readonly discovery: CachedDiscoveryInterface) {}

  /** Forgets the mapper and the discovery cache. */
  reset(): void {
    this.discovery.invalidate();
    this.delegate = undefined;
  }

  kindFor(resource: GroupVersionResource): Promise<GroupVersionKind> {
    return this.ask((m) => m.kindFor(resource), onError);
  }

  kindsFor(resource: GroupVersionResource): Promise<GroupVersionKind[]> {
    return this.ask((m) => m.kindsFor(resource), onEmpty);
  }

  resourceFor(input: GroupVersionResource): Promise<GroupVersionResource> {
    return this.ask((m) => m.resourceFor(input), onError);
  }

  resourcesFor(input: GroupVersionResource): Promise<GroupVersionResource[]> {
    return this.ask((m) => m.resourcesFor(input), onEmpty);
  }

  restMapping(gk: GroupKind, ...versions: string[]): Promise<RESTMapping> {
    return this.ask((m) => m.restMapping(gk, ...versions), onError);
  }

  restMappings(gk: GroupKind, ...versions: string[]): Promise<RESTMapping[]> {
    return this.ask((m) => m.restMappings(gk, ...versions), onEmpty);
  }

  resourceSingularizer(resource: string): Promise<string> {
    return this.ask((m) => m.resourceSingularizer(resource), onError);
  }

  private getDelegate(): Promise<StaticRESTMapper> {
    const current = (this.delegate ??= getAPIGroupResources(this.discovery).then(newDiscoveryRESTMapper));
    // A failed discovery is not kept: the next question asks again.
    current.catch(() => {
      if (this.delegate === current) this.delegate = undefined;
    });
    return current;
  }

  /**
   * Asks the mapper; when `retry` says the answer is a miss and the cache was not fresh, resets
   * and asks once more. client-go recurses until the cache is fresh; a cache that never becomes
   * fresh (a server listing no groups leaves the memory cache invalid) would recurse forever, so
   * here one reset per question is the bound.
   */
  private async ask<T>(f: (m: StaticRESTMapper) => T, retry: Retry, resets = 1): Promise<T> {
    const m = await this.getDelegate();
    let result: T | undefined;
    let error: unknown;
    let failed = false;
    try {
      result = f(m);
    } catch (e) {
      error = e;
      failed = true;
    }
    if (resets > 0 && retry(failed, result) && !this.discovery.fresh()) {
      this.reset();
      return this.ask(f, retry, resets - 1);
    }
    if (failed) throw error;
    return result as T;
  }
}

type Retry = (failed: boolean, result: unknown) => boolean;

/** The single-answer methods retry on any error. */
const onError: Retry = (failed) => failed;
/** The list methods retry when they found nothing, as client-go's (they check the length, not the error). */
const onEmpty: Retry = (failed, result) => failed || (Array.isArray(result) && result.length === 0);
