import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import type { AdmissionChain } from '../admission/types.js';
import { newBadRequest, newInternalError, newMethodNotSupported, newUnsupportedMediaType, StatusError } from '../apimachinery/errors/index.js';
import { patchTypeOf } from '../apimachinery/serializer/mediatype.js';
import { PATCH_TYPES_WITHOUT_STRATEGIC } from '../endpoints/handlers/patchers.js';
import { SchemaValidator } from '../apimachinery/validation/schema-validator.js';
import type { InstalledResource } from '../registry/resources.js';
import { storagePrefix } from '../registry/generic/index.js';
import type { ResourceStorage } from '../registry/rest.js';
import type { APIRequest, Handler } from '../apimachinery/request/http.js';
import type { Interface as StorageInterface, StorageFactory } from '../storage/index.js';
import { hasServedCRDVersion, isCRDConditionTrue } from './apihelpers.js';
import type { ServiceResolver } from './conversion/service-resolver.js';
import { CRDServingInfo, type ServingDeps } from './serving.js';
import type { CRDEvent, CRDSource } from './source.js';

/** Where served custom resources are announced to in-process consumers (the namespace controller, metrics). */
export interface CustomResourceRegistry {
  add(r: InstalledResource): void;
  remove(gr: { group: string; resource: string }): void;
  get(gr: { group: string; resource: string }): InstalledResource | undefined;
}

export interface CRDHandlerOptions {
  readonly source: CRDSource;
  /** Builds each CRD's storage.Interface (with its watch cache), under `/<group>/<plural>/`. */
  readonly factory: Pick<StorageFactory, 'forResource'>;
  readonly admission: AdmissionChain;
  /** Requests for anything no served CRD owns (kube: the 404 handler). */
  readonly delegate: Handler;
  /** Resolves `service` references of conversion webhooks; without it they fail. */
  readonly serviceResolver?: ServiceResolver;
  readonly resources?: CustomResourceRegistry;
  /** Watches without timeoutSeconds last this × (1 + rand). Default 1800. */
  readonly minRequestTimeoutSeconds?: number;
  /** How long a replaced CRD's requests may take before its state is torn down anyway (kube: 2 × request timeout). Default 120 s. */
  readonly drainTimeoutMs?: number;
  /** Conversion webhook timeout. Default 30 s. */
  readonly webhookTimeoutMs?: number;
  /** Receives failures of building a CRD's serving state in the background. Default: ignored. */
  readonly onError?: (err: unknown) => void;
}

/**
 * A PUT or PATCH of a custom resource collection: crdHandler routes it by its verb to
 * UpdateResource or PatchResource, whose namer finds no name in the URL (400 "name must be
 * provided"); a patch checks its Content-Type before that (415).
 */
function unnamedWrite(req: APIRequest): StatusError | undefined {
  const info = req.info;
  if (info.name !== '' || info.subresource !== '' || (info.verb !== 'update' && info.verb !== 'patch')) return undefined;
  if (info.verb === 'patch') {
    const contentType = req.headers['content-type'];
    const patchType = patchTypeOf((Array.isArray(contentType) ? contentType.join(',') : contentType) ?? '');
    if (!(PATCH_TYPES_WITHOUT_STRATEGIC as readonly string[]).includes(patchType)) return newUnsupportedMediaType(PATCH_TYPES_WITHOUT_STRATEGIC);
  }
  return newBadRequest('name must be provided');
}

/** Verbs a namespaced resource also answers without a namespace in the path. */
const ACROSS_NAMESPACES: ReadonlySet<string> = new Set(['list', 'watch']);

/**
 * The apiextensions server's handler for `/apis/<group>/<version>/…` of CRD-defined resources
 * (kube's crdHandler). A request is served when a CRD `<resource>.<group>` exists, the path fits
 * its scope, the version is served and the CRD's names are accepted or it is established;
 * everything else goes to the delegate. Each CRD's serving state is built on first use (and as
 * soon as a CRD becomes servable, so in-process consumers see its storage), kept while spec and
 * accepted names stay the same, and torn down in the background when they change or the CRD
 * goes, without touching other CRDs. The storage of a CRD lives as long as its uid.
 */
export class CRDHandler {
  private readonly deps: ServingDeps;
  private readonly infos = new Map<string, CRDServingInfo | Promise<CRDServingInfo>>();
  private readonly storages = new Map<string, Promise<StorageInterface>>();
  private readonly unsubscribe: () => void;
  private readonly teardowns = new Set<Promise<void>>();

  constructor(private readonly opts: CRDHandlerOptions) {
    this.deps = {
      admission: opts.admission,
      validator: new SchemaValidator(),
      minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds ?? 1800,
      serviceResolver: opts.serviceResolver,
      webhookTimeoutMs: opts.webhookTimeoutMs,
    };
    this.unsubscribe = opts.source.onChange((ev) => this.observe(ev));
    for (const crd of opts.source.list()) this.warm(crd);
  }

  /** Serves custom resources; hands every other request to the delegate. Never rejects. */
  readonly handler: Handler = async (req, res) => {
    const crd = this.servableCRD(req);
    if (crd === undefined) return this.opts.delegate(req, res);
    const info = req.info;
    if (info.verb === 'create' && isCRDConditionTrue(crd, 'Terminating')) {
      const status = newMethodNotSupported({ group: info.apiGroup, resource: info.resource }, info.verb).status;
      return res.writeError(new StatusError({ ...status, message: `${info.verb} not allowed while custom resource definition is terminating` }));
    }
    let serving: CRDServingInfo;
    try {
      const s = this.servingInfo(crd);
      serving = s instanceof Promise ? await s : s;
    } catch (err) {
      this.opts.onError?.(err);
      return res.writeError(newInternalError(new Error('error resolving resource')));
    }
    const handler = serving.handlerFor(info.apiVersion);
    if (handler === undefined) return this.opts.delegate(req, res);
    const unnamed = unnamedWrite(req);
    if (unnamed !== undefined) return res.writeError(unnamed);
    if (info.verb === 'create' && info.subresource === '' && info.name !== '') {
      // crdHandler serves the resource by the RequestInfo verb alone: a POST naming an object is
      // the collection's create, of the object the body names (namedCreaterAdapter ignores the URL's).
      req.info = { ...info, name: '', parts: [info.resource] };
    }
    return serving.serve(req, res, handler);
  };

  /**
   * The REST storages of a CRD's custom resources, built if needed whatever the CRD's
   * conditions (what the finalizer controller deletes custom resources through).
   */
  async storageFor(crd: CustomResourceDefinition): Promise<ResourceStorage> {
    return (await this.servingInfo(crd)).storages;
  }

  /** Tears down every CRD's serving state and storage; resolves when all are done. */
  async stop(): Promise<void> {
    this.unsubscribe();
    for (const uid of [...this.infos.keys()]) this.retire(uid, { destroyStorage: true, drainTimeoutMs: 0 });
    for (const uid of [...this.storages.keys()]) this.destroyStorage(uid);
    while (this.teardowns.size > 0) await Promise.all([...this.teardowns]);
  }

  /** The CRD the request is for when it is one to serve (crdHandler.ServeHTTP's checks), else undefined. */
  private servableCRD(req: APIRequest): CustomResourceDefinition | undefined {
    const info = req.info;
    if (!info.isResourceRequest || info.apiPrefix !== 'apis' || info.apiGroup === '') return undefined;
    const crd = this.opts.source.get(`${info.resource}.${info.apiGroup}`);
    if (crd === undefined) return undefined;
    const namespacedCRD = crd.spec.scope === 'Namespaced';
    const namespacedRequest = info.namespace !== '';
    if (!namespacedCRD && namespacedRequest) return undefined;
    if (namespacedCRD && !namespacedRequest && !ACROSS_NAMESPACES.has(info.verb)) return undefined;
    if (!hasServedCRDVersion(crd, info.apiVersion)) return undefined;
    if (!isServable(crd)) return undefined;
    return crd;
  }

  /** The serving state of `crd`, synchronously when it exists (so in-flight counting starts before any await). */
  private servingInfo(crd: CustomResourceDefinition): CRDServingInfo | Promise<CRDServingInfo> {
    const uid = crd.metadata?.uid ?? '';
    const existing = this.infos.get(uid);
    if (existing !== undefined && !(existing instanceof Promise)) {
      if (existing.serves(crd)) return existing;
      this.retire(uid, { destroyStorage: false });
    } else if (existing !== undefined) {
      return existing.then((info) => (info.serves(crd) ? info : this.servingInfo(crd)));
    }
    const building = this.build(crd);
    this.infos.set(uid, building);
    building.then(
      (info) => {
        if (this.infos.get(uid) === building) this.infos.set(uid, info);
      },
      () => {
        if (this.infos.get(uid) === building) this.infos.delete(uid);
      },
    );
    return building;
  }

  private async build(crd: CustomResourceDefinition): Promise<CRDServingInfo> {
    const storage = await this.storageOf(crd);
    const info = CRDServingInfo.build(crd, storage, this.deps);
    const storageResource = info.group.versions.find((v) => v.name === info.group.storageVersion)?.resources[0];
    if (storageResource !== undefined) {
      this.opts.resources?.add({
        group: crd.spec.group,
        resource: storageResource.plural,
        kind: storageResource.kind,
        namespaced: storageResource.namespaced,
        rest: info.storages,
        storage,
      });
    }
    return info;
  }

  /** The storage.Interface of a CRD uid, created once; the prefix never changes (group and plural are immutable). */
  private storageOf(crd: CustomResourceDefinition): Promise<StorageInterface> {
    const uid = crd.metadata?.uid ?? '';
    let storage = this.storages.get(uid);
    if (storage === undefined) {
      // Named as served, so a --watch-cache-sizes entry applies to it (kube's REST options getter does the same for CRDs).
      storage = this.opts.factory.forResource({ resourcePrefix: storagePrefix(crd.spec.group, crd.spec.names.plural), servedAs: { group: crd.spec.group, resource: crd.spec.names.plural } });
      this.storages.set(uid, storage);
      storage.catch(() => this.storages.get(uid) === storage && this.storages.delete(uid));
    }
    return storage;
  }

  /** Reacts to CRD changes as kube's informer handlers do: stale states go, live uids stay. */
  private observe(ev: CRDEvent): void {
    const uid = ev.crd.metadata?.uid ?? '';
    if (ev.type === 'deleted') {
      this.removeDead();
      return;
    }
    if (ev.type === 'updated') {
      const oldUID = ev.old.metadata?.uid ?? '';
      if (oldUID !== uid) this.retire(oldUID, { destroyStorage: true });
    }
    const existing = this.infos.get(uid);
    if (existing !== undefined && !(existing instanceof Promise) && !existing.serves(ev.crd)) this.retire(uid, { destroyStorage: false });
    this.warm(ev.crd);
  }

  /** Builds the serving state of a servable CRD ahead of its first request. */
  private warm(crd: CustomResourceDefinition): void {
    if (!isServable(crd)) return;
    try {
      const s = this.servingInfo(crd);
      if (s instanceof Promise) s.catch((err: unknown) => this.opts.onError?.(err));
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  /** removeDeadStorage: states and storages of uids no CRD has any more. */
  private removeDead(): void {
    const live = new Set(this.opts.source.list().map((c) => c.metadata?.uid ?? ''));
    for (const uid of [...this.infos.keys()]) if (!live.has(uid)) this.retire(uid, { destroyStorage: true });
    for (const uid of [...this.storages.keys()]) if (!live.has(uid)) this.destroyStorage(uid);
  }

  /** Forgets a uid's serving state now and tears it down once its requests are done. */
  private retire(uid: string, opts: { destroyStorage: boolean; drainTimeoutMs?: number }): void {
    const entry = this.infos.get(uid);
    if (entry !== undefined) this.infos.delete(uid);
    const teardown = (async () => {
      const info = await Promise.resolve(entry).catch(() => undefined);
      if (info !== undefined) {
        await info.tearDown(opts.drainTimeoutMs ?? this.opts.drainTimeoutMs ?? 120_000);
        this.unregister(info);
      }
    })();
    this.track(teardown);
    if (opts.destroyStorage) {
      const storageGone = teardown.then(() => (this.infos.has(uid) ? undefined : this.destroyStorage(uid)));
      this.track(storageGone);
    }
  }

  /** Removes the registry entry only if it is still this state's (a newer state may have replaced it). */
  private unregister(info: CRDServingInfo): void {
    const resources = this.opts.resources;
    const resource = info.group.versions.find((v) => v.name === info.group.storageVersion)?.resources[0];
    if (resources === undefined || resource === undefined) return;
    const gr = { group: info.group.name, resource: resource.plural };
    if (resources.get(gr)?.rest === info.storages) resources.remove(gr);
  }

  private destroyStorage(uid: string): void {
    const storage = this.storages.get(uid);
    if (storage === undefined) return;
    this.storages.delete(uid);
    this.track(
      storage.then(
        (s) => (s as { stop?: () => void }).stop?.(),
        () => undefined,
      ),
    );
  }

  private track(p: Promise<unknown>): void {
    const done = p.then(
      () => undefined,
      (err: unknown) => this.opts.onError?.(err),
    );
    this.teardowns.add(done);
    void done.finally(() => this.teardowns.delete(done));
  }
}

/** kube serves a CRD once its names are accepted or it is established. */
function isServable(crd: CustomResourceDefinition): boolean {
  return isCRDConditionTrue(crd, 'NamesAccepted') || isCRDConditionTrue(crd, 'Established');
}

/** The CRD handler over a source; see CRDHandler. */
export function newCRDHandler(opts: CRDHandlerOptions): CRDHandler {
  return new CRDHandler(opts);
}
