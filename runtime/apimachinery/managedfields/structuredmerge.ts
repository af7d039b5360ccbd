import { newBadRequest } from '../errors/catalog.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { deepCopyJSON, isJSONObject, ownField } from '../serializer/jsonvalue.js';
import type { APIVersion, Set as FieldSet } from '../structuredmerge/fieldpath/index.js';
import { newExcludeFilterSetMap } from '../structuredmerge/fieldpath/index.js';
import type { Converter } from '../structuredmerge/merge/index.js';
import { Updater } from '../structuredmerge/merge/index.js';
import { wrapError as wrap } from '../structuredmerge/merge/converter.js';
import { groupVersionKindString, groupVersionString, objectGroupVersionKind, parseGroupVersion } from './groupversion.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
import { newManaged, removeObjectManagedFields } from './managedfields.js';
import type { TypeConverter } from './typeconverter.js';
import type { ObjectConvertor } from './versionconverter.js';
import { newCRDVersionConverter, newVersionConverter } from './versionconverter.js';

/** Fills an object's defaults in place (runtime.ObjectDefaulter), after an apply merged it. */
export type ObjectDefaulter = (obj: JSONObject) => void;

/**
 * The innermost Manager (internal.structuredMergeManager): an update records what the new
 * object changed, an apply merges the applied configuration, both through SMD's Updater in the
 * request version `groupVersion`; objects arrive and leave in `hubVersion`. Reset fields are
 * owned by nobody through this endpoint. The live object is typed without its managedFields:
 * kube types them too, but nobody can own them (stripmeta leaves them out of every set) and the
 * merged object's are replaced by the encoded result, so that changes nothing but the work
 * (they are often a third of the object).
 */
export function newStructuredMergeManager(
  tc: TypeConverter,
  oc: ObjectConvertor,
  groupVersion: string,
  hubVersion: string,
  resetFields?: ReadonlyMap<APIVersion, FieldSet>,
  defaulter?: ObjectDefaulter,
): Manager {
  return new StructuredMergeManager(tc, oc, groupVersion, hubVersion, newVersionConverter(tc, oc, hubVersion), resetFields, defaulter);
}

/**
 * The same for custom resources (NewCRDStructuredMergeManager): every version converts through
 * the hub version itself, and the type converter may be the deduced one (no schema).
 */
export function newCRDStructuredMergeManager(
  tc: TypeConverter,
  oc: ObjectConvertor,
  groupVersion: string,
  hubVersion: string,
  resetFields?: ReadonlyMap<APIVersion, FieldSet>,
  defaulter?: ObjectDefaulter,
): Manager {
  return new StructuredMergeManager(tc, oc, groupVersion, hubVersion, newCRDVersionConverter(tc, oc, hubVersion), resetFields, defaulter);
}

class StructuredMergeManager implements Manager {
  private readonly groupVersion: string;
  private readonly hubVersion: string;
  private readonly updater: Updater;

  constructor(
    private readonly typeConverter: TypeConverter,
    private readonly objectConverter: ObjectConvertor,
    groupVersion: string,
    hubVersion: string,
    converter: Converter,
    resetFields: ReadonlyMap<APIVersion, FieldSet> | undefined,
    private readonly defaulter: ObjectDefaulter | undefined,
  ) {
    this.groupVersion = groupVersionString(parseGroupVersion(groupVersion));
    this.hubVersion = groupVersionString(parseGroupVersion(hubVersion));
    this.updater = new Updater(resetFields === undefined ? { converter } : { converter, ignoreFilter: newExcludeFilterSetMap(resetFields) });
  }

  async update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    const newVersioned = await this.toVersioned(newObj).catch((err: unknown) => {
      throw wrap(`failed to convert new object (${objectGVKNN(newObj)}) to proper version (${this.groupVersion})`, err);
    });
    const liveVersioned = await this.toVersioned(removeObjectManagedFields(liveObj)).catch((err: unknown) => {
      throw wrap(`failed to convert live object (${objectGVKNN(liveObj)}) to proper version`, err);
    });
    const newTyped = attempt(
      () => this.typeConverter.objectToTyped(newVersioned, { allowDuplicates: true }),
      () => `failed to convert new object (${objectGVKNN(newVersioned)}) to smd typed`,
    );
    const liveTyped = attempt(
      () => this.typeConverter.objectToTyped(liveVersioned, { allowDuplicates: true }),
      () => `failed to convert live object (${objectGVKNN(liveVersioned)}) to smd typed`,
    );
    // Only the managers are kept: the object to persist is the caller's, as given.
    const result = await this.updater.update(liveTyped, newTyped, this.groupVersion, managed.fields(), manager).catch((err: unknown) => {
      throw wrap(`failed to update ManagedFields (${objectGVKNN(newVersioned)})`, err);
    });
    return { object: newObj, managed: newManaged(result.managers, managed.times()) };
  }

  async apply(liveObj: JSONObject, patchObj: JSONObject, managed: Managed, manager: string, force: boolean): Promise<ManagerApplyResult> {
    const patchVersion = groupVersionString(objectGroupVersionKind(patchObj));
    if (patchVersion !== this.groupVersion) {
      throw newBadRequest(`Incorrect version specified in apply patch. Specified patch version: ${patchVersion}, expected: ${this.groupVersion}`);
    }
    const meta = ownField(patchObj, 'metadata');
    if (isJSONObject(meta) && Array.isArray(ownField(meta, 'managedFields'))) throw newBadRequest('metadata.managedFields must be nil');

    const liveVersioned = await this.toVersioned(removeObjectManagedFields(liveObj)).catch((err: unknown) => {
      throw wrap(`failed to convert live object (${objectGVKNN(liveObj)}) to proper version`, err);
    });
    // The applied configuration may not repeat a set member or a list-map key; the live object may.
    const patchTyped = attempt(
      () => this.typeConverter.objectToTyped(patchObj),
      () => `failed to create typed patch object (${objectGVKNN(patchObj)})`,
    );
    const liveTyped = attempt(
      () => this.typeConverter.objectToTyped(liveVersioned, { allowDuplicates: true }),
      () => `failed to create typed live object (${objectGVKNN(liveVersioned)})`,
    );

    const result = await this.updater.apply(liveTyped, patchTyped, this.groupVersion, managed.fields(), manager, force);
    const out = newManaged(result.managers, managed.times());
    const merged = result.object;
    if (merged === null) return { object: null, managed: out };

    // The merge shares untouched subtrees with the live object (possibly a cached, frozen one):
    // the result is copied so the layers above and the handler may change it freely.
    const newObj = deepCopyJSON(
      attempt(
        () => this.typeConverter.typedToObject(merged),
        () => `failed to convert new typed object (${objectGVKNN(patchObj)}) to object`,
      ),
    );
    const newVersioned = await this.toVersioned(newObj).catch((err: unknown) => {
      throw wrap(`failed to convert new object (${objectGVKNN(patchObj)}) to proper version`, err);
    });
    this.defaulter?.(newVersioned);
    const newUnversioned = await this.convert(newVersioned, this.hubVersion).catch((err: unknown) => {
      throw wrap(`failed to convert to unversioned (${objectGVKNN(patchObj)})`, err);
    });
    return { object: newUnversioned, managed: out };
  }

  private toVersioned(obj: JSONObject): Promise<JSONObject> {
    return this.convert(obj, this.groupVersion);
  }

  /** ConvertToVersion; an object already in `apiVersion` is returned as it is. */
  private async convert(obj: JSONObject, apiVersion: string): Promise<JSONObject> {
    if (groupVersionString(objectGroupVersionKind(obj)) === apiVersion) return obj;
    return this.objectConverter.convert(obj, apiVersion);
  }
}

/** `<namespace>/<name>; <gvk>` (objectGVKNN), with empty strings where the object has none. */
function objectGVKNN(obj: JSONObject): string {
  const meta = ownField(obj, 'metadata');
  const str = (k: string): string => {
    const v = isJSONObject(meta) ? ownField(meta, k) : undefined;
    return typeof v === 'string' ? v : '';
  };
  return `${str('namespace')}/${str('name')}; ${groupVersionKindString(objectGroupVersionKind(obj))}`;
}

function attempt<T>(fn: () => T, context: () => string): T {
  try {
    return fn();
  } catch (err) {
    throw wrap(context(), err);
  }
}
