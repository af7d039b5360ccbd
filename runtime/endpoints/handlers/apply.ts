import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { newBadRequest, newConflict, newInternalError, StatusError } from '../../apimachinery/errors/index.js';
import { decodeYAMLBody } from '../../apimachinery/serializer/decode.js';
import type { DecodeCancellation } from '../../apimachinery/serializer/body.js';
import { isJSONObject, jsonTypeName, type JSONObject } from '../../apimachinery/serializer/jsonvalue.js';
import { decodeYAMLBodyOffThread, YAML_OFF_THREAD_BYTES } from '../../apimachinery/serializer/yaml-pool.js';
import type { KubeObject, RequestContext } from '../../registry/rest.js';
import { emptyObject } from './managedfields.js';
import type { RequestScope } from './scope.js';
import type { FieldValidationDirective } from './writeoptions.js';

/** The Content-Type of server-side apply. */
export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

/** An apply patch decoded once per request: the applied configuration and its duplicated keys. */
export interface ApplyPatch {
  readonly obj: JSONObject;
  /** Whether some mapping repeats a key (what a strict YAML decoder refuses). */
  readonly hasDuplicates: boolean;
  readonly text: Buffer;
}

/**
 * Decodes an apply patch as kube's applyPatcher does (sigs.k8s.io/yaml into a map): YAML or JSON,
 * one document; `null` or an empty body is an empty configuration; anything else that is not a
 * mapping, and any syntax error, is a 400 `error decoding YAML: …`. Large bodies decode on a worker.
 */
export async function decodeApplyPatch(body: Buffer, cancel?: DecodeCancellation): Promise<ApplyPatch> {
  let value: unknown;
  let duplicates: readonly string[];
  try {
    const decoded = body.length > YAML_OFF_THREAD_BYTES ? await decodeYAMLBodyOffThread(body, {}, cancel?.signal) : decodeYAMLBody(body);
    value = decoded.value;
    duplicates = decoded.duplicateFields;
  } catch (err) {
    if (err instanceof StatusError && err.status.code === 400) throw newBadRequest(`error decoding YAML: ${err.status.message}`);
    throw err;
  }
  if (value === null) return { obj: {}, hasDuplicates: duplicates.length > 0, text: body };
  if (!isJSONObject(value)) throw newBadRequest(`error decoding YAML: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type map[string]interface {}`);
  return { obj: value, hasDuplicates: duplicates.length > 0, text: body };
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
  if (patch.hasDuplicates && opts.fieldValidation !== 'Ignore') {
    const message = `error converting YAML to JSON: yaml: unmarshal errors:\n${duplicateKeyLines(patch.text.toString('utf8'))
      .map((l) => `  ${l}`)
      .join('\n')}`;
    if (opts.fieldValidation === 'Strict') throw newBadRequest(`error strict decoding YAML: ${message}`);
    ctx.warn(message);
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

/** go-yaml's strict errors for repeated keys: `line 3: key "a" already set in map`, in document order. */
function duplicateKeyLines(text: string): string[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter });
  const out: Array<{ offset: number; line: string }> = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isSeq(node)) stack.push(...node.items);
    if (!isMap(node)) continue;
    const seen = new Set<string>();
    for (const pair of node.items) {
      stack.push(pair.value);
      const key: unknown = pair.key;
      const value = isScalar(key) ? key.value : key;
      const id = JSON.stringify(value) ?? 'null';
      if (!seen.has(id)) {
        seen.add(id);
        continue;
      }
      const offset = (key as Node | null)?.range?.[0] ?? 0;
      out.push({ offset, line: `line ${lineCounter.linePos(offset).line}: key ${goValue(value)} already set in map` });
    }
  }
  return out.sort((a, b) => a.offset - b.offset).map((d) => d.line);
}

/** A key as Go's %#v prints it: strings quoted, numbers and booleans bare. */
function goValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}
