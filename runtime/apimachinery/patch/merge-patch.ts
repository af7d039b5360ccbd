import { newBadRequest } from '../errors/index.js';
import { duplicateFieldErrors } from '../serializer/strict.js';
import { deepCopyJSON, isJSONObject, ownField, setField, type JSONObject } from '../serializer/jsonvalue.js';
import { cannotUnmarshal, checkPatchedDepth, decodePatchBytes, withStackGuard } from './decode.js';
import type { PatchResult } from './strategic.js';

/**
 * Applies a JSON merge patch (RFC 7386, application/merge-patch+json) as
 * kube-apiserver does (evanphx/json-patch v4 MergePatch after a strict
 * decode): null deletes a field; objects merge recursively; anything else
 * replaces, with nulls dropped from objects it brings in; arrays are replaced
 * whole. Does not mutate `original`. Throws 400 BadRequest: `error decoding
 * patch: …` for malformed JSON or a patch that is not an object, and
 * `Invalid JSON Patch` for a null patch.
 */
export function applyMergePatch(original: JSONObject, patchBytes: Uint8Array): PatchResult {
  const { value: patch, duplicateFields } = decodePatchBytes(patchBytes, 'error decoding patch: ');
  if (patch === null) throw newBadRequest('Invalid JSON Patch');
  if (!isJSONObject(patch)) throw newBadRequest(`error decoding patch: ${cannotUnmarshal(patch, 'map[string]interface {}')}`);
  const value = withStackGuard(() => {
    const doc = deepCopyJSON(original);
    mergeDocs(doc, patch);
    return doc;
  });
  return { value: checkPatchedDepth(value), strictErrors: duplicateFieldErrors(duplicateFields) };
}

function mergeDocs(doc: JSONObject, patch: JSONObject): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = ownField(doc, k);
    if (cur === undefined || cur === null) {
      pruneNulls(v);
      setField(doc, k, v);
    } else if (!isJSONObject(cur)) {
      pruneNulls(v);
      setField(doc, k, v);
    } else if (isJSONObject(v)) {
      mergeDocs(cur, v);
    } else {
      setField(doc, k, v);
    }
  }
}

/** Drops null fields of objects, at any depth; null array elements stay (pruneAryNulls keeps them). */
function pruneNulls(v: unknown): void {
  if (isJSONObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k];
      else pruneNulls(x);
    }
  } else if (Array.isArray(v)) {
    for (const x of v) if (x !== null) pruneNulls(x);
  }
}
