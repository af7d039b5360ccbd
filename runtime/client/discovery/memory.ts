import type { APIGroupList, APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { isTooManyRequests, isStatusError } from '../../apimachinery/errors/index.js';
import { TransportError } from '../rest/errors.js';
import { CachedDiscoveryBase } from './cached-base.js';
import { isAggregatedDiscovery, type AggregatedDiscoveryInterface, type GroupsAndMaybeResources } from './types.js';

/** A group version the cache does not hold (memory.ErrCacheNotFound). */
export class CacheNotFoundError extends Error {
  override readonly name = 'CacheNotFoundError';

  constructor() {
    super('not found');
  }
}

/** A group version that answered with no resources; cached as a failure, as client-go does. */
export class EmptyResponseError extends Error {
  override readonly name = 'EmptyResponseError';

  constructor(readonly groupVersion: string) {
    super(`received empty response for: ${groupVersion}`);
  }
}

interface Entry {
  readonly list: APIResourceList | undefined;
  readonly error: Error | undefined;
}

/**
 * Discovery held in memory until invalidate() (client-go's discovery/cached/memory): the first
 * question loads every group version (one aggregated request when the server offers it); later
 * ones are answered from memory, except group versions that failed transiently (5xx, 429,
 * connection refused or reset), which are asked again.
 */
export class MemCacheClient extends CachedDiscoveryBase implements AggregatedDiscoveryInterface {
  private entries = new Map<string, Entry>();
  private groupList: APIGroupList | undefined;
  private valid = false;
  private aggregated = false;
  /** The refresh under way; concurrent questions wait for it instead of starting another. */
  private refreshing: Promise<void> | undefined;
  /** Bumped by invalidate(), so a refresh that started before it does not install stale data. */
  private generation = 0;

  async serverResourcesForGroupVersion(groupVersion: string): Promise<APIResourceList> {
    await this.ensure();
    let entry = this.entries.get(groupVersion);
    if (entry === undefined) throw new CacheNotFoundError();
    if (entry.error !== undefined && isTransientError(entry.error)) {
      entry = await this.fetch(groupVersion);
      this.entries.set(groupVersion, entry);
    }
    if (entry.error !== undefined) throw entry.error;
    return entry.list as APIResourceList;
  }

  async groupsAndMaybeResources(): Promise<GroupsAndMaybeResources> {
    await this.ensure();
    const groups = this.groupList ?? { groups: [] };
    if (!this.aggregated || this.entries.size === 0) return { groups, resources: undefined, failed: new Map() };
    const resources = new Map<string, APIResourceList>();
    const failed = new Map<string, Error>();
    for (const [gv, e] of this.entries) {
      if (e.error !== undefined) failed.set(gv, e.error);
      else if (e.list !== undefined) resources.set(gv, e.list);
    }
    return { groups, resources, failed };
  }

  async serverGroups(): Promise<APIGroupList> {
    return (await this.groupsAndMaybeResources()).groups;
  }

  fresh(): boolean {
    return this.valid;
  }

  invalidate(): void {
    this.generation++;
    this.valid = false;
    this.entries = new Map();
    this.groupList = undefined;
    this.aggregated = false;
    this.refreshing = undefined;
    this.invalidateDelegate();
  }

  private ensure(): Promise<void> {
    if (this.valid) return Promise.resolve();
    if (this.refreshing !== undefined) return this.refreshing;
    const current = this.refresh().finally(() => {
      // An invalidate() meanwhile may have started another refresh: leave that one in place.
      if (this.refreshing === current) this.refreshing = undefined;
    });
    this.refreshing = current;
    return current;
  }

  private async refresh(): Promise<void> {
    const generation = this.generation;
    let groups: APIGroupList;
    if (isAggregatedDiscovery(this.delegate)) {
      const answer = await this.delegate.groupsAndMaybeResources();
      groups = answer.groups;
      if (answer.resources !== undefined) {
        if (generation !== this.generation) return;
        const entries = new Map<string, Entry>();
        for (const [gv, list] of answer.resources) entries.set(gv, { list, error: undefined });
        for (const [gv, error] of answer.failed) entries.set(gv, { list: undefined, error });
        this.install(entries, groups, true);
        return;
      }
    } else {
      groups = await this.delegate.serverGroups();
    }
    if (groups.groups.length === 0) return;
    const entries = new Map<string, Entry>();
    await Promise.all(groups.groups.flatMap((g) => g.versions.map(async (v) => entries.set(v.groupVersion, await this.fetch(v.groupVersion)))));
    if (generation !== this.generation) return;
    this.install(entries, groups, false);
  }

  private install(entries: Map<string, Entry>, groups: APIGroupList, aggregated: boolean): void {
    this.entries = entries;
    this.groupList = groups;
    this.aggregated = aggregated;
    this.valid = true;
  }

  private async fetch(groupVersion: string): Promise<Entry> {
    try {
      const list = await this.delegate.serverResourcesForGroupVersion(groupVersion);
      if (list.resources.length === 0) return { list, error: new EmptyResponseError(groupVersion) };
      return { list, error: undefined };
    } catch (e) {
      return { list: undefined, error: e instanceof Error ? e : new Error(String(e)) };
    }
  }
}

/** Failures worth asking again (memcache's isTransientError): aborts, refused or reset connections, 5xx and 429 answers. */
function isTransientError(err: Error): boolean {
  if (err.name === 'AbortError') return true;
  if (err instanceof TransportError) return err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET' || err.code === 'ETIMEDOUT';
  if (isStatusError(err)) return err.status.code >= 500 || isTooManyRequests(err);
  return false;
}
