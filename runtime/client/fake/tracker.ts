import { randomUUID } from 'node:crypto';
import type { Scale } from '../../../apis/autoscaling/v1/types.js';
import { newAlreadyExists, newBadRequest, newGenerateNameConflict, newNotFound, newResourceExpired, newUnsupportedMediaType, StatusError } from '../../apimachinery/errors/index.js';
import { formatTime } from '../../registry/generic/context.js';
import { needsNameGeneration } from '../../registry/generic/create.js';
import { cryptoRandomInt, type RandomIntFunc } from '../../registry/generic/names.js';
import { jsonEqual } from '../../registry/generic/objects.js';
import { checkName } from '../../registry/generic/update.js';
import { shouldDeleteDuringUpdate, type UpdateTarget } from '../../registry/generic/update.js';
import type { DeleteOptions, KubeObject } from '../../registry/rest.js';
import { deepFreeze } from '../../apimachinery/object.js';
import type { Watch } from '../types.js';
import { History, type HistoryEvent } from './history.js';
import { compareKeys, type ListedObjects, listObjects, parseRV, type TrackerListOptions } from './list.js';
import { decideDelete, decodeBody, groupResource, prepareCreate, prepareUpdate, resourceInfo } from './mutations.js';
import { applyPatch, patchBytes } from './patch.js';
import { type FakeResource, type GroupVersionResource, gvrString, ResourceTable } from './resources.js';
import { getScale, scaledObject } from './scale.js';
import { parseWatchSelection } from './selection.js';
import { FakeWatcher } from './watchers.js';

/** The patch types kube-apiserver accepts for custom resources, in its order. */
const CUSTOM_RESOURCE_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];

export interface ObjectTrackerOptions {
  readonly resources: readonly FakeResource[];
  /** Clock of creationTimestamp and deletionTimestamp. Default: the system clock. */
  readonly now?: () => Date;
  /** Random source of generated names. */
  readonly random?: RandomIntFunc;
  /** Changes kept for watches from an older resourceVersion and consistent list pages; older ones are 410. Default 1000. */
  readonly historyLimit?: number;
}

/** What a generated fake clientset lets a test choose: everything but the resources. */
export type FakeClientsetOptions = Omit<ObjectTrackerOptions, 'resources'>;

export interface TrackerWatchOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly resourceVersion?: string;
  readonly sendInitialEvents?: boolean;
  readonly allowWatchBookmarks?: boolean;
  /** The stream ends after this many seconds, as the server closes a watch. */
  readonly timeoutSeconds?: number;
  readonly signal?: AbortSignal;
}

export interface TrackerWriteOptions {
  readonly dryRun?: boolean;
  /** `status` writes the status subresource: everything but status comes from the stored object. */
  readonly subresource?: 'status';
}

/**
 * In-memory objects of every resource a fake clientset serves, with the API
 * server's semantics (client-go's ObjectTracker, made stricter): one
 * resourceVersion counter for all writes; uid, creationTimestamp,
 * generation and generateName as the registry sets them; 404, 409
 * AlreadyExists and 409 Conflict with kube's Status messages; selectors;
 * paginated lists; watches from a resourceVersion with a bounded history
 * (410 beyond it); status and scale subresources; finalizers and
 * deletionTimestamp on delete. Methods are synchronous, take and return
 * copies, and throw StatusError. Objects are kept per group, version and
 * resource: like client-go's tracker, versions of a group are not
 * converted into one another.
 */
export class ObjectTracker {
  readonly #table: ResourceTable;
  readonly #now: () => Date;
  readonly #random: RandomIntFunc;
  readonly #history: History;
  readonly #objects = new Map<string, Map<string, KubeObject>>();
  readonly #watchers = new Map<string, Set<FakeWatcher>>();
  #rv = 0;

  constructor(options: ObjectTrackerOptions) {
    this.#table = new ResourceTable(options.resources);
    this.#now = options.now ?? (() => new Date());
    this.#random = options.random ?? cryptoRandomInt;
    this.#history = new History(options.historyLimit ?? 1000);
  }

  /** The tracker's clock (creationTimestamp, deletionTimestamp; the field manager's managedFields times). */
  now(): Date {
    return this.#now();
  }

  /** The resources served, as given. */
  resources(): readonly FakeResource[] {
    return this.#table.all();
  }

  /** The resource of a path, or undefined when the fake does not serve it. */
  findResource(gvr: GroupVersionResource): FakeResource | undefined {
    return this.#table.find(gvr);
  }

  /** The latest resourceVersion (of the last write to any resource). */
  resourceVersion(): string {
    return String(this.#rv);
  }

  /**
   * Seeds objects as a test's starting state (kind and apiVersion pick the
   * resource; a List adds its items). An existing object is replaced. System
   * fields the object lacks are set as on create; the resourceVersion is
   * always the tracker's. Returns the stored copies.
   */
  add(...objects: readonly object[]): KubeObject[] {
    return objects.flatMap((o) => this.#addOne(decodeBody(o)));
  }

  get(gvr: GroupVersionResource, namespace: string, name: string): KubeObject {
    const r = this.#table.get(gvr);
    return structuredClone(this.#getStored(r, namespace, name));
  }

  list(gvr: GroupVersionResource, namespace: string, opts: TrackerListOptions = {}): ListedObjects {
    return listObjects(this.#listSource(), this.#table.get(gvr), namespace, opts);
  }

  create(gvr: GroupVersionResource, namespace: string, obj: unknown, opts: TrackerWriteOptions = {}): KubeObject {
    const r = this.#table.get(gvr);
    const info = resourceInfo(r, this.#now);
    const generating = needsNameGeneration(decodeBody(obj));
    for (let attempt = 0; ; attempt++) {
      const prepared = prepareCreate(info, r, namespace, obj, this.#random);
      const key = this.#key(r, String(prepared.metadata?.namespace ?? ''), String(prepared.metadata?.name ?? ''));
      const existing = this.#store(r).get(key);
      if (existing === undefined) return opts.dryRun === true ? prepared : structuredClone(this.#commit(r, key, 'ADDED', prepared, undefined));
      if (generating && attempt < 7) continue;
      const name = String(prepared.metadata?.name ?? '');
      let err = generating ? newGenerateNameConflict({ group: r.descriptor.group, resource: r.descriptor.kind }, name, 1) : newAlreadyExists(groupResource(r), name);
      if (existing.metadata?.['deletionTimestamp'] !== undefined) err = new StatusError({ ...err.status, message: `object is being deleted: ${err.status.message}` });
      throw err;
    }
  }

  /** Replaces an object (PUT); `name` defaults to the object's. */
  update(gvr: GroupVersionResource, namespace: string, obj: unknown, opts: TrackerWriteOptions & { readonly name?: string } = {}): KubeObject {
    const r = this.#table.get(gvr);
    const body = decodeBody(obj);
    const name = opts.name ?? String(body.metadata?.name ?? '');
    checkName(body, name, namespace);
    return this.#update(r, namespace, name, () => obj, opts.subresource ?? 'main', opts.dryRun === true);
  }

  /**
   * Patches an object (PATCH) with a JSON, merge or strategic merge patch (see applyPatch). Server-side
   * apply needs field ownership: FieldManagedTracker (what fake clientsets write through) does it.
   */
  patch(gvr: GroupVersionResource, namespace: string, name: string, type: string, patch: unknown, opts: TrackerWriteOptions = {}): KubeObject {
    const r = this.#table.get(gvr);
    const bytes = patchBytes(patch);
    return this.#update(r, namespace, name, (current) => this.previewPatch(gvr, current, type, bytes), opts.subresource ?? 'main', opts.dryRun === true);
  }

  /** What a non-apply patch makes of `current`, without storing it: 415 for strategic merge on custom resources, as the server answers. */
  previewPatch(gvr: GroupVersionResource, current: KubeObject, type: string, bytes: Uint8Array): unknown {
    const r = this.#table.get(gvr);
    if (type === 'application/strategic-merge-patch+json' && r.strategicMergePatch === false) throw newUnsupportedMediaType(CUSTOM_RESOURCE_PATCH_TYPES);
    return applyPatch(r.schema, structuredClone(current), type, bytes);
  }

  /** Deletes an object, or marks it deleting while finalizers remain; returns its last state. */
  delete(gvr: GroupVersionResource, namespace: string, name: string, opts: Partial<DeleteOptions> = {}): KubeObject {
    const r = this.#table.get(gvr);
    const current = this.#getStored(r, namespace, name);
    const options = completeDeleteOptions(opts);
    const decision = decideDelete(resourceInfo(r, this.#now), current, options);
    if (decision.action === 'keep') {
      if (options.dryRun || jsonEqual(decision.object, current)) return structuredClone(decision.object);
      return structuredClone(this.#commit(r, this.#key(r, namespace, name), 'MODIFIED', decision.object, current));
    }
    if (!options.dryRun) this.#commit(r, this.#key(r, namespace, name), 'DELETED', current, current);
    return structuredClone(current);
  }

  /** Deletes what a list with these options selects; returns the objects as listed. */
  deleteCollection(gvr: GroupVersionResource, namespace: string, opts: Partial<DeleteOptions> = {}, listOpts: TrackerListOptions = {}): ListedObjects {
    const listed = this.list(gvr, namespace, listOpts);
    for (const item of listed.items) {
      try {
        this.delete(gvr, String(item.metadata?.namespace ?? ''), String(item.metadata?.name ?? ''), opts);
      } catch (err) {
        if (!(err instanceof StatusError && err.reason === 'NotFound')) throw err;
      }
    }
    return listed;
  }

  /** The autoscaling/v1 Scale of an object whose resource has a scale subresource. */
  getScale(gvr: GroupVersionResource, namespace: string, name: string): Scale {
    const r = this.#table.get(gvr);
    return getScale(r, this.#getStored(r, namespace, name));
  }

  /** Writes spec replicas through a Scale (its resourceVersion, when set, is a precondition). */
  updateScale(gvr: GroupVersionResource, namespace: string, name: string, scale: unknown, opts: { readonly dryRun?: boolean } = {}): Scale {
    const r = this.#table.get(gvr);
    const updated = this.#update(r, namespace, name, (current) => scaledObject(r, current, name, scale), 'main', opts.dryRun === true);
    return getScale(r, updated);
  }

  /** Patches an object through its Scale (the patch applies to the Scale, as on the server). */
  patchScale(gvr: GroupVersionResource, namespace: string, name: string, type: string, patch: unknown, opts: { readonly dryRun?: boolean } = {}): Scale {
    const r = this.#table.get(gvr);
    const bytes = patchBytes(patch);
    const scaled = (current: KubeObject): KubeObject => scaledObject(r, current, name, applyPatch(undefined, getScale(r, current) as KubeObject, type, bytes));
    return getScale(r, this.#update(r, namespace, name, scaled, 'main', opts.dryRun === true));
  }

  /**
   * A watch of the resource in the namespace ('' for all). From "" or "0"
   * (or with sendInitialEvents) it starts with ADDED events of the current
   * objects, and a BOOKMARK marking their end for a watch-list with
   * bookmarks; from a resourceVersion it replays the later changes, or sends
   * one 410 ERROR event when the history no longer reaches back that far.
   */
  watch(gvr: GroupVersionResource, namespace: string, opts: TrackerWatchOptions = {}): Watch<KubeObject> {
    const r = this.#table.get(gvr);
    const selection = parseWatchSelection(r, opts.labelSelector, opts.fieldSelector);
    const rv = parseRV(opts.resourceVersion);
    const resourceKey = gvrString(r.descriptor);
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => watcher.channel.stop();
    // Changes up to the requested resourceVersion are never sent, even when it lies in the future.
    const watcher = new FakeWatcher(r, namespace, selection, rv, () => {
      this.#watchers.get(resourceKey)?.delete(watcher);
      if (timer !== undefined) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    });
    const fromScratch = opts.resourceVersion === undefined || opts.resourceVersion === '' || opts.resourceVersion === '0';
    const initialEvents = opts.sendInitialEvents ?? fromScratch;
    if (initialEvents) {
      watcher.sendInitial(this.#sorted(r));
      if (opts.allowWatchBookmarks === true) watcher.bookmark(this.#rv, true);
    } else if (rv > 0) {
      const later = this.#history.after(resourceKey, rv);
      if (later === undefined) {
        watcher.fail({ type: 'ERROR', object: newResourceExpired(`too old resource version: ${rv} (${this.#history.floor})`).status });
        return watcher.channel;
      }
      for (const ev of later) watcher.deliver(ev);
    }
    const set = this.#watchers.get(resourceKey) ?? new Set<FakeWatcher>();
    set.add(watcher);
    this.#watchers.set(resourceKey, set);
    if (opts.signal?.aborted === true) watcher.channel.stop();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0 && !watcher.channel.ended) {
      timer = setTimeout(() => watcher.channel.end(), opts.timeoutSeconds * 1000);
    }
    return watcher.channel;
  }

  /** Forgets the history up to rv (as an etcd compaction): watches and list pages from before it get 410. */
  compact(rv: number): void {
    this.#history.compact(Math.min(rv, this.#rv));
  }

  /** Open watches, for tests that check nothing leaks. */
  watcherCount(): number {
    let n = 0;
    for (const set of this.#watchers.values()) n += set.size;
    return n;
  }

  #update(r: FakeResource, namespace: string, name: string, next: (current: KubeObject) => unknown, target: UpdateTarget, dryRun: boolean): KubeObject {
    const key = this.#key(r, namespace, name);
    const old = this.#getStored(r, namespace, name);
    const obj = prepareUpdate(resourceInfo(r, this.#now), r, namespace, name, next(structuredClone(old)), old, target);
    if (shouldDeleteDuringUpdate(obj, old)) {
      if (!dryRun) this.#commit(r, key, 'DELETED', old, old);
      return obj;
    }
    // An update that changes nothing writes nothing: no new resourceVersion, no event.
    if (jsonEqual(obj, old)) return structuredClone(old);
    return dryRun ? obj : structuredClone(this.#commit(r, key, 'MODIFIED', obj, old));
  }

  #addOne(obj: KubeObject): KubeObject[] {
    if (Array.isArray(obj['items']) && typeof obj.kind === 'string' && obj.kind.endsWith('List')) {
      const kind = obj.kind.slice(0, -'List'.length);
      return (obj['items'] as KubeObject[]).flatMap((item) => this.#addOne({ apiVersion: obj.apiVersion, kind, ...item }));
    }
    const r = this.#table.byKind(String(obj.apiVersion ?? ''), String(obj.kind ?? ''));
    if (r === undefined) throw newBadRequest(`fake: no resource serves apiVersion ${JSON.stringify(obj.apiVersion)} kind ${JSON.stringify(obj.kind)}`);
    const meta = (obj.metadata ??= {});
    const name = typeof meta.name === 'string' ? meta.name : '';
    if (name === '') throw newBadRequest(`fake: a ${r.descriptor.kind} to add needs metadata.name`);
    const namespace = r.descriptor.namespaced ? (typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : 'default') : '';
    if (r.descriptor.namespaced) meta.namespace = namespace;
    else delete meta.namespace;
    meta.uid ??= randomUUID();
    meta['creationTimestamp'] ??= formatTime(this.#now());
    meta.generation ??= 1;
    const key = this.#key(r, namespace, name);
    const existing = this.#store(r).get(key);
    return [structuredClone(this.#commit(r, key, existing === undefined ? 'ADDED' : 'MODIFIED', obj, existing))];
  }

  /** Stores a change under a new resourceVersion, logs it and tells the watches. Returns the stored (frozen) object. */
  #commit(r: FakeResource, key: string, type: HistoryEvent['type'], obj: KubeObject, prev: KubeObject | undefined): KubeObject {
    const rv = ++this.#rv;
    const stored = deepFreeze({ ...structuredClone(obj), metadata: { ...structuredClone(obj.metadata ?? {}), resourceVersion: String(rv) } });
    if (type === 'DELETED') this.#store(r).delete(key);
    else this.#store(r).set(key, stored);
    const ev: HistoryEvent = { rv, resource: gvrString(r.descriptor), key, type, object: stored, prev };
    this.#history.append(ev);
    for (const w of this.#watchers.get(ev.resource) ?? []) w.deliver(ev);
    return stored;
  }

  #getStored(r: FakeResource, namespace: string, name: string): KubeObject {
    const obj = this.#store(r).get(this.#key(r, namespace, name));
    if (obj === undefined) throw newNotFound(groupResource(r), name);
    return obj;
  }

  #store(r: FakeResource): Map<string, KubeObject> {
    const k = gvrString(r.descriptor);
    let store = this.#objects.get(k);
    if (store === undefined) {
      store = new Map();
      this.#objects.set(k, store);
    }
    return store;
  }

  #sorted(r: FakeResource): KubeObject[] {
    return [...this.#store(r).entries()].sort(([a], [b]) => compareKeys(a, b)).map(([, o]) => o);
  }

  #key(r: FakeResource, namespace: string, name: string): string {
    return r.descriptor.namespaced ? `${namespace}/${name}` : name;
  }

  #listSource() {
    return { currentRV: this.#rv, history: this.#history, objects: (r: FakeResource) => this.#store(r) };
  }
}

function completeDeleteOptions(o: Partial<DeleteOptions>): DeleteOptions {
  return {
    dryRun: o.dryRun ?? false,
    gracePeriodSeconds: o.gracePeriodSeconds,
    preconditions: o.preconditions,
    propagationPolicy: o.propagationPolicy,
    orphanDependents: o.orphanDependents,
  };
}
