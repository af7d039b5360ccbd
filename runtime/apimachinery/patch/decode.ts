import { newBadRequest, newInvalid } from '../errors/index.js';
import { JSONSyntaxError, scanJSON } from '../serializer/json-scan.js';
import { canonicalJSON, jsonTypeName, nestedDeeperThan, parseJSONBytes } from '../serializer/jsonvalue.js';
import { MAX_OBJECT_DEPTH } from '../serializer/json-scan.js';

/** A patch body decoded as the patch handler's strict decoder sees it. */
export interface DecodedPatch {
  readonly value: unknown;
  /** Paths of duplicated keys in the patch. */
  readonly duplicateFields: string[];
}

/**
 * Decodes patch bytes; syntax errors and nesting past MAX_OBJECT_DEPTH throw
 * 400 BadRequest with `prefix` + the Go decoder's message (a patch nests no
 * deeper than the objects it may produce, so merging never recurses near the
 * stack limit). Pure.
 */
export function decodePatchBytes(patchBytes: Uint8Array, prefix: string): DecodedPatch {
  let duplicateFields: string[];
  try {
    duplicateFields = scanJSON(patchBytes, MAX_OBJECT_DEPTH);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw newBadRequest(`${prefix}${err.message}`);
    throw err;
  }
  const value = parseJSONBytes(patchBytes);
  return { value, duplicateFields };
}

/** `json: cannot unmarshal array into Go value of type <goType>`. */
export function cannotUnmarshal(value: unknown, goType: string): string {
  return `json: cannot unmarshal ${jsonTypeName(value)} into Go value of type ${goType}`;
}

/**
 * Returns a patched value unless it nests deeper than an object body may
 * (MAX_OBJECT_DEPTH): then 422 on `patch` with the decoder's depth error, as
 * kube answers a patched object its decoder refuses (the value as Go's
 * encoder writes a map: sorted keys).
 */
export function checkPatchedDepth<T>(value: T): T {
  const tooDeep = nestedDeeperThan(value, MAX_OBJECT_DEPTH);
  if (tooDeep === undefined) return value;
  const detail = `invalid character '${Array.isArray(tooDeep) ? '[' : '{'}' exceeded max depth`;
  throw newInvalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', badValue: canonicalJSON(value), detail }]);
}

/**
 * Runs `fn`, turning a call-stack overflow (a patch nested deeper than the
 * merge can follow) into a 400 instead of a crash.
 */
export function withStackGuard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RangeError) throw newBadRequest('the patch is nested too deeply to be applied');
    throw err;
  }
}
