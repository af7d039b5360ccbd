import type { Scale } from '../../apis/autoscaling/v1/types.js';
import type {
  ApplyConfiguration,
  ApplyConfigurationBase,
  ApplyOptions,
  CreateOptions,
  DeleteOptions,
  GetOptions,
  List,
  ListOptions,
  PatchOptions,
  PatchType,
  ResourceDescriptor,
  RESTClient,
  RESTRequest,
  UpdateOptions,
  Watch,
} from './types.js';
import type { CollectionDeleter, Creater, Deleter, Getter, Lister, Patcher, Scaler, StatusPatcher, StatusUpdater, Updater, Watcher } from './verbs.js';

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** The collection path of a resource, in a namespace when it is namespaced. */
export function resourcePath(r: ResourceDescriptor, namespace: string | undefined): string {
  const base = groupVersionPath(r.group, r.version);
  if (!r.namespaced) return `${base}/${r.resource}`;
  if (namespace === undefined || namespace === '') return `${base}/${r.resource}`; // all namespaces, list/watch only
  return `${base}/namespaces/${encodeURIComponent(namespace)}/${r.resource}`;
}

/**
 * The generic client behind every generated typed client: verbs mapped to
 * HTTP as kube-apiserver routes them. Generated code narrows its type to the
 * verbs the resource serves; this class is tested once for all of them.
 */
export class ResourceClient<T extends { metadata?: { name?: string; namespace?: string } }, A extends ApplyConfigurationBase = ApplyConfiguration<T>>
  implements Getter<T>, Lister<T>, Watcher<T>, Creater<T>, Updater<T>, Patcher<T, A>, Deleter, CollectionDeleter, StatusUpdater<T>, StatusPatcher<T, A>, Scaler
{
  constructor(
    private readonly rest: RESTClient,
    readonly resource: ResourceDescriptor,
    /** Namespace of a namespaced client; undefined for cluster-scoped resources or all namespaces. */
    readonly namespace: string | undefined,
  ) {}

  get(name: string, options: GetOptions = {}): Promise<T> {
    return this.rest.request<T>({ method: 'GET', path: this.itemPath(name), query: { resourceVersion: options.resourceVersion }, signal: options.signal });
  }

  list(options: ListOptions = {}): Promise<List<T>> {
    return this.rest.request<List<T>>({ method: 'GET', path: this.collection(), query: listQuery(options), signal: options.signal });
  }

  watch(options: ListOptions = {}): Promise<Watch<T>> {
    return this.rest.watch<T>({ path: this.collection(), query: { ...listQuery(options), watch: true }, signal: options.signal });
  }

  create(obj: T, options: CreateOptions = {}): Promise<T> {
    return this.rest.request<T>({ method: 'POST', path: this.collection(), body: obj, query: writeQuery(options), signal: options.signal });
  }

  update(obj: T, options: UpdateOptions = {}): Promise<T> {
    return this.rest.request<T>({ method: 'PUT', path: this.itemPath(nameOf(obj)), body: obj, query: writeQuery(options), signal: options.signal });
  }

  updateStatus(obj: T, options: UpdateOptions = {}): Promise<T> {
    return this.rest.request<T>({ method: 'PUT', path: this.itemPath(nameOf(obj), 'status'), body: obj, query: writeQuery(options), signal: options.signal });
  }

  patch(name: string, type: PatchType, body: unknown, options: PatchOptions = {}): Promise<T> {
    return this.patchAt(this.itemPath(name), type, body, options);
  }

  patchStatus(name: string, type: PatchType, body: unknown, options: PatchOptions = {}): Promise<T> {
    return this.patchAt(this.itemPath(name, 'status'), type, body, options);
  }

  apply(config: A, options: ApplyOptions): Promise<T> {
    return this.patchAt(this.itemPath(config.metadata.name), 'application/apply-patch+yaml', config, options);
  }

  applyStatus(config: A, options: ApplyOptions): Promise<T> {
    return this.patchAt(this.itemPath(config.metadata.name, 'status'), 'application/apply-patch+yaml', config, options);
  }

  async delete(name: string, options: DeleteOptions = {}): Promise<void> {
    await this.rest.request<unknown>({ method: 'DELETE', path: this.itemPath(name), body: { apiVersion: 'v1', kind: 'DeleteOptions', ...options } });
  }

  async deleteCollection(options: DeleteOptions = {}, listOptions: ListOptions = {}): Promise<void> {
    await this.rest.request<unknown>({
      method: 'DELETE',
      path: this.collection(),
      query: listQuery(listOptions),
      body: { apiVersion: 'v1', kind: 'DeleteOptions', ...options },
      signal: listOptions.signal,
    });
  }

  getScale(name: string, options: GetOptions = {}): Promise<Scale> {
    return this.rest.request<Scale>({ method: 'GET', path: this.itemPath(name, 'scale'), signal: options.signal });
  }

  updateScale(name: string, scale: Scale, options: UpdateOptions = {}): Promise<Scale> {
    return this.rest.request<Scale>({ method: 'PUT', path: this.itemPath(name, 'scale'), body: scale, query: writeQuery(options), signal: options.signal });
  }

  private patchAt(path: string, type: PatchType, body: unknown, options: PatchOptions): Promise<T> {
    const req: RESTRequest = {
      method: 'PATCH',
      path,
      body,
      contentType: type,
      query: { ...writeQuery(options), force: options.force },
      signal: options.signal,
    };
    return this.rest.request<T>(req);
  }

  private collection(): string {
    return resourcePath(this.resource, this.namespace);
  }

  private itemPath(name: string, subresource?: string): string {
    if (name === '') throw new TypeError(`${this.resource.resource}: a resource name is required`);
    if (this.resource.namespaced && (this.namespace === undefined || this.namespace === '')) {
      throw new TypeError(`${this.resource.resource}: a namespace is required for a single object`);
    }
    const item = `${this.collection()}/${encodeURIComponent(name)}`;
    return subresource === undefined ? item : `${item}/${subresource}`;
  }
}

function nameOf(obj: { metadata?: { name?: string } }): string {
  return obj.metadata?.name ?? '';
}

function listQuery(o: ListOptions): RESTRequest['query'] {
  return {
    labelSelector: o.labelSelector,
    fieldSelector: o.fieldSelector,
    resourceVersion: o.resourceVersion,
    resourceVersionMatch: o.resourceVersionMatch,
    limit: o.limit,
    continue: o.continue,
    timeoutSeconds: o.timeoutSeconds,
    allowWatchBookmarks: o.allowWatchBookmarks,
    sendInitialEvents: o.sendInitialEvents,
  };
}

function writeQuery(o: CreateOptions | ApplyOptions): RESTRequest['query'] {
  return {
    dryRun: o.dryRun === true ? 'All' : undefined,
    fieldManager: o.fieldManager,
    fieldValidation: 'fieldValidation' in o ? o.fieldValidation : undefined,
  };
}
