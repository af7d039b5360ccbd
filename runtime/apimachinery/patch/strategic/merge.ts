import { isJSONObject, setField, type JSONObject } from '../../serializer/jsonvalue.js';
import { errBadPatchFormatForPrimitiveList, errBadPatchFormatForRetainKeys, errBadPatchFormatForSetElementOrderList, MergePatchError } from './errors.js';
import { goFormat, goType } from './gosort.js';
import type { SchemaPatchMeta } from './patchmeta.js';
import { mergeSlice, normalizeElementOrder, partitionMapsByPresentInList, partitionPrimitivesByPresentInList, sliceElementType } from './slices.js';

/**
 * Applying a strategic merge patch to a JSON map (strategicpatch.mergeMap
 * with MergeParallelList and IgnoreUnmatchedNulls, as the apiserver applies
 * patches). Both arguments are modified: callers pass copies.
 */

export const DIRECTIVE_MARKER = '$patch';
export const DELETE_DIRECTIVE = 'delete';
export const REPLACE_DIRECTIVE = 'replace';
export const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

export function errBadArgType(expected: string, actual: unknown): MergePatchError {
  return new MergePatchError(`expected a ${expected}, but received a ${goType(actual)}`);
}

export function errNoMergeKey(m: unknown, mergeKey: string): MergePatchError {
  return new MergePatchError(`map: ${goFormat(m)} does not contain declared merge key: ${mergeKey}`);
}

export function errBadPatchType(t: unknown, m: unknown): MergePatchError {
  return new MergePatchError(`unknown patch type: ${goFormat(t)} in map: ${goFormat(m)}`);
}

export function mergeMap(original: JSONObject, patch: JSONObject, schema: SchemaPatchMeta): JSONObject {
  if (DIRECTIVE_MARKER in patch) {
    const directive = patch[DIRECTIVE_MARKER];
    if (directive === REPLACE_DIRECTIVE) {
      delete patch[DIRECTIVE_MARKER];
      return patch;
    }
    if (directive === DELETE_DIRECTIVE) return {};
    throw errBadPatchType(directive, patch);
  }
  applyRetainKeysDirective(original, patch);
  mergePatchIntoOriginal(original, patch, schema);

  for (const [key, patchV] of Object.entries(patch)) {
    let k = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      k = extractKey(key, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete original[k];
      continue;
    }
    const has = Object.prototype.hasOwnProperty.call(original, k);
    if (!has || goType(original[k]) !== goType(patchV)) {
      if (!isDeleteList) takePatchValue(original, k, patchV);
      continue;
    }
    if (isJSONObject(patchV)) {
      const { sub, meta } = schema.lookupForStruct(k);
      const strategy = extractRetainKeysPatchStrategy(meta.strategies);
      setField(original, k, strategy !== REPLACE_DIRECTIVE ? mergeMap(original[k] as JSONObject, patchV, sub) : patchV);
    } else if (Array.isArray(patchV)) {
      const { sub, meta } = schema.lookupForSlice(k);
      const strategy = extractRetainKeysPatchStrategy(meta.strategies);
      setField(original, k, mergeSliceHandler(original[k] as unknown[], patchV, sub, strategy, meta.mergeKey, isDeleteList));
    } else {
      takePatchValue(original, k, patchV);
    }
  }
  return original;
}

/** The patch value replaces the field, without nulls or directives (a bare directive removes the field). */
function takePatchValue(original: JSONObject, k: string, patchV: unknown): void {
  discardNullValuesFromPatch(patchV);
  const [v, keep] = removeDirectives(patchV);
  if (keep) setField(original, k, v);
  else delete original[k];
}

export function mergeSliceHandler(original: unknown[], patch: unknown[], schema: SchemaPatchMeta, strategy: string, mergeKey: string, isDeleteList: boolean): unknown[] {
  // Delete lists are handled the same way whatever the field's strategy.
  if (strategy === MERGE_DIRECTIVE || isDeleteList) return mergeSlice(original, patch, schema, mergeKey, isDeleteList);
  return patch;
}

/** `$retainKeys`: clears the original's keys missing from the list; every patched key must be listed. */
function applyRetainKeysDirective(original: JSONObject, patch: JSONObject): void {
  if (!(RETAIN_KEYS_DIRECTIVE in patch)) return;
  const list = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(list)) throw errBadPatchFormatForRetainKeys();
  const retained = new Set<unknown>(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!retained.has(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!retained.has(k)) delete original[k];
}

/**
 * `$setElementOrder/<list>`: merges the list with its patch here and orders
 * the result by the directive, then the patch, then the live list.
 */
function mergePatchIntoOriginal(original: JSONObject, patch: JSONObject, schema: SchemaPatchMeta): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType('[]interface {}', order);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = Object.prototype.hasOwnProperty.call(original, originalKey);
    const foundPatch = Object.prototype.hasOwnProperty.call(patch, originalKey);
    const originalList = original[originalKey];
    const patchList = patch[originalKey];
    if (foundOriginal && !Array.isArray(originalList)) throw errBadArgType('[]interface {}', originalList);
    if (foundPatch && !Array.isArray(patchList)) throw errBadArgType('[]interface {}', patchList);
    const { sub, meta } = schema.lookupForSlice(originalKey);
    const strategy = extractRetainKeysPatchStrategy(meta.strategies);
    validatePatchWithSetOrderList(patchList as unknown[] | undefined, order, meta.mergeKey);

    let merged: unknown[];
    if (foundOriginal && !foundPatch) merged = originalList as unknown[];
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList)[0] as unknown[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList as unknown[], patchList as unknown[], sub, strategy, meta.mergeKey, false);
    else continue;

    const [patchItems, serverOnly] = meta.mergeKey === '' ? partitionPrimitivesByPresentInList(merged, order) : partitionMapsByPresentInList(merged, order, meta.mergeKey);
    const kind = sliceElementType((originalList as unknown[] | undefined) ?? [], (patchList as unknown[] | undefined) ?? []);
    setField(original, originalKey, normalizeElementOrder(patchItems, serverOnly, order, (originalList as unknown[] | undefined) ?? [], meta.mergeKey, kind));
    delete patch[originalKey];
  }
}

/** validatePatchWithSetOrderList: the patch list's items appear in the directive, in its relative order. */
function validatePatchWithSetOrderList(patchList: unknown[] | undefined, order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList === undefined || patchList.length === 0) return;
  let nonDelete = patchList;
  if (mergeKey !== '') {
    nonDelete = [];
    for (const v of patchList) {
      if (!isJSONObject(v)) throw errBadArgType('map[string]interface {}', v);
      if (v[DIRECTIVE_MARKER] !== DELETE_DIRECTIVE) nonDelete.push(v);
    }
  }
  let p = 0;
  let o = 0;
  while (p < nonDelete.length && o < order.length) {
    if (isJSONObject(nonDelete[p]) && DIRECTIVE_MARKER in (nonDelete[p] as JSONObject)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < nonDelete.length && o >= order.length) {
    throw new MergePatchError(`The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goFormat(order)}\n`);
  }
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return left === right;
  if (!isJSONObject(left)) throw errBadArgType('map[string]interface {}', left);
  if (!isJSONObject(right)) throw errBadArgType('map[string]interface {}', right);
  if (!(mergeKey in left)) throw errNoMergeKey(left, mergeKey);
  if (!(mergeKey in right)) throw errNoMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash === -1 || s.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX) throw errBadPatchFormatForPrimitiveList();
    throw errBadPatchFormatForSetElementOrderList();
  }
  return s.slice(slash + 1);
}

/** `merge,retainKeys` → `merge`: the strategy other than retainKeys (extractRetainKeysPatchStrategy). */
function extractRetainKeysPatchStrategy(strategies: readonly string[]): string {
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === RETAIN_KEYS_STRATEGY ? '' : (strategies[0] ?? '');
  if (strategies.length === 2) {
    if (strategies[0] === RETAIN_KEYS_STRATEGY) return strategies[1] ?? '';
    if (strategies[1] === RETAIN_KEYS_STRATEGY) return strategies[0] ?? '';
  }
  throw new MergePatchError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

/** Removes directives from a value taken from the patch; `[value, keep]`, keep false for a bare directive map. */
export function removeDirectives(obj: unknown): [unknown, boolean] {
  if (isJSONObject(obj)) {
    if (DIRECTIVE_MARKER in obj) return [undefined, false];
    for (const [k, v] of Object.entries(obj)) {
      const [nv, keep] = removeDirectives(v);
      if (keep) setField(obj, k, nv);
      else delete obj[k];
    }
    return [obj, true];
  }
  if (Array.isArray(obj)) {
    const res: unknown[] = [];
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v);
      if (keep) res.push(nv);
    }
    return [res, true];
  }
  return [obj, true];
}

/** Drops null fields at any depth of a value taken from the patch. */
function discardNullValuesFromPatch(v: unknown): void {
  if (isJSONObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k];
      else discardNullValuesFromPatch(x);
    }
  } else if (Array.isArray(v)) {
    for (const x of v) discardNullValuesFromPatch(x);
  }
}
