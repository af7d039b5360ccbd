import { goType } from '../patch/strategic/gosort.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { isJSONObject, ownField } from '../serializer/jsonvalue.js';
import { Set as FieldSet } from '../structuredmerge/fieldpath/index.js';
import { wrapError as wrap } from '../structuredmerge/merge/converter.js';
import type { ParseableType, TypedValue } from '../structuredmerge/typed/index.js';
import { groupVersionString, objectGroupVersionKind } from './groupversion.js';
import type { TypeConverter } from './typeconverter.js';

/**
 * The applied configuration `fieldManager` owns in `obj` (managedfields.ExtractInto): the
 * fields of its Apply entry for `subresource` ('' for the main resource), with their values
 * in `obj`, as an object to apply again (a read-modify-apply loop). A manager without an Apply
 * entry owns nothing: `{}`. `obj` must be the resource itself (a subresource's object, as a
 * Scale, carries no managedFields); status works since its paths are the resource's.
 * The type of `obj` is `objectType`; `obj` is not changed.
 */
export function extractInto(obj: JSONObject, objectType: ParseableType, fieldManager: string, subresource: string): JSONObject {
  return extractTyped(obj, () => objectType.fromUnstructured(obj), fieldManager, subresource);
}

/**
 * extractInto with the type of `obj` found by a TypeConverter: the kind its apiVersion and kind
 * name, or `gvk` for an object that does not say (an item of a list), as a generated client's
 * ExtractX knows its kind.
 */
export function extract(obj: JSONObject, fieldManager: string, tc: TypeConverter, subresource: string, gvk?: { readonly apiVersion: string; readonly kind: string }): JSONObject {
  const typed = gvk === undefined ? obj : { ...obj, apiVersion: gvk.apiVersion, kind: gvk.kind };
  return extractTyped(typed, () => tc.objectToTyped(typed), fieldManager, subresource);
}

function extractTyped(obj: JSONObject, toTyped: () => TypedValue, fieldManager: string, subresource: string): JSONObject {
  let typed: TypedValue;
  try {
    typed = toTyped();
  } catch (err) {
    throw wrap('error converting obj to typed', err);
  }
  const fieldsV1 = findManagedFields(obj, fieldManager, subresource);
  if (fieldsV1 === undefined) return {};
  let fieldset: FieldSet;
  try {
    fieldset = FieldSet.fromFieldsV1(fieldsV1);
  } catch (err) {
    throw wrap('error marshalling FieldsV1 to JSON', err);
  }
  const u = typed.extractItems(fieldset.leaves()).value;
  if (!isJSONObject(u)) throw new Error(`unable to convert managed fields for ${fieldManager} to unstructured, expected map, got ${goType(u)}`);
  const out: JSONObject = { ...u };
  // The type meta, so the result decodes as the kind it was extracted from.
  const gvk = objectGroupVersionKind(obj);
  if (ownField(out, 'kind') === undefined && gvk.kind !== '') {
    out['kind'] = gvk.kind;
    out['apiVersion'] = groupVersionString(gvk);
  }
  return out;
}

/** The FieldsV1 of the Apply entry of `fieldManager` for `subresource` (findManagedFields). */
function findManagedFields(obj: JSONObject, fieldManager: string, subresource: string): unknown {
  const meta = ownField(obj, 'metadata');
  const entries = isJSONObject(meta) ? ownField(meta, 'managedFields') : undefined;
  if (!Array.isArray(entries)) return undefined;
  for (const e of entries) {
    if (!isJSONObject(e)) continue;
    const sub = ownField(e, 'subresource') ?? '';
    if (ownField(e, 'manager') === fieldManager && ownField(e, 'operation') === 'Apply' && sub === subresource) return ownField(e, 'fieldsV1') ?? {};
  }
  return undefined;
}
