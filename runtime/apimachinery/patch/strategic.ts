import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { newBadRequest } from '../errors/index.js';
import { duplicateFieldErrors } from '../serializer/strict.js';
import { deepCopyJSON, isJSONObject, type JSONObject } from '../serializer/jsonvalue.js';
import { cannotUnmarshal, checkPatchedDepth, decodePatchBytes, withStackGuard } from './decode.js';
import { interpretStrategicMergePatchError } from './strategic/errors.js';
import { mergeMap } from './strategic/merge.js';
import { SchemaPatchMeta } from './strategic/patchmeta.js';

export interface PatchResult {
  /** The patched object; a new value, the original is not modified. */
  readonly value: JSONObject;
  /**
   * Strict-decoding problems in the patch itself, worded as kube
   * (`duplicate field "metadata.labels.a"`): warnings under
   * fieldValidation=Warn, a 422 under Strict (see strictDecodingErrorMessage).
   */
  readonly strictErrors: string[];
}

/**
 * Applies a strategic merge patch (application/strategic-merge-patch+json) to
 * `original`, a resource-root object, using the kind's structural schema for
 * list strategies (x-kubernetes-patch-strategy / -merge-key, list-type
 * fallbacks; metadata is ObjectMeta). Directives: `$patch: replace|delete` on
 * maps and `$patch: replace|delete` items in merge lists, `$retainKeys`,
 * `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`; null deletes;
 * lists without a merge strategy are replaced. Does not mutate `original`.
 * Throws StatusError: 400 for an undecodable patch or malformed directives,
 * 422 (kube's generic message) for lists of lists, 500 for other merge errors
 * as kube answers them.
 */
export function applyStrategicMergePatch(original: JSONObject, patchBytes: Uint8Array, schema: JSONSchemaProps | undefined): PatchResult {
  const { value: patch, duplicateFields } = decodePatchBytes(patchBytes, '');
  if (patch !== null && !isJSONObject(patch)) throw newBadRequest(cannotUnmarshal(patch, 'map[string]interface {}'));
  const result = withStackGuard(() => {
    try {
      return mergeMap(deepCopyJSON(original), patch ?? {}, new SchemaPatchMeta(schema, true));
    } catch (err) {
      if (err instanceof RangeError) throw err;
      throw interpretStrategicMergePatchError(err);
    }
  });
  return { value: checkPatchedDepth(result), strictErrors: duplicateFieldErrors(duplicateFields) };
}
