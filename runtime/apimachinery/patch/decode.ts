import { newBadRequest } from '../errors/index.js';
import { JSONSyntaxError, scanJSON } from '../serializer/json-scan.js';
import { jsonTypeName } from '../serializer/jsonvalue.js';

/** A patch body decoded as the patch handler's strict decoder sees it. */
export interface DecodedPatch {
  readonly value: unknown;
  /** Paths of duplicated keys in the patch. */
  readonly duplicateFields: string[];
}

/**
 * Decodes patch bytes; syntax errors and nesting past kube's limit throw 400
 * BadRequest with `prefix` + the Go decoder's message. Pure.
 */
export function decodePatchBytes(patchBytes: Uint8Array, prefix: string): DecodedPatch {
  let duplicateFields: string[];
  try {
    duplicateFields = scanJSON(patchBytes);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw newBadRequest(`${prefix}${err.message}`);
    throw err;
  }
  const value: unknown = JSON.parse(Buffer.from(patchBytes.buffer, patchBytes.byteOffset, patchBytes.byteLength).toString('utf8'));
  return { value, duplicateFields };
}

/** `json: cannot unmarshal array into Go value of type <goType>`. */
export function cannotUnmarshal(value: unknown, goType: string): string {
  return `json: cannot unmarshal ${jsonTypeName(value)} into Go value of type ${goType}`;
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
