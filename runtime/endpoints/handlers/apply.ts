import { newBadRequest, newConflict, newInternalError, StatusError } from '../../apimachinery/errors/index.js';
import { decodeYAMLBody } from '../../apimachinery/serializer/decode.js';
import type { DecodeCancellation } from '../../apimachinery/serializer/body.js';
import { isJSONObject, jsonTypeName, type JSONObject } from '../../apimachinery/serializer/jsonvalue.js';
import { yamlUnmarshalErrors } from '../../apimachinery/serializer/strict.js';
import { decodeYAMLBodyOffThread, YAML_OFF_THREAD_BYTES } from '../../apimachinery/serializer/yaml-pool.js';
import type { KubeObject, RequestContext } from '../../registry/rest.js';
import { emptyObject } from './managedfields.js';
import type { RequestScope } from './scope.js';
import type { FieldValidationDirective } from './writeoptions.js';

/** The Content-Type of server-side apply. */
export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

/** An apply patch decoded once per request: the applied configuration and its repeated keys. */
export interface ApplyPatch {
  readonly obj: JSONObject;
  /** go-yaml's strict errors for repeated keys (`line 3: key "a" already set in map`), what UnmarshalStrict refuses. */
  readonly duplicateKeys: readonly string[];
}

/** sigs.k8s.io/yaml's Unmarshal prefixes of a failed YAML to JSON conversion and a failed JSON decode. */
const CONVERTING = 'error converting YAML to JSON: ';
const UNMARSHALING = 'error unmarshaling JSON: while decoding JSON: ';

/**
 * Decodes an apply patch as kube's applyPatcher does (sigs.k8s.io/yaml's Unmarshal into a map):
 * YAML or JSON, the first document; `null` or an empty body is an empty configuration; anything
 * else that is not a mapping, and any syntax error, is a 400 `error decoding YAML: …` with
 * Unmarshal's wording (`error converting YAML to JSON: yaml: line 1: …`, `error unmarshaling
 * JSON: while decoding JSON: json: cannot unmarshal array into …`). Large bodies decode on a worker.
 */
export async function decodeApplyPatch(body: Buffer, cancel?: DecodeCancellation): Promise<ApplyPatch> {
  let value: unknown;
  let duplicateKeys: readonly string[];
  try {
    const decoded = body.length > YAML_OFF_THREAD_BYTES ? await decodeYAMLBodyOffThread(body, {}, cancel?.signal) : decodeYAMLBody(body);
    value = decoded.value;
    duplicateKeys = decoded.yamlDuplicateKeys ?? [];
  } catch (err) {
    if (err instanceof StatusError && err.status.code === 400) throw newBadRequest(`error decoding YAML: ${CONVERTING}${err.status.message}`);
    throw err;
  }
  if (value === null) return { obj: {}, duplicateKeys };
  if (!isJSONObject(value)) throw newBadRequest(`error decoding YAML: ${UNMARSHALING}json: cannot unmarshal ${jsonTypeName(value)} into Go value of type map[string]interface {}`);
  return { obj: value, duplicateKeys };
}

/**
 * applyPatcher.applyPatchToCurrentObject: merges the applied configuration into `live` (hub
 * version; absent: the object is created) through the endpoint's field manager, then checks the
 * YAML strictly when fieldValidation asks for it (Strict: 400, Warn: a warning; kube checks after
 * the merge, so a conflict is reported first). Returns the merged object in the hub version.
 */
export async function applyToLive(
  scope: RequestScope,
  ctx: RequestContext,
  live: KubeObject | undefined,
  patch: ApplyPatch,
  opts: { readonly fieldManager: string; readonly force: boolean; readonly fieldValidation: FieldValidationDirective },
): Promise<KubeObject> {
  if (scope.fieldManager === undefined) throw newInternalError(new Error('FieldManager must be installed to run apply'));
  const obj = (await scope.fieldManager.apply(live ?? emptyObject(scope), patch.obj, opts.fieldManager, opts.force)) as KubeObject;
  if (patch.duplicateKeys.length > 0 && opts.fieldValidation !== 'Ignore') {
    // UnmarshalStrict's error; as warnings, each of its lines (parseYAMLWarnings).
    if (opts.fieldValidation === 'Strict') throw newBadRequest(`error strict decoding YAML: ${CONVERTING}${yamlUnmarshalErrors(patch.duplicateKeys)}`);
    for (const line of patch.duplicateKeys) ctx.warn(line);
  }
  return obj;
}

/**
 * The checks of the patcher after the merge: an object the patch created may not name a uid (409),
 * and the namespace and name must be the request's (ensureNamespace and checkName, given by the caller).
 */
export function checkAppliedUID(scope: RequestScope, name: string, applied: KubeObject, created: boolean): void {
  const uid = applied.metadata?.uid;
  if (!created || typeof uid !== 'string' || uid === '') return;
  throw newConflict(scope.groupResource, name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
}
