import type { APIVersion, Set as FieldSet } from '../structuredmerge/fieldpath/index.js';
import { Conflicts } from '../structuredmerge/merge/index.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { isJSONObject, ownField } from '../serializer/jsonvalue.js';
import type { Managed, Manager } from './manager.js';
import type { TypeConverter } from './typeconverter.js';
import type { ObjectConvertor } from './versionconverter.js';
import type { ObjectDefaulter } from './structuredmerge.js';
import { newCRDStructuredMergeManager, newStructuredMergeManager } from './structuredmerge.js';
import { decodeManagedFields, encodeObjectManagedFields, newEmptyManaged, removeObjectManagedFields } from './managedfields.js';
import { newConflictError } from './conflict.js';
import { newVersionCheckManager } from './versioncheck.js';
import { newLastAppliedUpdater } from './lastappliedupdater.js';
import { newLastAppliedManager } from './lastappliedmanager.js';
import { newProbabilisticSkipNonAppliedManager, type ObjectCreater } from './skipnonapplied.js';
import { newCapManagersManager } from './capmanagers.js';
import { newBuildManagerInfoManager } from './buildmanagerinfo.js';
import { newManagedFieldsUpdater } from './managedfieldsupdater.js';
import { newStripMetaManager } from './stripmeta.js';

/** How many Update entries an object keeps before the oldest are merged (DefaultMaxUpdateManagers). */
export const defaultMaxUpdateManagers = 10;

/** The probability that an object's fields are tracked from its creation (DefaultTrackOnCreateProbability). */
export const defaultTrackOnCreateProbability = 1;

/**
 * Decodes, manages and re-encodes managedFields around a Manager chain for update and apply
 * requests (internal.FieldManager). Inputs are never mutated; every result is a new object.
 */
export class FieldManager {
  constructor(
    private readonly fieldManager: Manager,
    private readonly subresource: string,
  ) {}

  /**
   * Records `manager`'s changes from `liveObj` to `newObj`, an already merged object (create,
   * update, non-apply patch). managedFields sent in `newObj` are honoured on the main resource
   * (a client may rewrite them, or reset them with an empty list); on a subresource, and when
   * they do not decode, the live ones are kept.
   */
  async update(liveObj: JSONObject, newObj: JSONObject, manager: string): Promise<JSONObject> {
    if (!hasMetadata(liveObj) || !hasMetadata(newObj)) return newObj;
    const managed = decodeLiveOrNew(liveObj, newObj, this.subresource !== '');
    const result = await this.fieldManager.update(liveObj, removeObjectManagedFields(newObj), managed, manager);
    return encodeObjectManagedFields(result.object, result.managed);
  }

  /**
   * Same as update, but never fails: on an error the object keeps the live object's
   * managedFields, so a failing conversion (a webhook that is down) loses no ownership
   * (UpdateNoErrors as kube has it since it stopped stripping them on failure).
   */
  async updateNoErrors(liveObj: JSONObject, newObj: JSONObject, manager: string): Promise<JSONObject> {
    try {
      return await this.update(liveObj, newObj, manager);
    } catch {
      const live = metadataManagedFields(liveObj);
      const stripped = removeObjectManagedFields(newObj);
      return live === undefined ? stripped : withManagedFields(stripped, live);
    }
  }

  /**
   * Merges `appliedObj` into `liveObj` as `manager`'s applied configuration. Conflicts end as a
   * 409 StatusError; other failures are thrown as the layers raised them.
   */
  async apply(liveObj: JSONObject, appliedObj: JSONObject, manager: string, force: boolean): Promise<JSONObject> {
    if (!hasMetadata(liveObj)) throw new Error("couldn't get accessor: object does not implement the Object interfaces");
    let managed: Managed;
    try {
      managed = decodeManagedFields(metadataManagedFields(liveObj));
    } catch (err) {
      throw new Error(`failed to decode managed fields: ${errorMessage(err)}`, { cause: err });
    }
    let result;
    try {
      result = await this.fieldManager.apply(liveObj, appliedObj, managed, manager, force);
    } catch (err) {
      if (err instanceof Conflicts) throw newConflictError(err);
      throw err;
    }
    return encodeObjectManagedFields(result.object ?? removeObjectManagedFields(liveObj), result.managed);
  }
}

/** What the default field manager chains need (NewDefaultFieldManager's parameters). */
export interface FieldManagerOptions {
  readonly typeConverter: TypeConverter;
  readonly objectConverter: ObjectConvertor;
  /** The version requests are served in, `group/version` (`v1` for the core group). */
  readonly apiVersion: string;
  /** The version objects are merged in (the storage hub). */
  readonly hubApiVersion: string;
  readonly kind: string;
  /** '' for the main resource, else the subresource (`status`, `scale`). */
  readonly subresource: string;
  /** Fields the strategy resets, per version: nobody owns them through this endpoint. */
  readonly resetFields?: ReadonlyMap<APIVersion, FieldSet>;
  /** Fills defaults into what an apply merged, as the request's decoder would have (runtime.ObjectDefaulter). */
  readonly objectDefaulter?: ObjectDefaulter;
  /** The clock managedFields times are taken from (default: the wall clock). */
  readonly now?: () => Date;
  readonly maxUpdateManagers?: number;
  /** The kind's zero object in a version (the objectCreater of a first apply); default `{apiVersion, kind}`. */
  readonly objectCreater?: ObjectCreater;
}

/** A FieldManager for a built-in kind: the structured merge manager wrapped in kube's default layers. */
export function newDefaultFieldManager(o: FieldManagerOptions): FieldManager {
  const f = newStructuredMergeManager(o.typeConverter, o.objectConverter, o.apiVersion, o.hubApiVersion, o.resetFields, o.objectDefaulter);
  return wrapDefaultLayers(f, o);
}

/**
 * A FieldManager for a custom resource: fields outside the schema are tolerated where the
 * schema preserves unknown fields, and a CRD without schema merges deduced types.
 */
export function newDefaultCRDFieldManager(o: FieldManagerOptions & { readonly preserveUnknownFields: boolean }): FieldManager {
  const f = newCRDStructuredMergeManager(o.typeConverter, o.objectConverter, o.apiVersion, o.hubApiVersion, o.resetFields, o.objectDefaulter);
  return wrapDefaultLayers(f, o);
}

/** The layer order of internal.NewDefaultFieldManager, outermost first. */
function wrapDefaultLayers(f: Manager, o: FieldManagerOptions): FieldManager {
  const now = o.now ?? (() => new Date());
  const chain = newVersionCheckManager(
    newLastAppliedUpdater(
      newLastAppliedManager(
        newProbabilisticSkipNonAppliedManager(
          newCapManagersManager(newBuildManagerInfoManager(newManagedFieldsUpdater(newStripMetaManager(f), now), o.apiVersion, o.subresource), o.maxUpdateManagers ?? defaultMaxUpdateManagers),
          defaultTrackOnCreateProbability,
          Math.random,
          o.objectCreater,
        ),
        o.typeConverter,
        o.objectConverter,
        o.apiVersion,
      ),
    ),
    o.apiVersion,
    o.kind,
  );
  return new FieldManager(chain, o.subresource);
}

function hasMetadata(obj: JSONObject): boolean {
  const meta = ownField(obj, 'metadata');
  return meta === undefined || isJSONObject(meta);
}

/** `obj` with `managedFields` (as encoded) set in its metadata. */
function withManagedFields(obj: JSONObject, managedFields: unknown): JSONObject {
  const meta = ownField(obj, 'metadata');
  return { ...obj, metadata: { ...(isJSONObject(meta) ? meta : {}), managedFields } };
}

function metadataManagedFields(obj: JSONObject): unknown {
  const meta = ownField(obj, 'metadata');
  return isJSONObject(meta) ? ownField(meta, 'managedFields') : undefined;
}

/**
 * The managedFields to start from (decodeLiveOrNew): the live ones on a subresource; none when
 * the request resets them; the request's when they decode and are not empty; else the live ones.
 * Live managedFields that do not decode count as empty.
 */
function decodeLiveOrNew(liveObj: JSONObject, newObj: JSONObject, ignoreRequestManagedFields: boolean): Managed {
  const live = (): Managed => decodeOrEmpty(metadataManagedFields(liveObj));
  if (ignoreRequestManagedFields) return live();
  const requested = metadataManagedFields(newObj);
  if (isResetManagedFields(requested)) return newEmptyManaged();
  try {
    const managed = decodeManagedFields(requested);
    if (managed.fields().size > 0) return managed;
  } catch {
    // A list a client wrote wrongly must not lose the recorded ownership.
  }
  return live();
}

function decodeOrEmpty(encoded: unknown): Managed {
  try {
    return decodeManagedFields(encoded);
  } catch {
    return newEmptyManaged();
  }
}

/** An empty list, or a list of one empty entry, asks for the managedFields to be reset. */
function isResetManagedFields(encoded: unknown): boolean {
  if (!Array.isArray(encoded)) return false;
  if (encoded.length === 0) return true;
  return encoded.length === 1 && isJSONObject(encoded[0]) && isEmptyEntry(encoded[0]);
}

/** The zero ManagedFieldsEntry: no field of the entry set (fields it does not have are not read, as decoding drops them). */
function isEmptyEntry(entry: JSONObject): boolean {
  for (const k of ['manager', 'operation', 'apiVersion', 'fieldsType', 'subresource']) {
    const v = ownField(entry, k);
    if (v !== undefined && v !== null && v !== '') return false;
  }
  return (ownField(entry, 'time') ?? null) === null && (ownField(entry, 'fieldsV1') ?? null) === null;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
