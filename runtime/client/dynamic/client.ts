import { ResourceClient, resourcePath } from '../resource-client.js';
import type { GroupVersionResource } from '../restmapper/schema.js';
import type { ApplyOptions, CreateOptions, DeleteOptions, GetOptions, ListOptions, PatchOptions, PatchType, ResourceDescriptor, RESTClient, RESTRequest, UpdateOptions, Watch } from '../types.js';
import { asUnstructured, asUnstructuredList, type Unstructured, type UnstructuredList } from './unstructured.js';

/**
 * The dynamic client (client-go's dynamic.DynamicClient): every resource by its
 * GroupVersionResource, objects as unstructured JSON. The verbs are the typed clients' own
 * (ResourceClient); this layer adds what the typed clients have no need for: resources named at
 * run time, arbitrary subresources, names checked before they become path segments, and answers
 * checked to be objects with a kind. Server errors are the REST client's StatusErrors.
 */
export class DynamicClient {
  constructor(readonly rest: RESTClient) {}

  /** All namespaces (or a cluster-scoped resource) until namespace() narrows it. */
  resource(gvr: GroupVersionResource): DynamicResourceClient {
    return new DynamicResourceClient(this.rest, gvr, '');
  }
}

/** One resource, in one namespace or in none (dynamic.ResourceInterface). */
export class DynamicResourceClient {
  private readonly typed: ResourceClient<Unstructured>;
  private readonly descriptor: ResourceDescriptor;

  constructor(
    private readonly rest: RESTClient,
    readonly gvr: GroupVersionResource,
    /** '' for all namespaces or a cluster-scoped resource: the path then has no namespace segment. */
    readonly ns: string,
  ) {
    // The path has a namespace segment exactly when a namespace was given, whatever the resource's scope.
    this.descriptor = { group: gvr.group, version: gvr.version, resource: gvr.resource, kind: '', namespaced: ns !== '' };
    this.typed = new ResourceClient<Unstructured>(rest, this.descriptor, ns === '' ? undefined : ns);
  }

  namespace(ns: string): DynamicResourceClient {
    return new DynamicResourceClient(this.rest, this.gvr, ns);
  }

  /** POST to the collection; with subresources, to `<name>/<subresources…>` of the object's name. */
  async create(obj: Unstructured, options: CreateOptions = {}, ...subresources: string[]): Promise<Unstructured> {
    if (subresources.length === 0) {
      this.validate();
      return asUnstructured(await this.typed.create(obj, options));
    }
    const name = requireName(obj.metadata?.name);
    this.validate(name);
    return asUnstructured(await this.rest.request({ method: 'POST', path: this.path(name, subresources), body: obj, query: writeQuery(options), signal: options.signal }));
  }

  async update(obj: Unstructured, options: UpdateOptions = {}, ...subresources: string[]): Promise<Unstructured> {
    const name = requireName(obj.metadata?.name);
    this.validate(name);
    if (subresources.length === 0) return asUnstructured(await this.typed.update(obj, options));
    return asUnstructured(await this.rest.request({ method: 'PUT', path: this.path(name, subresources), body: obj, query: writeQuery(options), signal: options.signal }));
  }

  async updateStatus(obj: Unstructured, options: UpdateOptions = {}): Promise<Unstructured> {
    this.validate(requireName(obj.metadata?.name));
    return asUnstructured(await this.typed.updateStatus(obj, options));
  }

  async delete(name: string, options: DeleteOptions = {}, ...subresources: string[]): Promise<void> {
    this.validate(requireName(name));
    if (subresources.length === 0) return this.typed.delete(name, options);
    await this.rest.request<unknown>({ method: 'DELETE', path: this.path(name, subresources), body: { apiVersion: 'v1', kind: 'DeleteOptions', ...options } });
  }

  async deleteCollection(options: DeleteOptions = {}, listOptions: ListOptions = {}): Promise<void> {
    this.validate();
    return this.typed.deleteCollection(options, listOptions);
  }

  async get(name: string, options: GetOptions = {}, ...subresources: string[]): Promise<Unstructured> {
    this.validate(requireName(name));
    if (subresources.length === 0) return asUnstructured(await this.typed.get(name, options));
    return asUnstructured(await this.rest.request({ method: 'GET', path: this.path(name, subresources), query: { resourceVersion: options.resourceVersion }, signal: options.signal }));
  }

  async list(options: ListOptions = {}): Promise<UnstructuredList> {
    this.validate();
    return asUnstructuredList(await this.typed.list(options));
  }

  async watch(options: ListOptions = {}): Promise<Watch<Unstructured>> {
    this.validate();
    return this.typed.watch(options);
  }

  /** A patch of any type; `data` is sent as it is when a string or bytes, as JSON otherwise. */
  async patch(name: string, type: PatchType, data: unknown, options: PatchOptions = {}, ...subresources: string[]): Promise<Unstructured> {
    this.validate(requireName(name));
    if (subresources.length === 0) return asUnstructured(await this.typed.patch(name, type, data, options));
    return asUnstructured(await this.rest.request(patchRequest(this.path(name, subresources), type, data, options)));
  }

  /**
   * Server-side apply of `obj` to `name`. An object that still carries managedFields is refused
   * (applying it would claim every field it lists): extract the manager's fields first.
   */
  async apply(name: string, obj: Unstructured, options: ApplyOptions, ...subresources: string[]): Promise<Unstructured> {
    this.validate(requireName(name));
    const managed = obj.metadata?.managedFields;
    if (Array.isArray(managed) && managed.length > 0) {
      throw new Error(
        'cannot apply an object with managed fields already set.\n\t\tUse the client-go/applyconfigurations "UnstructructuredExtractor" to obtain the unstructured ApplyConfiguration for the given field manager that you can use/modify here to apply',
      );
    }
    const type = 'application/apply-patch+yaml';
    if (subresources.length === 0) return asUnstructured(await this.typed.patch(name, type, obj, options));
    return asUnstructured(await this.rest.request(patchRequest(this.path(name, subresources), type, obj, options)));
  }

  applyStatus(name: string, obj: Unstructured, options: ApplyOptions): Promise<Unstructured> {
    return this.apply(name, obj, options, 'status');
  }

  private path(name: string, subresources: readonly string[]): string {
    for (const s of subresources) {
      const msgs = pathSegmentProblems(s);
      if (msgs.length > 0) throw new Error(`invalid subresource ${JSON.stringify(s)}: [${msgs.join(' ')}]`);
    }
    return [`${resourcePath(this.descriptor, this.ns === '' ? undefined : this.ns)}/${encodeURIComponent(name)}`, ...subresources].join('/');
  }

  /** The namespace and name become path segments: `.`, `..`, `/` and `%` are refused before any request (validateNamespaceWithOptionalName). */
  private validate(name?: string): void {
    const nsProblems = pathSegmentProblems(this.ns);
    if (nsProblems.length > 0) throw new Error(`invalid namespace ${JSON.stringify(this.ns)}: [${nsProblems.join(' ')}]`);
    if (name === undefined) return;
    const nameProblems = pathSegmentProblems(name);
    if (nameProblems.length > 0) throw new Error(`invalid resource name ${JSON.stringify(name)}: [${nameProblems.join(' ')}]`);
  }
}

function requireName(name: string | undefined): string {
  if (name === undefined || name === '') throw new Error('name is required');
  return name;
}

/** apimachinery's path.IsValidPathSegmentName. */
function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const out: string[] = [];
  for (const c of ['/', '%']) if (name.includes(c)) out.push(`may not contain '${c}'`);
  return out;
}

function writeQuery(o: CreateOptions | ApplyOptions): RESTRequest['query'] {
  return { dryRun: o.dryRun === true ? 'All' : undefined, fieldManager: o.fieldManager, fieldValidation: 'fieldValidation' in o ? o.fieldValidation : undefined };
}

function patchRequest(path: string, type: PatchType, body: unknown, o: PatchOptions | ApplyOptions): RESTRequest {
  return { method: 'PATCH', path, body, contentType: type, query: { ...writeQuery(o), force: o.force }, signal: o.signal };
}
