import type { ObjectLookup } from '../admission/types.js';
import { isNotFound } from '../apimachinery/errors/index.js';
import * as fields from '../apimachinery/fields/index.js';
import * as labels from '../apimachinery/labels/index.js';
import type { InternalListOptions, RequestContext, ResourceStorage } from './rest.js';
import type { RESTStorageOverride } from './types.js';
import type { TTLFunc } from './generic/store.js';
import type { Interface as StorageInterface } from '../storage/index.js';

/** One served resource: its REST storages and the storage.Interface under them. */
export interface InstalledResource {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** The verbs the resource serves (discovery's); absent: every verb of a stored resource (custom resources). */
  readonly verbs?: readonly string[];
  readonly rest: ResourceStorage;
  readonly storage: StorageInterface;
  /** What the group's REST override for the kind returned (its `storages` are `rest`); absent: the generic store. */
  readonly override?: RESTStorageOverride;
  /** The time to live the kind's writes give its objects; absent: forever. Kinds stored as this resource's objects share it. */
  readonly ttl?: TTLFunc;
}

/** List options selecting every object at the latest revision: what in-process consumers read with. */
export const LIST_EVERYTHING: InternalListOptions = {
  predicate: { label: labels.everything(), field: fields.everything() },
  resourceVersion: '',
  resourceVersionMatch: '',
  allowWatchBookmarks: false,
  sendInitialEvents: undefined,
  timeoutSeconds: 0,
};

/** LIST_EVERYTHING at resourceVersion 0: whatever the watch cache holds, without a round trip to storage. */
const LIST_FROM_CACHE: InternalListOptions = { ...LIST_EVERYTHING, resourceVersion: '0' };

/**
 * Every resource the chain serves, by group and resource: what in-process consumers (admission
 * lookups, the namespace controller, storage metrics) use instead of reaching into servers.
 * CRDs add and remove entries while serving.
 */
export class ResourceRegistry {
  private readonly byKey = new Map<string, InstalledResource>();

  constructor(private readonly systemContext: (namespace: string, parent: { readonly signal: AbortSignal }) => RequestContext) {}

  add(r: InstalledResource): void {
    this.byKey.set(key(r), r);
  }

  remove(gr: { group: string; resource: string }): void {
    this.byKey.delete(key(gr));
  }

  get(gr: { group: string; resource: string }): InstalledResource | undefined {
    return this.byKey.get(key(gr));
  }

  all(): readonly InstalledResource[] {
    return [...this.byKey.values()];
  }

  /**
   * The resources that hold objects one can list, watch and delete (kube's GetDeletableResources):
   * what the garbage collector follows and the namespace controller empties. The review APIs,
   * which only answer creates, are not among them.
   */
  deletable(): readonly InstalledResource[] {
    return this.all().filter((r) => r.verbs === undefined || ['list', 'watch', 'delete'].every((v) => r.verbs!.includes(v)));
  }

  /** Object counts per `resource.group` for apiserver_storage_objects. */
  async objectCounts(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const r of this.byKey.values()) {
      const stats = await r.storage.stats().catch(() => undefined);
      if (stats !== undefined) counts.set(key(r), stats.objectCount);
    }
    return counts;
  }

  /** Read access for admission plugins, through the same REST storages clients use. */
  lookup(): ObjectLookup {
    const getAt = async (resourceVersion: string, gr: { group: string; resource: string }, namespace: string, name: string, ctx: { readonly signal: AbortSignal }) => {
      const r = this.require(gr);
      try {
        return await r.rest.main.get(this.systemContext(namespace, ctx), name, { resourceVersion });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    };
    return {
      get: (gr, namespace, name, ctx) => getAt('', gr, namespace, name, ctx),
      getCached: (gr, namespace, name, ctx) => getAt('0', gr, namespace, name, ctx),
      list: async (gr, namespace, ctx) => (await this.require(gr).rest.main.list(this.systemContext(namespace, ctx), LIST_FROM_CACHE)).items,
    };
  }

  private require(gr: { group: string; resource: string }): InstalledResource {
    const r = this.get(gr);
    if (r === undefined) throw new Error(`resource ${key(gr)} is not installed`);
    return r;
  }
}

function key(gr: { group: string; resource: string }): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}
