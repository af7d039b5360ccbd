import type { JSONObject } from '../serializer/jsonvalue.js';
import { isJSONObject, ownField } from '../serializer/jsonvalue.js';
import type { APIVersion } from '../structuredmerge/fieldpath/index.js';
import type { Converter, MaybePromise } from '../structuredmerge/merge/index.js';
import type { TypedValue } from '../structuredmerge/typed/index.js';
import type { GroupVersion } from './groupversion.js';
import { groupVersionString, objectGroupVersionKind, parseGroupVersion } from './groupversion.js';
import type { TypeConverter } from './typeconverter.js';
import { NoCorrespondingTypeError } from './typeconverter.js';

/**
 * Converts an object to another version of its kind (runtime.ObjectConvertor.ConvertToVersion):
 * the result's apiVersion names `apiVersion`. May be asynchronous (a conversion webhook). A
 * version the kind is not served in must throw a NotRegisteredError, so that sets recorded at a
 * version no longer served are dropped instead of failing every request.
 */
export interface ObjectConvertor {
  convert(obj: JSONObject, apiVersion: string): MaybePromise<JSONObject>;
}

/** A kind not served in a version (runtime's notRegisteredErr). */
export class NotRegisteredError extends Error {
  constructor(
    readonly kind: string,
    readonly apiVersion: string,
  ) {
    super(`no kind "${kind}" is registered for version "${apiVersion}"`);
    this.name = 'NotRegisteredError';
  }
}

/**
 * The merge.Converter kube hands structured-merge-diff: a typed value is converted through the
 * hub version with the object convertor, then typed again by the type converter. Built-in kinds
 * go through the hub version of the object's own group (`hubApiVersion`'s version).
 */
export function newVersionConverter(tc: TypeConverter, oc: ObjectConvertor, hubApiVersion: string): Converter {
  const hub = parseGroupVersion(hubApiVersion);
  return new VersionConverter(tc, oc, (from) => ({ group: from.group, version: hub.version }));
}

/** The version converter of custom resources: every version goes through `hubApiVersion` itself. */
export function newCRDVersionConverter(tc: TypeConverter, oc: ObjectConvertor, hubApiVersion: string): Converter {
  const hub = parseGroupVersion(hubApiVersion);
  return new VersionConverter(tc, oc, () => hub);
}

class VersionConverter implements Converter {
  constructor(
    private readonly typeConverter: TypeConverter,
    private readonly objectConvertor: ObjectConvertor,
    private readonly hubOf: (from: GroupVersion) => GroupVersion,
  ) {}

  async convert(object: TypedValue, version: APIVersion): Promise<TypedValue> {
    const target = parseGroupVersion(version);
    const current = groupVersionOfTypedValue(object);
    // Already there: the same typed value, untouched (nothing to convert, nothing to retype).
    if (current !== undefined && current.group === target.group && current.version === target.version) return object;
    const obj = this.typeConverter.typedToObject(object);
    const from = objectGroupVersionKind(obj);
    const hub = groupVersionString(this.hubOf(from));
    const fromVersion = groupVersionString(from);
    const internal = fromVersion === hub ? obj : await this.objectConvertor.convert(obj, hub);
    const targetVersion = groupVersionString(target);
    const converted = targetVersion === hub ? internal : await this.objectConvertor.convert(internal, targetVersion);
    return this.typeConverter.objectToTyped(converted);
  }

  isMissingVersionError(err: unknown): boolean {
    return err instanceof NotRegisteredError || err instanceof NoCorrespondingTypeError;
  }
}

/** The GroupVersion a typed value's apiVersion names (GroupVersionOfTypedValue); undefined without a usable one. */
export function groupVersionOfTypedValue(object: TypedValue): GroupVersion | undefined {
  const value = object.value;
  if (!isJSONObject(value)) return undefined;
  const apiVersion = ownField(value, 'apiVersion');
  if (typeof apiVersion !== 'string') return undefined;
  try {
    return parseGroupVersion(apiVersion);
  } catch {
    return undefined;
  }
}
