import { newInvalid, newNotFound, newUnsupportedMediaType, type StatusError } from '../../apimachinery/errors/index.js';
import { patchTypeOf } from '../../apimachinery/serializer/mediatype.js';
import type { KubeObject, RequestContext, Updater, UpdatedObjectInfo } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { admit, requestContext, type AdmissionRequest } from './context.js';
import { applyPatchDocument, patchGoString, type DocumentPatchType, type PatchType } from './patchers.js';
import { APPLY_PATCH_TYPE, applyToLive, checkAppliedUID, decodeApplyPatch } from './apply.js';
import { ensureObjectNamespace } from './create.js';
import { trackUpdate } from './managedfields.js';
import {
  applyFieldValidation,
  decodesUnstructured,
  defaultAndCheckTypeMeta,
  defaultObject,
  pruneUnknownFields,
  typedDecodeError,
  typedDecodeMismatch,
  typedMetadataError,
  unstructuredMetadataError,
  unstructuredOfAnotherKind,
  validateAdmitted,
} from './pipeline.js';
import { canonicalJSON, isJSONObject, jsonTypeName, ownField } from '../../apimachinery/serializer/jsonvalue.js';
import { scanJSONBody } from '../../apimachinery/serializer/json-scan.js';
import { markFloatLiterals } from '../../apimachinery/validation/gofloat.js';
import { jsonUnmarshalMessage, unstructuredConverterMessage } from '../../apimachinery/schema/typeddecode.js';
import { headerValue, negotiateResponse } from './response.js';
import type { RequestScope } from './scope.js';
import { checkName, checkResourceVersionConflict } from '../../registry/generic/update.js';
import { storeUpdateAndAnswer } from './update.js';
import { parsePatchOptions } from './writeoptions.js';

/**
 * PATCH of one object (PatchResource): the Content-Type picks the patch type (415 for any
 * other, first of all), then negotiation, PatchOptions (422), the patch decoded once (400).
 * Inside the store's retry loop the current object is converted to the request version,
 * patched, and sent through the create pipeline from pruning on, and managedFields record the
 * change as an Update, then mutating admission, the resourceVersion comparison and validation;
 * a missing object is a 404. An apply patch (server-side apply) merges
 * through the field manager instead, and creates the object when it is missing.
 */
export async function patchResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Updater): Promise<void> {
  const patchType = patchTypeOf(headerValue(req.headers['content-type']) ?? '') as PatchType;
  if (!scope.patchTypes.includes(patchType)) throw newUnsupportedMediaType(scope.patchTypes);
  const target = negotiateResponse(req, scope);
  const body = await req.readBody();
  const isApply = patchType === APPLY_PATCH_TYPE;
  const opts = parsePatchOptions(req.query, isApply);
  const ctx = requestContext(req, res, scope);
  const name = req.info.name;

  const update: AdmissionRequest = { operation: 'UPDATE', name, dryRun: opts.dryRun, options: opts.raw };
  const create: AdmissionRequest = { ...update, operation: 'CREATE' };
  const patched = patchType === APPLY_PATCH_TYPE ? await appliedObject(req, scope, name, body, opts) : documentPatched(req, scope, name, patchType, body, opts);
  const objInfo: UpdatedObjectInfo = {
    preconditions: () => undefined,
    updatedObject: async (c, old) => {
      // objInfo.UpdatedObject (the patch, the field manager, mutating admission), then Store.Update's
      // resourceVersion comparison (a patch that sets a stale one is a conflict before validation,
      // as a PUT's), then BeforeUpdate's validation.
      const { hub, oldInVersion } = await patched(c, old);
      await admit(scope, c, old === undefined ? create : update, hub, old);
      if (old !== undefined) checkResourceVersionConflict(scope.groupResource, name, hub, old);
      await validateAdmitted(scope, hub, old, c.warn, oldInVersion);
      return hub;
    },
  };
  await storeUpdateAndAnswer({ req, res, scope, storage, target, ctx, name, objInfo, update, create, opts, forceAllowCreate: isApply });
}

type PatchOptions = ReturnType<typeof parsePatchOptions>;
/**
 * The patched object in the hub version, before mutating admission; `old` is the stored object
 * (hub), absent when there is none; `oldInVersion` its copy in the request version when one was made.
 */
type Patched = (c: RequestContext, old: KubeObject | undefined) => Promise<{ hub: KubeObject; oldInVersion?: KubeObject }>;

/** JSON, merge and strategic merge patches: applied to the current object in the request version; 404 when there is none. */
function documentPatched(req: APIRequest, scope: RequestScope, name: string, patchType: DocumentPatchType, body: Buffer, opts: PatchOptions): Patched {
  let floats: ReadonlyArray<ReadonlyArray<string | number>> | undefined;
  return async (c, old) => {
    if (old === undefined) throw newNotFound(scope.groupResource, name);
    const current = await scope.codec.fromHub(old);
    const { obj: patched, strictErrors, decodedIn } = patchedObject(scope, patchType, body, current);
    if (decodesUnstructured(scope)) markFloatLiterals(patched, (floats ??= patchedFloatLiterals(patchType, body)));
    // Strict's error shows the patched JSON as the patcher made it, unknown fields and all.
    const asPatched = opts.fieldValidation === 'Strict' && patchType !== 'application/strategic-merge-patch+json' ? patchedJSON(scope, patched) : undefined;
    const unknown = pruneUnknownFields(decodedIn, patched);
    applyFieldValidation(c, opts.fieldValidation, [...strictErrors, ...unknown], (message) => patchFailure(patchType, body, asPatched ?? patchedJSON(scope, patched), message));
    checkName(patched, name, c.namespace);
    defaultObject(decodedIn, patched);
    const inVersion = decodedIn === scope ? patched : convertToVersion(scope, patched);
    return { hub: await trackUpdate(scope, req, old, await scope.codec.toHub(inVersion), opts.fieldManager), oldInVersion: current };
  };
}

/**
 * Where, in the patched object, the patch put numbers Go's decoder makes float64s (`1.0`, `1e0`,
 * beyond int64): kube's patchers keep the patch's number text in the patched JSON, which the CR
 * codec then decodes. A merge patch's paths are the object's; a JSON patch's `add` and `replace`
 * values land at their `path` (an append, `-`, is left out). A patch that does not scan has none.
 */
function patchedFloatLiterals(type: DocumentPatchType, patch: Buffer): ReadonlyArray<ReadonlyArray<string | number>> {
  let found: ReadonlyArray<ReadonlyArray<string | number>>;
  try {
    found = scanJSONBody(patch).integralFloats;
  } catch {
    return [];
  }
  if (found.length === 0 || type === 'application/merge-patch+json') return found;
  let ops: unknown;
  try {
    ops = JSON.parse(patch.toString('utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(ops)) return [];
  const out: Array<ReadonlyArray<string | number>> = [];
  for (const path of found) {
    const [index, field, ...rest] = path;
    const op: unknown = typeof index === 'number' ? ops[index] : undefined;
    if (field !== 'value' || typeof op !== 'object' || op === null) continue;
    const { op: verb, path: pointer } = op as { op?: unknown; path?: unknown };
    if ((verb !== 'add' && verb !== 'replace') || typeof pointer !== 'string' || !pointer.startsWith('/')) continue;
    const tokens = pointer
      .slice(1)
      .split('/')
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (tokens[tokens.length - 1] === '-') continue;
    out.push([...tokens, ...rest]);
  }
  return out;
}

/**
 * Apply patches (the applyPatcher): the configuration is merged into the stored object, or into
 * an empty one when there is none (then the operation is a create, and a uid in the
 * configuration is a 409); the result keeps the request's namespace and name, and is defaulted
 * in the request version as any other write (validated after mutating admission).
 */
async function appliedObject(req: APIRequest, scope: RequestScope, name: string, body: Buffer, opts: PatchOptions): Promise<Patched> {
  const patch = await decodeApplyPatch(body, req);
  return async (c, old) => {
    const merged = await applyToLive(scope, c, old, patch, { fieldManager: opts.fieldManager, force: opts.force ?? false, fieldValidation: opts.fieldValidation });
    checkAppliedUID(scope, name, merged, old === undefined);
    ensureObjectNamespace(merged, c.namespace);
    checkName(merged, name, c.namespace);
    const applied = await scope.codec.fromHub(merged);
    defaultObject(scope, applied);
    return { hub: await scope.codec.toHub(applied) };
  };
}

/**
 * The patch applied to the current object in the request version; its type meta must stay the
 * URL's, or name another served version of a typed kind, which `decodedIn` then is the scope of.
 */
function patchedObject(scope: RequestScope, type: DocumentPatchType, patch: Buffer, current: KubeObject): { obj: KubeObject; strictErrors: readonly string[]; decodedIn: RequestScope } {
  const schema = scope.codec.scheme !== undefined ? scope.definition.schema : undefined;
  const { value, strictErrors } = applyPatchDocument(type, current as Record<string, unknown>, patch, schema);
  // kube decodes the patched JSON with the endpoint's codec (DecodeInto): json.SimpleMetaFactory
  // reads apiVersion and kind from an object only; an unstructured decode needs a kind, and then
  // the CR codec decodes metadata into ObjectMeta. Each failure is a 422 on `patch`.
  if (value !== null && (typeof value !== 'object' || Array.isArray(value))) {
    const into = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    throw invalidPatch(patchedJSON(scope, value), `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type ${into}`);
  }
  const kind = value === null ? undefined : (value as KubeObject).kind;
  if (value === null || (decodesUnstructured(scope) && (typeof kind !== 'string' || kind === ''))) {
    const text = patchedJSON(scope, value);
    throw invalidPatch(text, decodesUnstructured(scope) ? `Object 'Kind' is missing in '${text}'` : "Object 'Kind' is missing");
  }
  const obj = value as KubeObject;
  if (type === 'application/strategic-merge-patch+json' && scope.unstructured !== true) {
    // kube converts a strategic merge patch's result into the typed object field by field, so
    // whatever type meta it holds is dropped and the object keeps the URL's kind.
    obj.apiVersion = scope.codec.apiVersion;
    obj.kind = scope.codec.kind;
  }
  if (typeof obj.apiVersion === 'string' && obj.apiVersion.split('/').length > 2) {
    throw invalidPatch(patchedJSON(scope, obj), `unexpected GroupVersion string: ${obj.apiVersion}`);
  }
  const metaError = unstructuredMetadataError(scope, obj);
  if (metaError !== undefined) throw invalidPatch(patchedJSON(scope, obj), metaError);
  const decodedIn = decodingScope(scope, obj);
  if (decodedIn !== scope) {
    obj.kind = scope.codec.kind;
    const mismatch = typedDecodeMismatch(decodedIn, obj);
    if (mismatch !== undefined) throw invalidPatch(patchedJSON(scope, obj), jsonUnmarshalMessage(mismatch));
    return { obj, strictErrors, decodedIn };
  }
  defaultAndCheckTypeMeta(
    scope,
    obj,
    (kind) => patchedToAnotherKind(scope, kind, obj),
    (apiVersion, kind) => patchedToAnotherVersion(scope, apiVersion, kind, obj),
  );
  // kube decodes the patched object into the typed struct: JSON and merge patches through the
  // JSON decoder (its error on the patched JSON), strategic merge patches through the
  // unstructured converter (its error on the patch, printed as a Go map).
  const mismatch = typedDecodeMismatch(scope, obj);
  if (mismatch !== undefined) {
    throw type === 'application/strategic-merge-patch+json'
      ? invalidPatch(patchGoString(patch), unstructuredConverterMessage(mismatch))
      : invalidPatch(patchedJSON(scope, obj), jsonUnmarshalMessage(mismatch));
  }
  const typedMetaError = typedMetadataError(scope, obj);
  if (typedMetaError !== undefined) throw invalidPatch(patchedJSON(scope, obj), typedMetaError);
  return { obj, strictErrors, decodedIn: scope };
}

/**
 * The scope a patched object of a typed kind decodes in. kube's patcher decodes the patched JSON
 * with the endpoint's codec (DecodeInto), which reads the kind in any version its scheme has and
 * converts it: a patch may move an object of apis/ to another served version of its group, whose
 * struct then decodes it (its unknown fields, its defaults) before the conversion to the URL's
 * version (only the create and update handlers refuse a body of another version). That version's
 * scope, or `scope` itself for the URL's version, custom resources (unstructured: their
 * validation refuses another version) and versions the group does not serve.
 */
function decodingScope(scope: RequestScope, obj: KubeObject): RequestScope {
  const scheme = scope.codec.scheme;
  const apiVersion = obj.apiVersion;
  if (scope.unstructured === true || scheme === undefined || typeof apiVersion !== 'string' || apiVersion === scope.codec.apiVersion) return scope;
  if (typeof obj.kind === 'string' && obj.kind !== '' && obj.kind !== scope.codec.kind) return scope;
  const version = scheme.versionOf(apiVersion);
  const typed = scope.versionOpenAPI?.get(apiVersion);
  if (version === undefined || typed === undefined) return scope;
  return { ...scope, version, definition: scheme.resource(version), openapi: typed.openapi, goTypes: typed.goTypes ?? {} };
}

/** A typed object decoded in another version, converted to the request version. */
function convertToVersion(scope: RequestScope, obj: KubeObject): KubeObject {
  const scheme = scope.codec.scheme;
  if (scheme === undefined) return obj;
  return scheme.convert(obj, scope.version);
}

/**
 * A patch whose result has another kind, as kube's patcher answers: a custom resource decodes as
 * unstructured and its validation refuses the kind (422 on `kind`); a typed DecodeInto fails, which
 * is a 422 on `patch` showing the patched object with the decoder's error.
 */
function patchedToAnotherKind(scope: RequestScope, kind: string, patched: KubeObject): StatusError {
  if (scope.unstructured === true) return unstructuredOfAnotherKind(scope, kind, patched);
  return invalidPatch(patchedJSON(scope, patched), typedDecodeError(scope, kind));
}

/**
 * A patch whose result has another apiVersion (a group version parsed, defaulted as kube's
 * decoder defaults it). Custom resources decode as unstructured into a plain copy, then their
 * ValidateTypeMeta refuses kind and apiVersion (422, named by the group kind the object carries); a
 * typed decoder has no such kind in that version: 422 on `patch`.
 */
function patchedToAnotherVersion(scope: RequestScope, apiVersion: string, kind: string, patched: KubeObject): StatusError {
  if (scope.unstructured === true) return unstructuredOfAnotherKind(scope, kind, patched, apiVersion);
  return invalidPatch(patchedJSON(scope, patched), typedDecodeError(scope, kind, apiVersion));
}

/**
 * Strict decoding errors of a patch are a 422 on the `patch` field (with no kind), showing the
 * patched object (JSON and merge patches) or the patch as Go prints a map (strategic merge).
 */
function patchFailure(type: DocumentPatchType, patch: Buffer, patchedJSON: string, message: string): StatusError {
  return invalidPatch(type === 'application/strategic-merge-patch+json' ? patchGoString(patch) : patchedJSON, message);
}

/**
 * The patched object's JSON as kube's patchers print it in their errors: json-patch marshals the
 * patched document as a Go map, so its top-level keys are sorted (what the patch left alone keeps
 * its encoding), and a custom resource's objects are Go maps at every level, each written with
 * sorted keys.
 */
function patchedJSON(scope: RequestScope, value: unknown): string {
  if (decodesUnstructured(scope)) return canonicalJSON(value);
  if (!isJSONObject(value)) return JSON.stringify(value);
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(ownField(value, k))}`)
    .join(',')}}`;
}

function invalidPatch(value: string, detail: string): StatusError {
  return newInvalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', badValue: value, detail }]);
}
