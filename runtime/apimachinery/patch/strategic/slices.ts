import { isJSONObject, type JSONObject } from '../../serializer/jsonvalue.js';
import { errNoListOfLists, MergePatchError } from './errors.js';
import { goFormat, goType, sliceStable } from './gosort.js';
import { DELETE_DIRECTIVE, DIRECTIVE_MARKER, errBadArgType, errBadPatchType, errNoMergeKey, MERGE_DIRECTIVE, mergeMap, REPLACE_DIRECTIVE } from './merge.js';
import type { SchemaPatchMeta } from './patchmeta.js';

/** Merging lists with the merge strategy (strategicpatch.mergeSlice and its ordering rules). */

const MAP_KIND = 'map[string]interface {}';

/**
 * Merges `patch` into `original`: primitives are unioned (or, for a
 * `$deleteFromPrimitiveList`, removed); maps are matched by `mergeKey` and
 * merged, with `$patch: delete|replace` items honoured. The result is
 * ordered as the patch orders it, server-only items kept in their places.
 */
export function mergeSlice(original: unknown[], patch: unknown[], schema: SchemaPatchMeta, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);
  let merged: unknown[];
  let orig = original;
  let pat = patch;
  if (kind !== MAP_KIND) {
    if (isDeleteList) return deleteFromSlice(original, patch);
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw new MergePatchError('cannot merge lists without merge key for Struct');
    [orig, pat] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(orig, pat, mergeKey, schema);
  }
  const [patchItems, serverOnly] = mergeKey === '' ? partitionPrimitivesByPresentInList(merged, pat) : partitionMapsByPresentInList(merged, pat, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, pat, orig, mergeKey, kind);
}

/** Handles `$patch` items: delete removes matching entries, replace makes the rest of the patch the list. */
function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    const item = v as JSONObject;
    if (!(DIRECTIVE_MARKER in item)) {
      plain.push(v);
      continue;
    }
    const directive = item[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!(mergeKey in item)) throw errNoMergeKey(item, mergeKey);
      orig = orig.filter((x) => !(isJSONObject(x) && mergeKey in x && x[mergeKey] === item[mergeKey]));
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw new MergePatchError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, item);
    }
  }
  return replace ? [plain, []] : [orig, plain];
}

function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, schema: SchemaPatchMeta): unknown[] {
  const out = original;
  for (const v of patch) {
    const item = v as JSONObject;
    if (!(mergeKey in item)) throw errNoMergeKey(item, mergeKey);
    const i = findMapInSliceBasedOnKeyValue(out, mergeKey, item[mergeKey]);
    if (i >= 0) out[i] = mergeMap(out[i] as JSONObject, item, schema);
    else out.push(v);
  }
  return out;
}

function findMapInSliceBasedOnKeyValue(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isJSONObject(v)) throw new MergePatchError(`value for key ${i} is not a map`);
    if (key in v && v[key] === value) return i;
  }
  return -1;
}

function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const del = new Set(toDelete);
  return current.filter((v) => !del.has(v));
}

/** Go's in-place deduplication: a later duplicate is overwritten by the last element. */
function deduplicateScalars(s: unknown[]): unknown[] {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

/** The Go type shared by the elements of the lists; lists of lists are refused. */
export function sliceElementType(...lists: unknown[][]): string {
  let prev: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (Array.isArray(v)) throw errNoListOfLists();
      } else if (prev !== t) {
        throw new MergePatchError(`list element types are not identical: ${goFormat(lists)}`);
      }
    }
  }
  if (prev === undefined) throw new MergePatchError('no elements in any of the given slices');
  return prev;
}

export function partitionPrimitivesByPresentInList(list: unknown[], by: unknown[]): [unknown[], unknown[]] {
  const inPatch = new Set(by);
  return [list.filter((v) => inPatch.has(v)), list.filter((v) => !inPatch.has(v))];
}

export function partitionMapsByPresentInList(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) {
    if (!isJSONObject(v)) throw errBadArgType(MAP_KIND, v);
    if (!(mergeKey in v)) throw errNoMergeKey(v, mergeKey);
    if (findMapInSliceBasedOnKeyValue(by, mergeKey, v[mergeKey]) >= 0) patch.push(v);
    else serverOnly.push(v);
  }
  return [patch, serverOnly];
}

/** Orders patch items by the patch order and server-only items by the live order, then interleaves them. */
export function normalizeElementOrder(patch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: string): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: string): unknown[] {
  let sorted = toSort;
  let toDelete: unknown[] = [];
  if (kind === MAP_KIND) {
    for (const list of [toSort, order]) {
      for (const item of list) {
        if (!isJSONObject(item)) throw errBadArgType(MAP_KIND, item);
        if (!(mergeKey in item)) throw errNoMergeKey(item, mergeKey);
      }
    }
    sorted = toSort.filter((v) => (v as JSONObject)[DIRECTIVE_MARKER] !== DELETE_DIRECTIVE);
    toDelete = toSort.filter((v) => (v as JSONObject)[DIRECTIVE_MARKER] === DELETE_DIRECTIVE);
  }
  sliceStable(sorted, (a, b) => {
    const ia = index(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = index(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return [...sorted, ...toDelete];
}

/** Inserts server-only items (left) among patch items (right), keeping both relative orders. */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: string): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = index(serverOrder, left[i], mergeKey, kind);
      const ri = index(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function index(list: unknown[], value: unknown, mergeKey: string, kind: string): number {
  const key = (item: unknown): unknown => (kind === MAP_KIND ? (isJSONObject(item) ? item[mergeKey] : undefined) : item);
  const want = key(value);
  return list.findIndex((v) => key(v) === want);
}
