import { newBadRequest, newGenericServerResponse, newRequestEntityTooLarge } from '../errors/index.js';
import { duplicateFieldErrors, unknownFieldErrors } from '../serializer/strict.js';
import { isJSONObject, jsonTypeName } from '../serializer/jsonvalue.js';
import { cannotUnmarshal, checkPatchedDepth, decodePatchBytes, withStackGuard } from './decode.js';
import { applyOperations, JSONPatchError, type JSONPatchOperation } from './json-patch-ops.js';

/** kube's cap on operations in one JSON patch (maxJSONPatchOperations). */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * Bytes all `copy` operations of one JSON patch may add together: kube-apiserver's
 * JSONPatchMaxCopyBytes, its request body limit (3 MiB), so a small patch cannot
 * double a document over and over.
 */
export const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

const OP_FIELDS: ReadonlySet<string> = new Set(['op', 'path', 'from', 'value']);

/**
 * Applies a JSON patch (RFC 6902, application/json-patch+json) to `original`
 * as kube-apiserver does. Does not mutate `original`; returns the patched
 * value (any JSON value: a patch may replace the root) and the strict
 * problems in the patch, worded `json patch unknown field "[0].foo"` /
 * `json patch duplicate field "[0].op"`. Throws StatusError: 400 `error
 * decoding patch: …` when the body is not a list of operations, 413 past
 * 10000 operations, and 422 with kube's generic message (`the server rejected
 * our request due to an error in our request`) when an operation fails,
 * including a failed `test` and copies adding more than `maxCopyBytes`.
 */
export function applyJSONPatch(original: unknown, patchBytes: Uint8Array, maxCopyBytes = JSON_PATCH_MAX_COPY_BYTES): { value: unknown; strictErrors: string[] } {
  const { value: ops, duplicateFields } = decodePatchBytes(patchBytes, 'error decoding patch: ');
  const decoded = decodeOperations(ops);
  if (decoded.ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw newRequestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${decoded.ops.length}`);
  }
  const strictErrors = [...unknownFieldErrors(decoded.unknown), ...duplicateFieldErrors(duplicateFields)].map((e) => `json patch ${e}`);
  const value = withStackGuard(() => {
    try {
      return applyOperations(original, decoded.ops, { accumulatedCopySizeLimit: maxCopyBytes });
    } catch (err) {
      if (err instanceof JSONPatchError) throw newGenericServerResponse(422);
      throw err;
    }
  });
  return { value: checkPatchedDepth(value), strictErrors };
}

/** The strict decode into []jsonPatchOp: type errors are 400s, unknown fields are reported. */
function decodeOperations(ops: unknown): { ops: JSONPatchOperation[]; unknown: string[] } {
  if (ops === null) return { ops: [], unknown: [] };
  if (!Array.isArray(ops)) throw newBadRequest(`error decoding patch: ${cannotUnmarshal(ops, '[]handlers.jsonPatchOp')}`);
  const unknown: string[] = [];
  ops.forEach((op, i) => {
    if (op === null) return;
    if (!isJSONObject(op)) throw newBadRequest(`error decoding patch: ${cannotUnmarshal(op, 'handlers.jsonPatchOp')}`);
    for (const [k, v] of Object.entries(op)) {
      if (!OP_FIELDS.has(k)) unknown.push(`[${i}].${k}`);
      else if (k !== 'value' && v !== null && typeof v !== 'string') {
        throw newBadRequest(`error decoding patch: json: cannot unmarshal ${jsonTypeName(v)} into Go struct field jsonPatchOp.${k} of type string`);
      }
    }
  });
  return { ops: ops.map((op: JSONPatchOperation | null) => op ?? {}), unknown };
}
