import type { ManagedFieldsEntry } from '../../../apis/meta/v1/types.js';
import type { Scale } from '../../../apis/autoscaling/v1/types.js';
import { newConflict, newInvalid, newNotFound, newPathNotFound, StatusError } from '../../apimachinery/errors/index.js';
import { newZeroObject } from '../../apimachinery/definition/zero.js';
import { ScaleHandler } from '../../apimachinery/managedfields/scalehandler.js';
import { makePath } from '../../apimachinery/structuredmerge/fieldpath/index.js';
import { type FieldManager, managerOrUserAgent, newDefaultCRDFieldManager, newDefaultFieldManager } from '../../apimachinery/managedfields/index.js';
import { deducedTypeConverter, newTypeConverter } from '../../apimachinery/managedfields/typeconverter.js';
import type { ObjectConvertor } from '../../apimachinery/managedfields/versionconverter.js';
import type { JSONObject } from '../../apimachinery/serializer/jsonvalue.js';
import type { KubeObject } from '../../registry/rest.js';
import { defaultUserAgent } from '../rest/user-agent.js';
import { checkTypeMeta, decodeBody } from './mutations.js';
import { applyConfiguration, applyPatch, patchBytes } from './patch.js';
import { getScale, scaledObject } from './scale.js';
import { apiVersionOf, type FakeResource, type GroupVersionResource, gvrString } from './resources.js';
import type { ObjectTracker, TrackerWriteOptions } from './tracker.js';

/** What a write through the field manager takes besides the object: the query of the request. */
export interface ManagedWriteOptions extends TrackerWriteOptions {
  /** The fieldManager query parameter; without it the manager is named after the User-Agent, as the server does. */
  readonly fieldManager?: string;
  readonly force?: boolean;
}

/** The fake keeps versions apart (see ObjectTracker), so an object is only ever "converted" to its own version. */
const ownVersion: ObjectConvertor = { convert: (obj) => obj };

const SCALE_API_VERSION = 'autoscaling/v1';

/** How often a write is recomputed when another write changed the object while its field manager ran. */
const MAX_ATTEMPTS = 10;

/**
 * client-go's field-managed object tracker: the creates, updates and patches of a fake clientset
 * go through the same FieldManager the server's handlers use (runtime/apimachinery/managedfields),
 * so objects carry the managedFields kube-apiserver would record, and server-side apply merges,
 * removes fields and reports 409 conflicts with the server's code. The field manager is
 * asynchronous; the tracker is not: each write reads the live object, runs the manager, and
 * stores the result only if the object did not change meanwhile (else it starts over, as the
 * registry's GuaranteedUpdate does).
 */
export class FieldManagedTracker {
  readonly #managers = new Map<string, FieldManager>();
  readonly #userAgent = defaultUserAgent();
  #scale: FieldManager | undefined;

  constructor(
    readonly tracker: ObjectTracker,
    private readonly now: () => Date,
  ) {}

  async create(gvr: GroupVersionResource, namespace: string, body: unknown, opts: ManagedWriteOptions = {}): Promise<KubeObject> {
    const r = this.#resource(gvr);
    const obj = decodeBody(body);
    checkTypeMeta(r, obj);
    const managed = await this.#manager(r, '').updateNoErrors(emptyObject(r), obj as JSONObject, this.#name(opts));
    return this.tracker.create(gvr, namespace, managed, opts);
  }

  async update(gvr: GroupVersionResource, namespace: string, body: unknown, opts: ManagedWriteOptions & { readonly name?: string } = {}): Promise<KubeObject> {
    const r = this.#resource(gvr);
    const obj = decodeBody(body);
    checkTypeMeta(r, obj);
    const name = opts.name ?? String(obj.metadata?.name ?? '');
    const fm = this.#manager(r, opts.subresource ?? '');
    return this.#guaranteedUpdate(gvr, namespace, name, opts, (live) => fm.updateNoErrors(live as JSONObject, obj as JSONObject, this.#name(opts)), true);
  }

  /** A JSON, merge or strategic merge patch, or a server-side apply (`application/apply-patch+yaml`). */
  async patch(gvr: GroupVersionResource, namespace: string, name: string, type: string, patch: unknown, opts: ManagedWriteOptions = {}): Promise<KubeObject> {
    const r = this.#resource(gvr);
    const bytes = patchBytes(patch);
    const fm = this.#manager(r, opts.subresource ?? '');
    if (type === 'application/apply-patch+yaml') {
      const config = applyConfiguration(bytes) as JSONObject;
      const manager = requireApplyManager(opts);
      if (opts.subresource === undefined && !this.#exists(gvr, namespace, name)) {
        const created = await fm.apply(emptyObject(r), config, manager, opts.force === true);
        return this.tracker.create(gvr, namespace, created, opts);
      }
      return this.#guaranteedUpdate(gvr, namespace, name, opts, (live) => fm.apply(live as JSONObject, config, manager, opts.force === true), false);
    }
    // The patch is checked (415 for strategic merge on custom resources) and applied by the tracker's own code.
    return this.#guaranteedUpdate(
      gvr,
      namespace,
      name,
      opts,
      async (live) => fm.updateNoErrors(live as JSONObject, this.tracker.previewPatch(gvr, live, type, bytes) as JSONObject, this.#name(opts)),
      false,
    );
  }

  /** PUT of the Scale: the scale endpoint's Update entry, mapped onto the resource's managedFields. */
  async updateScale(gvr: GroupVersionResource, namespace: string, name: string, body: unknown, opts: ManagedWriteOptions = {}): Promise<Scale> {
    const scale = { apiVersion: SCALE_API_VERSION, kind: 'Scale', ...decodeBody(body) } as JSONObject;
    return this.#writeScale(gvr, namespace, name, opts, (fm, old) => fm.updateNoErrors(old, scale, this.#name(opts)));
  }

  /** PATCH of the Scale, server-side apply included (the patch applies to the Scale, as on the server). */
  async patchScale(gvr: GroupVersionResource, namespace: string, name: string, type: string, patch: unknown, opts: ManagedWriteOptions = {}): Promise<Scale> {
    const bytes = patchBytes(patch);
    if (type === 'application/apply-patch+yaml') {
      const config = applyConfiguration(bytes) as JSONObject;
      const manager = requireApplyManager(opts);
      return this.#writeScale(gvr, namespace, name, opts, (fm, old) => fm.apply(old, config, manager, opts.force === true));
    }
    return this.#writeScale(gvr, namespace, name, opts, (fm, old) => fm.updateNoErrors(old, applyPatch(undefined, old as KubeObject, type, bytes) as JSONObject, this.#name(opts)));
  }

  /**
   * The Scale carries the resource's owners of its replicas as its managedFields (ScaleHandler),
   * the scale endpoint's field manager records the write on it, and its entries go back to the
   * resource, as the registry's scale store does.
   */
  async #writeScale(gvr: GroupVersionResource, namespace: string, name: string, opts: ManagedWriteOptions, write: (fm: FieldManager, old: JSONObject) => Promise<JSONObject>): Promise<Scale> {
    const r = this.#resource(gvr);
    const paths = r.subresources?.scale;
    if (paths === undefined) throw newNotFound({ group: gvr.group, resource: gvr.resource }, name);
    const apiVersion = apiVersionOf(r.descriptor);
    const mappings = new Map([[apiVersion, makePath(...paths.specReplicasPath.split('.').filter((s) => s !== ''))]]);
    const stored = await this.#guaranteedUpdate(
      gvr,
      namespace,
      name,
      { ...opts, subresource: undefined },
      async (live) => {
        const handler = new ScaleHandler(live.metadata?.managedFields as ManagedFieldsEntry[] | undefined, apiVersion, mappings);
        const old = getScale(r, live) as JSONObject;
        const owners = handler.toSubresource();
        if (owners.length > 0) old['metadata'] = { ...(old['metadata'] as JSONObject), managedFields: owners as unknown as JSONObject[] };
        const scale = (await write(this.#scaleManager(), old)) as Scale;
        const obj = scaledObject(r, live, name, scale);
        const parentFields = handler.toParent(scale.metadata?.managedFields);
        const meta = (obj.metadata ??= {});
        if (parentFields.length > 0) meta.managedFields = parentFields;
        else delete meta.managedFields;
        return obj as JSONObject;
      },
      false,
    );
    return getScale(r, stored);
  }

  /** The scale endpoint's manager: autoscaling/v1 Scales with deduced types, as the server installs it. */
  #scaleManager(): FieldManager {
    this.#scale ??= newDefaultFieldManager({
      typeConverter: deducedTypeConverter,
      objectConverter: ownVersion,
      apiVersion: SCALE_API_VERSION,
      hubApiVersion: SCALE_API_VERSION,
      kind: 'Scale',
      subresource: 'scale',
      now: this.now,
    });
    return this.#scale;
  }

  /**
   * Reads the live object, computes the write, and stores it under the live resourceVersion. A
   * resourceVersion the caller sent (in an update's body, or set by a patch) is its own precondition
   * (a 409 the caller sees); the live one is retried when another write came first.
   */
  async #guaranteedUpdate(
    gvr: GroupVersionResource,
    namespace: string,
    name: string,
    opts: ManagedWriteOptions,
    next: (live: KubeObject) => Promise<JSONObject>,
    callerPreconditions: boolean,
  ): Promise<KubeObject> {
    for (let attempt = 1; ; attempt++) {
      const live = this.tracker.get(gvr, namespace, name);
      const obj = structuredClone(await next(live)) as KubeObject;
      const meta = (obj.metadata ??= {});
      const sent = typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '';
      // A patch result carries the live resourceVersion unless the patch itself set one (then a precondition).
      const own = !sent || (!callerPreconditions && meta.resourceVersion === live.metadata?.resourceVersion);
      if (own) meta.resourceVersion = live.metadata?.resourceVersion;
      try {
        return this.tracker.update(gvr, namespace, obj, { name, dryRun: opts.dryRun === true, ...(opts.subresource !== undefined ? { subresource: opts.subresource } : {}) });
      } catch (err) {
        const lostRace = own && err instanceof StatusError && err.reason === 'Conflict' && this.tracker.get(gvr, namespace, name).metadata?.resourceVersion !== live.metadata?.resourceVersion;
        if (!lostRace) throw err;
        if (attempt >= MAX_ATTEMPTS) throw newConflict({ group: gvr.group, resource: gvr.resource }, name, 'the object kept changing while its managed fields were computed');
      }
    }
  }

  #exists(gvr: GroupVersionResource, namespace: string, name: string): boolean {
    try {
      this.tracker.get(gvr, namespace, name);
      return true;
    } catch (err) {
      if (err instanceof StatusError && err.reason === 'NotFound') return false;
      throw err;
    }
  }

  #name(opts: ManagedWriteOptions): string {
    return managerOrUserAgent(opts.fieldManager ?? '', this.#userAgent);
  }

  #resource(gvr: GroupVersionResource): FakeResource {
    const r = this.tracker.findResource(gvr);
    if (r === undefined) throw newPathNotFound();
    return r;
  }

  /** One FieldManager per resource and endpoint, built from the resource's schema as the server's installer builds it. */
  #manager(r: FakeResource, subresource: string): FieldManager {
    const key = `${gvrString(r.descriptor)}/${subresource}`;
    let fm = this.#managers.get(key);
    if (fm === undefined) {
      const apiVersion = apiVersionOf(r.descriptor);
      const { kind } = r.descriptor;
      const types = r.managedFieldsTypes ?? (r.schema === undefined ? undefined : { apiVersion, kind, schema: r.schema });
      const typeConverter = types === undefined ? deducedTypeConverter : newTypeConverter([types], { preserveUnknownFields: false });
      const objectCreater = (): JSONObject => emptyObject(r);
      const opts = { typeConverter, objectConverter: ownVersion, apiVersion, hubApiVersion: apiVersion, kind, subresource, objectCreater, now: this.now };
      fm = r.strategicMergePatch === false || r.schema === undefined ? newDefaultCRDFieldManager({ ...opts, preserveUnknownFields: false }) : newDefaultFieldManager(opts);
      this.#managers.set(key, fm);
    }
    return fm;
  }
}

/** An apply needs a field manager: kube's 422 on PatchOptions otherwise. */
function requireApplyManager(opts: ManagedWriteOptions): string {
  const manager = opts.fieldManager ?? '';
  if (manager === '') throw newInvalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [{ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' }]);
  return manager;
}

/** The live object of a create: the kind's zero object, as the handlers' Creater.New. */
function emptyObject(r: FakeResource): JSONObject {
  return newZeroObject(r, apiVersionOf(r.descriptor), r.descriptor.kind);
}
