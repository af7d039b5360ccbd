import { everything, type Selector } from '../apimachinery/labels/index.js';
import type { Indexer } from './cache.js';
import type { DeepReadonly, ResourceDescriptor } from './types.js';

/** The key an informer stores an object under: `namespace/name`, or `name` when cluster-scoped. */
export function metaNamespaceKey(namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

/** Raised by a lister's get when the cache has no such object (a 404 in client-go's terms). */
export class ListerNotFoundError extends Error {
  readonly reason = 'NotFound';
  constructor(
    readonly resource: ResourceDescriptor,
    readonly objectName: string,
  ) {
    const gr = resource.group === '' ? resource.resource : `${resource.resource}.${resource.group}`;
    super(`${gr} "${objectName}" not found`);
    this.name = 'ListerNotFoundError';
  }
}

type WithMeta = { metadata?: { name?: string; namespace?: string; labels?: Readonly<Record<string, string>> } };

function labelsOf(obj: DeepReadonly<WithMeta>): Readonly<Record<string, string>> {
  return obj.metadata?.labels ?? {};
}

/** Lists objects of a cluster-scoped resource, or of all namespaces, from an informer's indexer. */
export class ClusterLister<T extends WithMeta> {
  constructor(
    protected readonly indexer: Indexer<T>,
    protected readonly resource: ResourceDescriptor,
  ) {}

  /** Objects matching `selector` (everything when absent). The result is shared: treat it as read-only. */
  list(selector: Selector = everything()): readonly DeepReadonly<T>[] {
    return this.indexer.list().filter((o) => selector.matchesSet(labelsOf(o as DeepReadonly<WithMeta>)));
  }

  /** The object named `name`; throws ListerNotFoundError when the cache has none. */
  get(name: string): DeepReadonly<T> {
    const found = this.indexer.getByKey(name);
    if (found === undefined) throw new ListerNotFoundError(this.resource, name);
    return found;
  }
}

/** Lists objects of a namespaced resource across namespaces, and narrows to one. */
export class NamespacedLister<T extends WithMeta> {
  constructor(
    protected readonly indexer: Indexer<T>,
    protected readonly resource: ResourceDescriptor,
  ) {}

  list(selector: Selector = everything()): readonly DeepReadonly<T>[] {
    return this.indexer.list().filter((o) => selector.matchesSet(labelsOf(o as DeepReadonly<WithMeta>)));
  }

  namespace(namespace: string): NamespaceLister<T> {
    return new NamespaceLister(this.indexer, this.resource, namespace);
  }
}

/** Objects of one namespace, through the informer's `namespace` index. */
export class NamespaceLister<T extends WithMeta> {
  constructor(
    private readonly indexer: Indexer<T>,
    private readonly resource: ResourceDescriptor,
    readonly namespaceName: string,
  ) {}

  list(selector: Selector = everything()): readonly DeepReadonly<T>[] {
    return this.indexer.byIndex('namespace', this.namespaceName).filter((o) => selector.matchesSet(labelsOf(o as DeepReadonly<WithMeta>)));
  }

  get(name: string): DeepReadonly<T> {
    const found = this.indexer.getByKey(metaNamespaceKey(this.namespaceName, name));
    if (found === undefined) throw new ListerNotFoundError(this.resource, name);
    return found;
  }
}
