import {
  isAlreadyExists,
  newGenerateNameConflict,
  newInvalid,
  newConflict,
  newNotFound,
  OPTIMISTIC_LOCK_ERROR_MSG,
  StatusError,
  toStatusError,
  type GroupKind,
  type GroupResource,
} from '../../apimachinery/errors/index.js';
import type { KindScheme } from '../../apimachinery/scheme/scheme.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { isNotFound as isStorageNotFound, predicateMatchesSingle, type AttrFunc, type Interface, type SelectionPredicate } from '../../storage/index.js';
import type { DeleteOptions, InternalListOptions, KubeObject, ObjectList, RequestContext, StandardStorage, UpdatedObjectInfo, UpdateValidation, ValidateObjectFunc, WriteOptions } from '../rest.js';
import type { RESTStrategy } from '../../apimachinery/definition/strategy.js';
import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';
import type { ResourceInfo } from './context.js';
import { fillSystemFields, finishCreate, needsNameGeneration, prepareCreate } from './create.js';
import { checkDeletePreconditions, deletionFinalizers, markAsDeleting } from './delete.js';
import { HubConverter } from './converter.js';
import { DryRunnableStorage } from './dryrun.js';
import { newKeyFuncs, type KeyFuncs } from './keys.js';
import { cryptoRandomInt, type RandomIntFunc } from './names.js';
import { finalizersOf, metaOf } from './objectMeta.js';
import { alignStoredKeyOrder } from './objects.js';
import { ignoreManagedFieldsTimestamps } from '../../apimachinery/managedfields/equality.js';
import { attrFunc } from './predicate.js';
import { finishUpdate, prepareUpdate, shouldDeleteDuringUpdate, type UpdateTarget } from './update.js';
import type { VersionView } from './view.js';
import type { CohabitatingStorage } from '../types.js';
import { HubWatcher } from './watch.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';

/** Total create attempts when the name is generated (kube's maxNameGenerationCreateAttempts). */
const maxNameGenerationCreateAttempts = 8;
/** Parallel deletes of one deletecollection (kube's DeleteCollectionWorkers). */
const deleteCollectionWorkers = 8;

export interface StoreOptions {
  /** The kind's versions; the store speaks its hub version and writes its storage version. */
  readonly scheme: KindScheme;
  readonly storage: Interface;
  /** Clock for creationTimestamp and deletionTimestamp. */
  readonly now?: () => Date;
  /** Source of generated-name characters. */
  readonly random?: RandomIntFunc;
  /** 'status' makes this the store of the /status subresource. */
  readonly target?: UpdateTarget;
  /** Completes objects read from storage, in the storage version (schema defaults); see HubConverter. */
  readonly readDefaults?: (stored: KubeObject) => void;
  /** The version the strategy validates objects in, when not the hub (see VersionView). */
  readonly versionView?: VersionView;
  /** Seconds each write keeps the object before the storage deletes it (kube's TTLFunc); absent: forever. */
  readonly ttl?: TTLFunc;
  /** Where the objects live when another resource stores them (a cohabitating resource): its keys and codec. */
  readonly storedAs?: CohabitatingStorage;
}

/**
 * kube's Store.TTLFunc: the time to live, in seconds, of an object about to be written, given the
 * key's remaining TTL (`existing`, 0 on create) and whether this is an update; 0 means forever.
 */
export type TTLFunc = (obj: KubeObject, existing: number, update: boolean) => number;

/** Sentinels thrown out of tryUpdate to leave the optimistic loop without writing. */
class EmptiedFinalizers extends Error {
  constructor(readonly object: KubeObject) {
    super('emptied finalizers');
  }
}
class DeleteNow extends Error {}

/**
 * The generic REST store (k8s.io/apiserver/pkg/registry/generic/registry.Store), configured by
 * a kind's definition: metadata rules, strategy hooks, optimistic concurrency, finalizers,
 * dry runs, and hub ↔ storage version conversion. Every error it throws is a StatusError.
 */
export class Store implements StandardStorage {
  readonly resource: ResourceDefinition;
  readonly groupResource: GroupResource;
  readonly groupKind: GroupKind;
  readonly keys: KeyFuncs;
  readonly converter: HubConverter;
  private readonly info: ResourceInfo;
  private readonly storage: Interface<KubeObject>;
  private readonly dry: DryRunnableStorage;
  private readonly getAttrs: AttrFunc<KubeObject>;
  private readonly random: RandomIntFunc;
  private readonly target: UpdateTarget;
  private readonly versionView: VersionView | undefined;
  private readonly ttl: TTLFunc | undefined;

  constructor(opts: StoreOptions) {
    const scheme = opts.scheme;
    this.resource = scheme.resource(scheme.hubVersion);
    this.groupResource = { group: scheme.group, resource: this.resource.plural };
    this.groupKind = { group: scheme.group, kind: scheme.kind };
    const keyed = opts.storedAs === undefined ? { group: scheme.group, plural: this.resource.plural } : { group: opts.storedAs.group, plural: opts.storedAs.resource };
    this.keys = newKeyFuncs({ ...keyed, namespaced: this.resource.namespaced });
    this.converter = new HubConverter(scheme, opts.readDefaults, opts.storedAs?.codec);
    this.storage = opts.storage as Interface<KubeObject>;
    this.dry = new DryRunnableStorage(this.storage);
    this.random = opts.random ?? cryptoRandomInt;
    this.target = opts.target ?? 'main';
    this.versionView = opts.versionView;
    this.ttl = opts.ttl;
    this.info = {
      groupResource: this.groupResource,
      groupKind: this.groupKind,
      namespaced: this.resource.namespaced,
      hasStatus: this.resource.subresources.status,
      strategy: (this.resource.strategy ?? {}) as RESTStrategy<KubeObject>,
      now: opts.now ?? (() => new Date()),
    };
    this.getAttrs = attrFunc(this.resource, (o) => this.converter.toHub(o));
  }

  async get(ctx: RequestContext, name: string, opts: { resourceVersion: string }): Promise<KubeObject> {
    const key = this.keys.key(ctx.namespace, name);
    try {
      const obj = await this.storage.get(key, { resourceVersion: opts.resourceVersion });
      if (obj === undefined) throw newNotFound(this.groupResource, name);
      return this.converter.toHub(obj);
    } catch (e) {
      throw this.statusError(e, name, 'get');
    }
  }

  async list(ctx: RequestContext, opts: InternalListOptions): Promise<ObjectList> {
    const predicate = this.predicateOf(opts);
    const { key, recursive } = this.listKey(ctx, predicate);
    try {
      const r = await this.storage.getList(key, {
        resourceVersion: opts.resourceVersion,
        resourceVersionMatch: opts.resourceVersionMatch,
        predicate,
        recursive,
      });
      const metadata: ObjectList['metadata'] = { resourceVersion: r.resourceVersion };
      if (r.continue) metadata.continue = r.continue;
      if (r.remainingItemCount !== undefined) metadata.remainingItemCount = r.remainingItemCount;
      return { items: r.items.map((o) => this.converter.toHub(o)), metadata };
    } catch (e) {
      throw this.statusError(e, '', 'list');
    }
  }

  async watch(ctx: RequestContext, opts: InternalListOptions): Promise<HubWatcher> {
    const predicate = { ...this.predicateOf(opts), allowWatchBookmarks: opts.allowWatchBookmarks };
    const { key, recursive } = this.listKey(ctx, predicate);
    try {
      const w = await this.storage.watch(key, {
        resourceVersion: opts.resourceVersion,
        resourceVersionMatch: opts.resourceVersionMatch,
        predicate,
        recursive,
        ...(opts.sendInitialEvents !== undefined ? { sendInitialEvents: opts.sendInitialEvents } : {}),
        signal: ctx.signal,
        ...(opts.timeoutSeconds > 0 ? { timeoutMs: opts.timeoutSeconds * 1000 } : {}),
      });
      return new HubWatcher(w, (o) => this.converter.toHub(o));
    } catch (e) {
      throw this.statusError(e, '', 'watch');
    }
  }

  /** May mutate obj (as kube's Store.Create); with generateName each attempt works on a copy. */
  async create(ctx: RequestContext, obj: KubeObject, validate: ValidateObjectFunc, opts: WriteOptions): Promise<KubeObject> {
    if (!needsNameGeneration(obj)) return this.createOnce(ctx, obj, validate, opts);
    let last: unknown;
    for (let i = 0; i < maxNameGenerationCreateAttempts; i++) {
      try {
        return await this.createOnce(ctx, deepCopyJSON(obj), validate, opts);
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
        last = e;
      }
    }
    throw last;
  }

  private async createOnce(ctx: RequestContext, obj: KubeObject, validate: ValidateObjectFunc, opts: WriteOptions): Promise<KubeObject> {
    fillSystemFields(obj, this.info.now, this.random);
    prepareCreate(this.info, ctx, obj);
    finishCreate(this.info, ctx, obj, await this.strategyErrors(obj, undefined));
    await validate(obj, undefined);
    const name = String(metaOf(obj).name ?? '');
    const key = this.keys.key(ctx.namespace, name);
    try {
      const ttlSeconds = this.ttl?.(obj, 0, false) ?? 0;
      const out = await this.dry.create(key, this.converter.toStorage(obj), opts.dryRun, ttlSeconds > 0 ? { ttlSeconds } : {});
      return opts.dryRun ? obj : this.converter.toHub(out);
    } catch (e) {
      throw await this.createError(e, key, obj);
    }
  }

  /** InterpretCreateError + CheckGeneratedNameError + the `object is being deleted: ` prefix. */
  private async createError(e: unknown, key: string, obj: KubeObject): Promise<StatusError> {
    const name = String(obj.metadata?.name ?? '');
    let err = this.statusError(e, name, 'create');
    if (!isAlreadyExists(err)) return err;
    if (typeof obj.metadata?.generateName === 'string' && obj.metadata.generateName !== '') {
      err = newGenerateNameConflict({ group: this.groupKind.group, resource: this.groupKind.kind }, name, 1);
    }
    const existing = await this.storage.get(key, { ignoreNotFound: true }).catch(() => undefined);
    const ts = existing?.metadata?.deletionTimestamp;
    if (ts !== undefined && ts !== null) {
      return new StatusError({ ...err.status, message: `object is being deleted: ${err.status.message}` });
    }
    return err;
  }

  async update(
    ctx: RequestContext,
    name: string,
    objInfo: UpdatedObjectInfo,
    validate: UpdateValidation,
    opts: WriteOptions & { forceAllowCreate: boolean },
  ): Promise<{ object: KubeObject; created: boolean }> {
    const key = this.keys.key(ctx.namespace, name);
    const preconditions = objInfo.preconditions();
    const state: UpdateState = { creating: false, result: undefined };
    let out: KubeObject;
    try {
      out = await this.dry.guaranteedUpdate(
        key,
        {
          ignoreNotFound: true,
          ...(preconditions !== undefined ? { preconditions } : {}),
          tryUpdate: async (existing, res) => {
            const object = await this.tryUpdate(ctx, name, objInfo, validate, opts, existing, res.resourceVersion, state);
            const ttlSeconds = this.ttl?.(object, res.ttl, existing !== undefined) ?? 0;
            return ttlSeconds > 0 ? { object, ttlSeconds } : { object };
          },
        },
        opts.dryRun,
      );
    } catch (e) {
      if (e instanceof EmptiedFinalizers) {
        return { object: await this.deleteWithoutFinalizers(key, name, e.object, preconditions, opts.dryRun), created: false };
      }
      if (state.creating && state.result !== undefined) throw await this.createError(e, key, state.result);
      throw this.statusError(e, name, 'update');
    }
    const object = opts.dryRun && state.result !== undefined ? state.result : this.converter.toHub(out);
    return { object, created: state.creating };
  }

  /** One round of the optimistic update loop; returns the object to store (storage version). */
  private async tryUpdate(
    ctx: RequestContext,
    name: string,
    objInfo: UpdatedObjectInfo,
    validate: UpdateValidation,
    opts: { forceAllowCreate: boolean },
    existing: KubeObject | undefined,
    currentRV: number,
    state: UpdateState,
  ): Promise<KubeObject> {
    const strategy = this.info.strategy;
    if (existing === undefined) {
      const allowCreate = this.target === 'main' && ((strategy.allowCreateOnUpdate ?? false) || opts.forceAllowCreate);
      if (!allowCreate) throw newNotFound(this.groupResource, name);
      const obj = deepCopyJSON(await objInfo.updatedObject(ctx, undefined));
      state.creating = true;
      state.result = obj;
      fillSystemFields(obj, this.info.now, this.random);
      delete metaOf(obj).resourceVersion;
      prepareCreate(this.info, ctx, obj);
      finishCreate(this.info, ctx, obj, await this.strategyErrors(obj, undefined));
      await validate.create(obj, undefined);
      return this.converter.toStorage(obj);
    }
    state.creating = false;
    const old = this.converter.toHub(existing);
    const obj = deepCopyJSON(await objInfo.updatedObject(ctx, deepCopyJSON(old)));
    state.result = obj;
    const newRV = this.storage.versioner.objectResourceVersion(obj);
    if (newRV === 0) {
      if (strategy.allowUnconditionalUpdate === false) {
        // kube reports this one with the resource as the kind, and Go's %#v of uint64 0.
        throw newInvalid({ group: this.groupResource.group, kind: this.groupResource.resource }, name, [
          { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', detail: '0x0: must be specified for an update' },
        ]);
      }
      this.storage.versioner.updateObject(obj, currentRV);
    } else if (newRV !== currentRV) {
      throw newConflict(this.groupResource, name, OPTIMISTIC_LOCK_ERROR_MSG);
    }
    prepareUpdate(this.info, ctx, obj, old, this.target);
    finishUpdate(this.info, ctx, obj, old, this.target, await this.strategyErrors(obj, old));
    // Once BeforeUpdate has restored what the strategy keeps (creationTimestamp, status…), a write
    // whose only change is newer managedFields times keeps the stored times, so it stays a no-op
    // and is not written (kube's store runs IgnoreManagedFieldsTimestampsTransformer here).
    const updated = ignoreManagedFieldsTimestamps(obj, old) as KubeObject;
    state.result = updated;
    await validate.update(updated, old);
    if (shouldDeleteDuringUpdate(updated, old)) throw new EmptiedFinalizers(updated);
    return alignStoredKeyOrder(this.converter.toStorage(updated), existing);
  }

  /**
   * The strategy's validation of a prepared object (a create without `old`), in the version of
   * the store's view: kube validates a custom resource in the request version, where the paths
   * its strategy checks (the scale subresource's replicas) are, whatever a conversion moves.
   */
  private async strategyErrors(obj: KubeObject, old: KubeObject | undefined): Promise<readonly FieldError[]> {
    const strategy = this.info.strategy;
    const view = this.versionView;
    if (old === undefined) {
      if (strategy.validate === undefined) return [];
      return strategy.validate(view === undefined ? obj : await view.fromHub(obj));
    }
    const validateUpdate = this.target === 'status' ? strategy.status?.validateUpdate : strategy.validateUpdate;
    if (validateUpdate === undefined) return [];
    if (view === undefined) return validateUpdate(obj, old);
    const [inVersion, oldInVersion] = await Promise.all([view.fromHub(obj), view.fromHub(old)]);
    return validateUpdate(inVersion, oldInVersion);
  }

  /** The update removed the last finalizer of a deleted object: delete it, answer with the update's object. */
  private async deleteWithoutFinalizers(key: string, name: string, obj: KubeObject, preconditions: { uid?: string; resourceVersion?: string } | undefined, dryRun: boolean): Promise<KubeObject> {
    try {
      await this.dry.delete(key, preconditions !== undefined ? { preconditions } : {}, dryRun);
    } catch (e) {
      if (!isStorageNotFound(e)) throw this.statusError(e, name, 'delete');
    }
    return obj;
  }

  async delete(ctx: RequestContext, name: string, validate: ValidateObjectFunc, opts: DeleteOptions): Promise<{ object: KubeObject; deleted: boolean }> {
    const key = this.keys.key(ctx.namespace, name);
    let current: KubeObject | undefined;
    try {
      current = await this.storage.get(key);
    } catch (e) {
      throw this.statusError(e, name, 'delete');
    }
    if (current === undefined) throw newNotFound(this.groupResource, name);
    const hub = this.converter.toHub(current);
    checkDeletePreconditions(this.info.groupKind, hub, opts);
    // No generic strategy supports graceful deletion (CheckGracefulDelete): gracePeriodSeconds
    // never delays a delete; finalizers do.
    const policy = this.info.strategy.defaultGarbageCollectionPolicy;
    if (finalizersOf(hub).length > 0 || deletionFinalizers(policy, hub, opts).changed) {
      const kept = await this.updateForFinalizers(key, name, validate, opts);
      if (kept !== undefined) return { object: kept, deleted: false };
    }
    const storagePreconditions = opts.preconditions;
    try {
      const out = await this.dry.delete(
        key,
        {
          ...(storagePreconditions !== undefined ? { preconditions: storagePreconditions } : {}),
          validateDeletion: async (obj) => {
            if (obj !== undefined) await validate(this.converter.toHub(obj), undefined);
          },
        },
        opts.dryRun,
      );
      return { object: this.converter.toHub(out), deleted: true };
    } catch (e) {
      throw this.statusError(e, name, 'delete');
    }
  }

  /**
   * updateForGracefulDeletionAndFinalizers without graceful deletion: sets the garbage
   * collector's finalizers the options ask for and, when finalizers remain, marks the object
   * as deleting. Returns the kept object, or undefined when it must be deleted now.
   */
  private async updateForFinalizers(key: string, name: string, validate: ValidateObjectFunc, opts: DeleteOptions): Promise<KubeObject | undefined> {
    let kept: KubeObject | undefined;
    let out: KubeObject;
    try {
      out = await this.dry.guaranteedUpdate(
        key,
        {
          ...(opts.preconditions !== undefined ? { preconditions: opts.preconditions } : {}),
          tryUpdate: async (existing) => {
            if (existing === undefined) throw newNotFound(this.groupResource, name);
            const hub = this.converter.toHubCopy(existing);
            await validate(hub, undefined);
            checkDeletePreconditions(this.info.groupKind, hub, opts);
            const gc = deletionFinalizers(this.info.strategy.defaultGarbageCollectionPolicy, hub, opts);
            if (gc.changed) {
              if (gc.finalizers.length === 0) delete metaOf(hub).finalizers;
              else metaOf(hub).finalizers = gc.finalizers;
            }
            if (finalizersOf(hub).length === 0) throw new DeleteNow();
            markAsDeleting(hub, this.info.now());
            kept = hub;
            return { object: alignStoredKeyOrder(this.converter.toStorage(hub), existing) };
          },
        },
        opts.dryRun,
      );
    } catch (e) {
      if (e instanceof DeleteNow) return undefined;
      throw this.statusError(e, name, 'delete');
    }
    return opts.dryRun ? kept : this.converter.toHub(out);
  }

  async deleteCollection(ctx: RequestContext, validate: ValidateObjectFunc, opts: DeleteOptions, listOpts: InternalListOptions): Promise<ObjectList> {
    const list = await this.list(ctx, listOpts);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < list.items.length) {
        const item = list.items[next++] as KubeObject;
        const itemCtx = { ...ctx, namespace: this.info.namespaced ? String(item.metadata?.namespace ?? '') : '' };
        try {
          await this.delete(itemCtx, String(item.metadata?.name ?? ''), validate, opts);
        } catch (e) {
          if (!(e instanceof StatusError && e.reason === 'NotFound')) throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(deleteCollectionWorkers, list.items.length) }, worker));
    return list;
  }

  /** The request's predicate with this resource's attribute function. */
  private predicateOf(opts: InternalListOptions): SelectionPredicate<KubeObject> {
    return { ...opts.predicate, getAttrs: this.getAttrs };
  }

  /** The directory to list or watch, or the one key when the field selector names a single object. */
  private listKey(ctx: RequestContext, predicate: SelectionPredicate<KubeObject>): { key: string; recursive: boolean } {
    const single = predicateMatchesSingle(predicate as SelectionPredicate<never>);
    if (single !== undefined && (!this.info.namespaced || ctx.namespace !== '')) {
      try {
        return { key: this.keys.key(ctx.namespace, single), recursive: false };
      } catch {
        // A name that cannot be a key: fall back to the directory, which simply matches nothing.
      }
    }
    return { key: this.keys.root(ctx.namespace), recursive: true };
  }

  private statusError(e: unknown, name: string, operation: string): StatusError {
    return toStatusError(e, { gr: this.groupResource, name, operation });
  }
}

interface UpdateState {
  creating: boolean;
  /** The hub object computed by the last round (the dry-run response). */
  result: KubeObject | undefined;
}
