import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { newBadRequest, newRequestEntityTooLarge, newUnprocessableEntity, StatusError } from '../../apimachinery/errors/index.js';
import { applyJSONPatch, applyMergePatch, applyStrategicMergePatch } from '../../apimachinery/patch/index.js';
import { decodeJSONBody } from '../../apimachinery/serializer/decode.js';
import { isJSONObject } from '../../apimachinery/serializer/jsonvalue.js';
import { goFormat } from '../table/gofmt.js';
import type { FieldValidationDirective } from './writeoptions.js';

/** The non-apply patch types (server-side apply is not served yet). */
export type PatchType = 'application/json-patch+json' | 'application/merge-patch+json' | 'application/strategic-merge-patch+json';

/** kube's order in the 415 it answers for other Content-Types. */
export const PATCH_TYPES: readonly PatchType[] = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];
/** Without strategic merge patch: CRDs, and groups not defined in apis/. */
export const PATCH_TYPES_WITHOUT_STRATEGIC: readonly PatchType[] = ['application/json-patch+json', 'application/merge-patch+json'];

/** maxJSONPatchOperations in kube's patch handler. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

export interface DecodedPatch {
  readonly type: PatchType;
  readonly patch: unknown;
  /** Duplicate keys in the patch, as strict decoding errors. */
  readonly strictErrors: readonly string[];
  /** The patch as Go prints the decoded map (`map[spec:map[x:1]]`), for strategic merge errors. */
  readonly goString: string;
}

/** Decodes the patch body once (400 when it is not JSON of the patch type's shape; 413 for too many operations). */
export function decodePatch(type: PatchType, body: Buffer, directive: FieldValidationDirective): DecodedPatch {
  let decoded;
  try {
    decoded = decodeJSONBody(body);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw newBadRequest(`error decoding patch: ${message}`);
  }
  const { value, duplicateFields } = decoded;
  if (type === 'application/json-patch+json') {
    if (!Array.isArray(value)) throw newBadRequest(`json: cannot unmarshal ${jsonKind(value)} into Go value of type jsonpatch.Patch`);
    if (value.length > MAX_JSON_PATCH_OPERATIONS) {
      throw newRequestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${value.length}`);
    }
  } else if (!isJSONObject(value)) {
    const message = `json: cannot unmarshal ${jsonKind(value)} into Go value of type map[string]interface {}`;
    throw newBadRequest(directive === 'Ignore' && type === 'application/merge-patch+json' ? 'Invalid JSON Patch' : `error decoding patch: ${message}`);
  }
  const prefix = type === 'application/json-patch+json' ? 'json patch ' : '';
  return {
    type,
    patch: value,
    strictErrors: duplicateFields.map((f) => `${prefix}duplicate field ${JSON.stringify(f)}`),
    goString: type === 'application/strategic-merge-patch+json' ? goFormat(value) : '',
  };
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

/**
 * Applies the patch to `current` (a private copy in the request version). StatusErrors of the
 * patch libraries pass through; anything else is the 422 kube answers for a patch that cannot
 * be applied.
 */
export function applyPatchDocument(patch: DecodedPatch, current: Record<string, unknown>, schema: JSONSchemaProps | undefined): unknown {
  try {
    switch (patch.type) {
      case 'application/json-patch+json':
        return applyJSONPatch(current, patch.patch);
      case 'application/merge-patch+json':
        return applyMergePatch(current, patch.patch);
      case 'application/strategic-merge-patch+json':
        return applyStrategicMergePatch(current, patch.patch, schema);
    }
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw newUnprocessableEntity(err instanceof Error ? err.message : String(err));
  }
}
