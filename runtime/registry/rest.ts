import type { DeleteOptions as MetaDeleteOptions } from '../../apis/meta/v1/options.js';
import type { AdmissionChain } from '../admission/types.js';
import type { RequestInfo, UserInfo } from '../apimachinery/request/types.js';
import type { SelectionPredicate, Watcher as StorageWatcher } from '../storage/index.js';
import type { StoredObject } from '../apimachinery/object.js';

/**
 * The REST storage capabilities handlers call (k8s.io/apiserver/pkg/registry/rest), as small
 * interfaces so a resource offers exactly the verbs it has. Objects crossing these interfaces
 * are in the kind's hub version; the endpoints convert request versions to and from it.
 * Objects returned may be shared and frozen: copy before mutating.
 */

/** What every storage call knows about its request. */
export interface RequestContext {
  /** '' for cluster-scoped resources and all-namespace lists. */
  readonly namespace: string;
  readonly user: UserInfo;
  readonly requestInfo: RequestInfo;
  /** Aborted when the request ends (timeout, client gone, shutdown). */
  readonly signal: AbortSignal;
  /** Warnings for the response (strategy warnings, deprecations). */
  readonly warn: (message: string) => void;
}

export interface KubeObject extends StoredObject {
  apiVersion?: string;
  kind?: string;
}

export interface ObjectList<T extends KubeObject = KubeObject> {
  items: T[];
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
}

/** List and watch options after parsing and validation of the query. */
export interface InternalListOptions {
  readonly predicate: SelectionPredicate<KubeObject>;
  readonly resourceVersion: string;
  readonly resourceVersionMatch: '' | 'NotOlderThan' | 'Exact';
  readonly allowWatchBookmarks: boolean;
  readonly sendInitialEvents: boolean | undefined;
  /** Watch only; 0 means no timeout. */
  readonly timeoutSeconds: number;
}

export interface WriteOptions {
  readonly dryRun: boolean;
  readonly fieldManager: string;
}

/** Called by the store on the final object of a write, after defaulting and the strategy: admission's validating phase. */
export type ValidateObjectFunc = (obj: KubeObject, old: KubeObject | undefined) => Promise<void>;

export interface Getter {
  get(ctx: RequestContext, name: string, opts: { resourceVersion: string }): Promise<KubeObject>;
}

export interface Lister {
  list(ctx: RequestContext, opts: InternalListOptions): Promise<ObjectList>;
}

export interface Watcher {
  /** Events carry hub-version objects; ERROR events carry a Status. */
  watch(ctx: RequestContext, opts: InternalListOptions): Promise<StorageWatcher<KubeObject>>;
}

export interface Creater {
  create(ctx: RequestContext, obj: KubeObject, validate: ValidateObjectFunc, opts: WriteOptions): Promise<KubeObject>;
}

/**
 * How an update computes the new object from the stored one (rest.UpdatedObjectInfo): PUT
 * returns the body; PATCH applies the patch to `old`. Called inside the optimistic-concurrency
 * retry loop, so it may run more than once; `old` is undefined when the object is absent.
 */
export interface UpdatedObjectInfo {
  /** Preconditions carried by the request (the body's metadata.resourceVersion/uid). */
  preconditions(): { uid?: string; resourceVersion?: string } | undefined;
  updatedObject(ctx: RequestContext, old: KubeObject | undefined): Promise<KubeObject>;
}

/**
 * The validation an update runs besides the store's strategy: validating admission of the object
 * created or updated, and, for a subresource that writes the resource through another kind (the
 * /scale of a resource, whose requests carry a Scale), the resource's own validation of the object
 * it writes (`resource`: hub objects, the stored one as `old`), which the request pipeline runs
 * for requests that carry the resource itself. kube's ScaleREST gets the same from the resource
 * store's strategy, since there that is where schema and rules are checked.
 */
export interface UpdateValidation {
  readonly create: ValidateObjectFunc;
  readonly update: ValidateObjectFunc;
  readonly resource?: ValidateObjectFunc;
}

export interface Updater {
  /** `created` is true when the update created the object (create-on-update). */
  update(
    ctx: RequestContext,
    name: string,
    objInfo: UpdatedObjectInfo,
    validate: UpdateValidation,
    opts: WriteOptions & { forceAllowCreate: boolean },
  ): Promise<{ object: KubeObject; created: boolean }>;
}

export interface DeleteOptions {
  readonly dryRun: boolean;
  readonly gracePeriodSeconds: number | undefined;
  readonly preconditions: { uid?: string; resourceVersion?: string } | undefined;
  readonly propagationPolicy: MetaDeleteOptions['propagationPolicy'];
  readonly orphanDependents: boolean | undefined;
}

export interface GracefulDeleter {
  /**
   * Deletes the object, or marks it (deletionTimestamp) when finalizers remain.
   * `deleted` is false when the object still exists; `object` is its last state.
   */
  delete(ctx: RequestContext, name: string, validate: ValidateObjectFunc, opts: DeleteOptions): Promise<{ object: KubeObject; deleted: boolean }>;
}

export interface CollectionDeleter {
  deleteCollection(ctx: RequestContext, validate: ValidateObjectFunc, opts: DeleteOptions, listOpts: InternalListOptions): Promise<ObjectList>;
}

/** Everything the generic Store offers for a main resource. */
export type StandardStorage = Getter & Lister & Watcher & Creater & Updater & GracefulDeleter & CollectionDeleter;

/** The admission chain with which the endpoints build the validate callbacks above. */
export type { AdmissionChain };

/**
 * The storages of one resource as the endpoints install them: the main resource and the
 * subresources its definition declares. `scale` reads and writes autoscaling/v1 Scale
 * objects (no conversion through the kind's scheme).
 */
export interface ResourceStorage {
  readonly main: StandardStorage;
  readonly status?: Getter & Updater;
  readonly scale?: Getter & Updater;
}

/**
 * The storages of a kind some of whose verbs are its own (a Namespace's delete turns it
 * Terminating, a CRD's first deletes its custom resources, RBAC's create and update refuse
 * escalation): every other verb stays the generic store's.
 */
export function withVerbs(storages: ResourceStorage, own: Partial<Pick<StandardStorage, 'create' | 'update' | 'delete'>>): ResourceStorage {
  const main = storages.main;
  return {
    ...storages,
    main: {
      get: (...a) => main.get(...a),
      list: (...a) => main.list(...a),
      watch: (...a) => main.watch(...a),
      create: own.create ?? ((...a) => main.create(...a)),
      update: own.update ?? ((...a) => main.update(...a)),
      deleteCollection: (...a) => main.deleteCollection(...a),
      delete: own.delete ?? ((...a) => main.delete(...a)),
    },
  };
}

/** withVerbs for a kind whose delete alone is its own. */
export function withDelete(storages: ResourceStorage, del: GracefulDeleter['delete']): ResourceStorage {
  return withVerbs(storages, { delete: del });
}
