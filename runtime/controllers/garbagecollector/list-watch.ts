import type { ListWatch } from '../../client/cache.js';
import type { List, ListOptions, Watch, WatchEvent } from '../../client/types.js';
import type { RequestContext, StandardStorage } from '../../registry/rest.js';
import type { WatchEvent as StorageWatchEvent } from '../../storage/index.js';
import { LIST_EVERYTHING } from '../../registry/resources.js';
import { metadataOf, type ObjectMetadata } from './metadata.js';

/**
 * A ListWatch over a resource's REST storage, in process, across all namespaces, yielding
 * metadata only: what a reflector needs to keep a metadata informer of any served resource,
 * custom resources included, without knowing its versions (metadata is the same in all).
 */
export function storageListWatch(
  storage: Pick<StandardStorage, 'list' | 'watch'>,
  context: (namespace: string, parent: { readonly signal: AbortSignal }) => RequestContext,
): ListWatch<ObjectMetadata> {
  const ctxFor = (o: ListOptions): RequestContext => context('', { signal: o.signal ?? new AbortController().signal });
  return {
    list: async (o): Promise<List<ObjectMetadata>> => {
      const list = await storage.list(ctxFor(o), {
        ...LIST_EVERYTHING,
        predicate: { ...LIST_EVERYTHING.predicate, ...(o.limit !== undefined ? { limit: o.limit } : {}), ...(o.continue !== undefined ? { continue: o.continue } : {}) },
        resourceVersion: o.resourceVersion ?? '',
        resourceVersionMatch: o.resourceVersionMatch ?? '',
      });
      return { apiVersion: 'v1', kind: 'List', metadata: list.metadata, items: list.items.map(metadataOf) } as List<ObjectMetadata>;
    },
    watch: async (o): Promise<Watch<ObjectMetadata>> => {
      const watcher = await storage.watch(ctxFor(o), {
        ...LIST_EVERYTHING,
        predicate: { ...LIST_EVERYTHING.predicate, allowWatchBookmarks: o.allowWatchBookmarks ?? false },
        resourceVersion: o.resourceVersion ?? '',
        resourceVersionMatch: o.resourceVersionMatch ?? '',
        allowWatchBookmarks: o.allowWatchBookmarks ?? false,
        sendInitialEvents: o.sendInitialEvents,
        timeoutSeconds: o.timeoutSeconds ?? 0,
      });
      return {
        stop: () => watcher.stop(),
        async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<ObjectMetadata>> {
          for await (const ev of watcher) yield toMetadataEvent(ev);
        },
      };
    },
  };
}

function toMetadataEvent(ev: StorageWatchEvent): WatchEvent<ObjectMetadata> {
  switch (ev.type) {
    case 'ERROR':
      return ev;
    case 'BOOKMARK':
      return { type: 'BOOKMARK', object: { metadata: { ...(ev.object.metadata ?? {}) } } };
    default:
      return { type: ev.type, object: metadataOf(ev.object) };
  }
}
