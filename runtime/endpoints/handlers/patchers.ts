import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { newUnprocessableEntity, StatusError } from '../../apimachinery/errors/index.js';
import { applyJSONPatch, applyMergePatch, applyStrategicMergePatch } from '../../apimachinery/patch/index.js';
import type { JSONObject } from '../../apimachinery/serializer/jsonvalue.js';
import { goFormat } from '../table/gofmt.js';

/** The patch types applied to the current object as documents (server-side apply merges through the field manager). */
export type DocumentPatchType = 'application/json-patch+json' | 'application/merge-patch+json' | 'application/strategic-merge-patch+json';
export type PatchType = DocumentPatchType | 'application/apply-patch+yaml';

/** kube's order in the 415 it answers for other Content-Types (and of the OpenAPI `consumes`). */
export const PATCH_TYPES: readonly PatchType[] = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
/** Without strategic merge patch: CRDs, and groups not defined in apis/ (kube's CRD handler's order). */
export const PATCH_TYPES_WITHOUT_STRATEGIC: readonly PatchType[] = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];

export interface PatchedDocument {
  readonly value: unknown;
  /** Strict decoding problems of the patch itself (`duplicate field "x"`, `json patch unknown field "[0].foo"`). */
  readonly strictErrors: readonly string[];
}

/**
 * Applies the patch bytes to `current` (in the request version; not modified). The patch
 * libraries throw kube's StatusErrors (400 undecodable patch, 413 too many operations, 422 an
 * operation that fails); anything else they throw is a 422 as kube's generic patch failure.
 */
export function applyPatchDocument(type: DocumentPatchType, current: JSONObject, patch: Buffer, schema: JSONSchemaProps | undefined): PatchedDocument {
  try {
    switch (type) {
      case 'application/json-patch+json':
        return applyJSONPatch(current, patch);
      case 'application/merge-patch+json':
        return applyMergePatch(current, patch);
      case 'application/strategic-merge-patch+json':
        return applyStrategicMergePatch(current, patch, schema);
    }
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw newUnprocessableEntity(err instanceof Error ? err.message : String(err));
  }
}

/** The patch as Go prints the decoded map (`map[spec:map[x:1]]`), as strategic merge errors show it. */
export function patchGoString(patch: Buffer): string {
  try {
    return goFormat(JSON.parse(patch.toString('utf8')));
  } catch {
    return patch.toString('utf8');
  }
}
