import { newBadRequest, newInvalid, newUnsupportedMediaType, StatusError } from '../../apimachinery/errors/index.js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { celValidator, type CELValidateOptions } from '../../apimachinery/cel/index.js';
import {
  applyDefaults,
  propertySchema,
  prune,
  pruneNonNullableNullsWithoutDefaults,
  validateEmbeddedResources,
  validateListSetsAndMaps,
  zeroMissingRequiredFields,
  zeroNullListItems,
} from '../../apimachinery/schema/index.js';
import { ratchetedAt } from '../../apimachinery/schema/correlation.js';
import { objectMetaTypeSchema } from '../../apimachinery/schema/objectmeta.js';
import { goTypeName, jsonUnmarshalMessage, typeMismatch, type TypeMismatch } from '../../apimachinery/schema/typeddecode.js';
import { bodyMediaTypes, decodeRequestBody, type DecodeCancellation } from '../../apimachinery/serializer/body.js';
import { summarizeData } from '../../apimachinery/serializer/decode.js';
import { bodyStrictErrors } from '../../apimachinery/serializer/strict.js';
import { deepCopyJSON, hasField, isJSONObject, ownField } from '../../apimachinery/serializer/jsonvalue.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { isGoValidation } from '../../apimachinery/validation/typed.js';
import { markFloatLiterals } from '../../apimachinery/validation/gofloat.js';
import { mediaTypeEssence, parseContentType } from '../../apimachinery/serializer/mediatype.js';
import { dnsSubdomainName, objectMetaDecodeError, validateObjectMetaCreate, validateObjectMetaUpdate } from '../../registry/generic/objectMeta.js';
import { generateName } from '../../registry/generic/names.js';
import type { ObjectMeta } from '../../apimachinery/object.js';
import type { RESTStrategy } from '../../apimachinery/definition/strategy.js';
import { keepStoredStatus, prepareStatusUpdate } from '../../registry/generic/update.js';
import type { KubeObject, RequestContext } from '../../registry/rest.js';
import type { FieldValidationDirective } from './writeoptions.js';
import type { RequestScope } from './scope.js';

/**
 * The request-version half of every write (create, update, patch): decoding with the URL's
 * group/version/kind as defaults, pruning of unknown fields, schema and hand-written defaulting,
 * and schema validation. The handlers then convert to the hub and call admission and the store.
 */

export interface DecodedObject {
  readonly obj: KubeObject;
  /**
   * The decoder's strict errors (bodyStrictErrors): a JSON body's `duplicate field "x"` for each
   * repeated key, in document order, as errors and warnings alike; a YAML body's one go-yaml
   * `yaml: unmarshal errors:` error, as warnings one per line.
   */
  readonly strict: { readonly errors: readonly string[]; readonly warnings: readonly string[] };
  /** Where the numbers Go's decoder makes float64s are (marked on obj; cloneDecoded marks a copy). */
  readonly floatLiterals: ReadonlyArray<ReadonlyArray<string | number>>;
}

/**
 * Decodes a create/update body: JSON, YAML or, for kinds with protobuf descriptors, protobuf (415
 * otherwise), an object whose apiVersion and kind, when absent, come from the URL
 * (gvkWithDefaults) and otherwise must match it (400). A large YAML body is decoded on a worker
 * thread, abandoned when `signal` (the request's) aborts, so it never holds the event loop.
 */
export async function decodeObjectBody(
  scope: RequestScope,
  body: Buffer,
  contentType: string,
  cancel?: DecodeCancellation,
  fieldValidation?: FieldValidationDirective,
  ctx?: RequestContext,
): Promise<DecodedObject> {
  const mt = parseContentType(contentType === '' ? 'application/json' : contentType);
  const essence = mt === undefined ? '' : mediaTypeEssence(mt);
  const into = { apiVersion: scope.codec.apiVersion, kind: scope.codec.kind };
  // A custom resource's serializer lists protobuf too (its 415 names it), though it decodes none.
  const unstructured = decodesUnstructured(scope);
  const accepted = bodyMediaTypes(into, undefined, unstructured);
  if (!accepted.includes(essence)) throw newUnsupportedMediaType(accepted);
  try {
    return await decodeAcceptedBody(scope, body, essence, unstructured, cancel, fieldValidation, ctx);
  } catch (err) {
    throw typerDecodeError(scope, err) ?? err;
  }
}

/**
 * kube's transformDecodeError asks the scope's typer for the kind of the object it decoded into
 * before it words any decode error; a typer that does not know that Go type (a custom resource's
 * /scale, see RequestScope.subresourceBody) fails, and its error is the answer to every body that
 * did not decode, whatever was wrong with it.
 */
function typerDecodeError(scope: RequestScope, err: unknown): StatusError | undefined {
  const target = scope.subresourceBody;
  if (target?.typerScheme === undefined || !(err instanceof StatusError) || err.code !== 400) return undefined;
  const goType = goTypeName(target.definition);
  const typer = target.typerScheme;
  return newBadRequest(`no kind is registered for the type ${goType} in scheme ${JSON.stringify(typer)}`);
}

async function decodeAcceptedBody(
  scope: RequestScope,
  body: Buffer,
  essence: string,
  unstructured: boolean,
  cancel: DecodeCancellation | undefined,
  fieldValidation: FieldValidationDirective | undefined,
  ctx: RequestContext | undefined,
): Promise<DecodedObject> {
  const into = { apiVersion: scope.codec.apiVersion, kind: scope.codec.kind };
  const decoded = await decodeRequestBody(body, essence, { kind: scope.codec.kind, into, unstructured, ...(fieldValidation !== undefined ? { fieldValidation } : {}) }, cancel);
  const { value, integralFloats } = decoded;
  const unrecognized = (message: string): StatusError => newBadRequest(`the object provided is unrecognized (must be of type ${scope.codec.kind}): ${message} (${summarizeData(body, 30)})`);
  // json.SimpleMetaFactory.Interpret's schema.ParseGroupVersion, before anything is decoded.
  if (isJSONObject(value) && typeof value['apiVersion'] === 'string' && value['apiVersion'].split('/').length > 2) {
    throw unrecognized(`unexpected GroupVersion string: ${value['apiVersion']}`);
  }
  const cannotHandle = (message: string): StatusError => newBadRequest(`${scope.codec.kind} in version ${JSON.stringify(scope.version)} cannot be handled as a ${scope.codec.kind}: ${message}`);
  let floatLiterals: ReadonlyArray<ReadonlyArray<string | number>> = [];
  if (unstructured) {
    // The unstructured decode takes the group/version/kind the body carries, with no defaults: a
    // body without a kind (null, {}) is runtime.NewMissingKindErr; without fieldValidation=Ignore
    // the strict decoder reports it with no kind known, otherwise the unstructured scheme's
    // decoder fails under the URL's kind.
    if (!isJSONObject(value) || typeof value['kind'] !== 'string' || value['kind'] === '') {
      const missing = `Object 'Kind' is missing in '${body.toString('utf8')}'`;
      throw fieldValidation === 'Ignore' ? cannotHandle(missing) : unrecognized(missing);
    }
    // The CR codec then decodes metadata into a metav1.ObjectMeta (unstructuredSchemaCoercer).
    const metaError = unstructuredMetadataError(scope, value);
    if (metaError !== undefined) throw cannotHandle(metaError);
    // And the handler compares the body's group version, as it carries it, with the URL's.
    const apiVersion = typeof value['apiVersion'] === 'string' ? value['apiVersion'] : '';
    const gv = splitAPIVersion(apiVersion === '/' ? '' : apiVersion);
    const actual = gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
    if (actual !== scope.codec.apiVersion) {
      // The CR decoder pruned a body of the CRD's group and kind with its own version's schema
      // first (none for a version the CRD does not have: everything but the type meta and metadata
      // is unknown), so its unknown fields are strict errors, or warnings on the 400, as for a body
      // of the URL's version. Bodies of other groups or kinds are not pruned.
      const ownKind = gv.group === splitAPIVersion(scope.codec.apiVersion).group && value['kind'] === scope.codec.kind;
      if (ownKind && ctx !== undefined && fieldValidation !== undefined) {
        const unknown = prune(deepCopyJSON(value), scope.versionSchemas?.get(actual), { isResourceRoot: true }).map((p) => `unknown field ${JSON.stringify(p)}`);
        const strict = bodyStrictErrors(decoded);
        applyFieldValidation(ctx, fieldValidation, [...strict.errors, ...unknown], strictDecodingFailure(scope, gv.version), [...strict.warnings, ...unknown]);
      }
      throw newBadRequest(`the API version in the data (${actual}) does not match the expected API version (${scope.codec.apiVersion})`);
    }
    floatLiterals = integralFloats ?? [];
    markFloatLiterals(value, floatLiterals);
  }
  // A typed kind decodes null as its zero value.
  const obj = (value === null ? {} : value) as KubeObject;
  defaultAndCheckTypeMeta(scope, obj, (kind) => bodyOfAnotherKind(scope, kind, obj), unstructured ? undefined : (apiVersion, kind) => bodyOfAnotherVersion(scope, apiVersion, kind));
  const mismatch = typedDecodeMismatch(scope, obj);
  if (mismatch !== undefined) throw cannotHandle(jsonUnmarshalMessage(mismatch));
  const metaError = typedMetadataError(scope, obj);
  if (metaError !== undefined) throw cannotHandle(metaError);
  return { obj, strict: bodyStrictErrors(decoded), floatLiterals };
}

/**
 * A copy of a decoded body for one round of an update (deepCopyJSON), carrying its float64
 * marks (`floatLiterals`, as decodeObjectBody found them), which a clone does not copy.
 */
export function cloneDecoded(obj: KubeObject, floatLiterals: ReadonlyArray<ReadonlyArray<string | number>>): KubeObject {
  const copy = deepCopyJSON(obj);
  if (floatLiterals.length > 0) markFloatLiterals(copy, floatLiterals);
  return copy;
}

/**
 * A create or update body of the URL's group version but another kind, as kube's handlers answer
 * it. Custom resources decode as unstructured whatever their kind, and their strategy's
 * validation refuses it (ValidateTypeMeta, in validateObject: undefined here), a 422 on `kind`
 * with what 1.32 still runs after it; their /scale's Scale the same way at once. A typed decoder makes the body's kind if the version has
 * it, then finds no conversion to the URL's kind; otherwise it has no such kind at all: either
 * way a 400 `<kind> in version "<v>" cannot be handled as a <Kind>: …` (transformDecodeError).
 */
function bodyOfAnotherKind(scope: RequestScope, kind: string, obj: KubeObject): StatusError | undefined {
  if (decodesUnstructured(scope) && scope.codec.scheme !== undefined) return undefined;
  if (scope.unstructured === true) return unstructuredOfAnotherKind(scope, kind, obj);
  return newBadRequest(`${kind} in version ${JSON.stringify(scope.version)} cannot be handled as a ${scope.codec.kind}: ${typedDecodeError(scope, kind)}`);
}

/**
 * Custom resources' ValidateTypeMeta: 422 on `kind` and on `apiVersion` where they differ from the
 * URL's, for the group kind the object carries (kube's store names the kind its typer reads from
 * the unstructured object, not the URL's).
 */
export function unstructuredOfAnotherKind(scope: RequestScope, kind: string, obj: KubeObject, apiVersion: string = scope.codec.apiVersion): StatusError {
  const errs: FieldError[] = [];
  if (kind !== scope.codec.kind) errs.push({ type: 'FieldValueInvalid', field: 'kind', badValue: kind, detail: `must be ${scope.codec.kind}` });
  if (apiVersion !== scope.codec.apiVersion) errs.push({ type: 'FieldValueInvalid', field: 'apiVersion', badValue: apiVersion, detail: `must be ${scope.codec.apiVersion}` });
  return newInvalid({ group: splitAPIVersion(apiVersion).group, kind }, String(obj.metadata?.name ?? ''), errs);
}

/**
 * Kinds metav1.AddToGroupVersion registers in every group version of a typed scheme (WatchEvent
 * and the options), and those it registers as unversioned under `v1` (every kube scheme also adds
 * the options to `v1`). All are apimachinery's meta/v1 Go types, printed `v1.<Kind>`.
 */
const META_EVERY_VERSION: ReadonlySet<string> = new Set(['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions']);
const META_UNVERSIONED: ReadonlySet<string> = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

/**
 * Why a typed decoder cannot decode `kind` (of `apiVersion`, default the URL's) into the URL's
 * kind: the scheme makes the body's type if it has one, then finds no conversion to the URL's
 * kind; otherwise it has no such kind at all. Type names as Go prints them (`v1.Namespace`, the
 * internal `core.Service`, meta's `v1.Status`).
 */
export function typedDecodeError(scope: RequestScope, kind: string, apiVersion: string = scope.apiVersion): string {
  // The URL kind's own group: a named create's kind (TokenRequest) is not its resource's.
  const urlGroup = splitAPIVersion(scope.codec.apiVersion).group;
  const internalPackage = urlGroup === '' ? 'core' : urlGroup.split('.')[0];
  const own = scope.schemeKinds?.get(apiVersion)?.has(kind) === true;
  const meta = ((scope.schemeKinds?.has(apiVersion) ?? false) || apiVersion === 'v1') && (META_EVERY_VERSION.has(kind) || (apiVersion === 'v1' && META_UNVERSIONED.has(kind)));
  if (own || meta) return `converting (${own ? splitAPIVersion(apiVersion).version : 'v1'}.${kind}) to (${internalPackage}.${scope.codec.kind}): unknown conversion`;
  return `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(scope.schemeName ?? (scope.group === '' ? 'core' : scope.group))}`;
}

/**
 * A typed body of another group version than the URL's. The URL's kind in another version of its
 * group that the scheme registers decodes (kube's schemes keep versions they no longer serve
 * registered: a `rbac.authorization.k8s.io/v1beta1` ClusterRole, an `apiextensions.k8s.io/v1beta1`
 * CRD; a group declares them, APIGroupDeclaration.unservedSchemeVersions), and the handler then
 * refuses the version (400 `the API version in the data …`); any other body, the URL's kind in a
 * version its group never had too, fails in the decoder as bodyOfAnotherKind's do.
 */
function bodyOfAnotherVersion(scope: RequestScope, apiVersion: string, kind: string): StatusError {
  const registered = scope.schemeKinds === undefined || scope.schemeKinds.get(apiVersion)?.has(kind) === true;
  if (registered && kind === scope.codec.kind && splitAPIVersion(apiVersion).group === splitAPIVersion(scope.codec.apiVersion).group) {
    return newBadRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${scope.codec.apiVersion})`);
  }
  return newBadRequest(`${kind} in version ${JSON.stringify(splitAPIVersion(apiVersion).version)} cannot be handled as a ${scope.codec.kind}: ${typedDecodeError(scope, kind, apiVersion)}`);
}

/**
 * The first value of a decoded object of a typed kind (one of apis/) whose JSON type its Go
 * struct cannot take: kube's typed decoder fails there before defaulting (which would otherwise
 * write into a string). Custom resources decode as unstructured: their schema validation judges.
 */
export function typedDecodeMismatch(scope: RequestScope, obj: KubeObject): TypeMismatch | undefined {
  const body = scope.subresourceBody;
  if (body !== undefined) return typeMismatch(body.openapi, body.definition, obj);
  if (scope.openapi === undefined || !decodesTyped(scope)) return undefined;
  return typeMismatch(scope.openapi, scope.definition.openapiDefinition, obj, scope.goTypes);
}

/** Whether the endpoint's kind is judged by typedDecodeMismatch (a kind of apis/ with its OpenAPI). */
function decodesTyped(scope: RequestScope): boolean {
  return scope.openapi !== undefined && scope.codec.scheme !== undefined && scope.codec.kind === scope.definition.kind && scope.unstructured !== true;
}

/**
 * Whether bodies decode as unstructured, as kube's CRD handler decodes a custom resource (its main
 * resource and /status); its /scale is the typed autoscaling/v1 Scale.
 */
export function decodesUnstructured(scope: RequestScope): boolean {
  return scope.unstructured === true && scope.codec.kind === scope.definition.kind;
}

/**
 * A typed kind without generated OpenAPI (the autoscaling/v1 Scale of a custom resource) still
 * decodes its metadata into ObjectMeta: Go's error for it, undefined otherwise.
 */
export function typedMetadataError(scope: RequestScope, obj: KubeObject): string | undefined {
  if (decodesUnstructured(scope) || decodesTyped(scope) || !hasField(obj, 'metadata')) return undefined;
  return objectMetaDecodeError(obj.metadata, scope.codec.kind);
}

/**
 * Why the CR codec cannot decode a decoded object's metadata into ObjectMeta (objectMetaDecodeError),
 * for the endpoints that decode unstructured; undefined otherwise.
 */
export function unstructuredMetadataError(scope: RequestScope, obj: unknown): string | undefined {
  if (!decodesUnstructured(scope) || !isJSONObject(obj) || !hasField(obj, 'metadata')) return undefined;
  return objectMetaDecodeError(obj['metadata']);
}

/**
 * Fills apiVersion/kind from the URL where absent; a different group/version is
 * `versionMismatch`'s error (by default a 400, as kube's create and update handlers answer); a
 * different kind is `kindMismatch`'s error (by default a 400 naming both; none when it returns
 * undefined, and the object keeps its kind for validation to judge).
 */
export function defaultAndCheckTypeMeta(
  scope: RequestScope,
  obj: KubeObject,
  kindMismatch?: (kind: string) => StatusError | undefined,
  versionMismatch?: (apiVersion: string, kind: string) => StatusError,
): void {
  const expected = splitAPIVersion(scope.codec.apiVersion);
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : scope.codec.kind;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  if (apiVersion.split('/').length > 2) {
    throw newBadRequest(`the object provided is unrecognized (must be of type ${scope.codec.kind}): unexpected GroupVersion string: ${apiVersion}`);
  }
  let gv = splitAPIVersion(apiVersion);
  if (apiVersion === '') gv = expected;
  else if (gv.version === '' && gv.group === expected.group) gv = { ...gv, version: expected.version };
  const actual = gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
  if (actual !== scope.codec.apiVersion) {
    throw versionMismatch?.(actual, kind) ?? newBadRequest(`the API version in the data (${actual}) does not match the expected API version (${scope.codec.apiVersion})`);
  }
  if (kind !== scope.codec.kind) {
    if (kindMismatch === undefined) throw newBadRequest(`the kind in the data (${kind}) does not match the expected kind (${scope.codec.kind})`);
    const err = kindMismatch(kind);
    if (err !== undefined) throw err;
  }
  obj.apiVersion = actual;
  obj.kind = kind;
}

/**
 * Resource schemas declare metadata as a bare object (as CRD schemas do); this checks the
 * ObjectMeta field types (labels a string map, …) so a patch cannot store a malformed one. Types
 * only: the typed ObjectMeta requires nothing (an ownerReference without a uid decodes, and
 * ValidateOwnerReferences says `uid must not be empty`).
 */
const OBJECT_WITH_META: JSONSchemaProps = { type: 'object', properties: { metadata: withoutManagedFields(objectMetaTypeSchema) } };

/**
 * managedFields are not judged here: kube decodes them as plain []ManagedFieldsEntry, and the field
 * manager replaces entries it cannot decode (a bad operation, no fieldsType) before validation.
 */
function withoutManagedFields(meta: JSONSchemaProps): JSONSchemaProps {
  const properties = Object.fromEntries(Object.entries(meta.properties ?? {}).filter(([k]) => k !== 'managedFields'));
  return { ...meta, properties };
}

function splitAPIVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/**
 * Prunes fields the request version's schema does not know (always dropped) and returns them
 * as `unknown field "spec.foo"` errors. Objects without a scheme (Scale) are left alone.
 */
export function pruneUnknownFields(scope: RequestScope, obj: KubeObject): string[] {
  if (scope.codec.scheme === undefined || isOtherKind(scope, obj)) return [];
  return prune(obj, scope.definition.schema, { isResourceRoot: true }).map((p) => `unknown field ${JSON.stringify(p)}`);
}

/**
 * The decoder's half of a write (the CR codec's defaulter, a typed kind's defaulting decode):
 * schema defaults, nulls the schema does not allow dropped, ObjectMeta's null fields dropped,
 * then the version's hand-written defaulter, in the request version. Mutates obj.
 */
export function defaultObject(scope: RequestScope, obj: KubeObject): void {
  const scheme = scope.codec.scheme;
  if (scheme === undefined) return;
  const schema = scope.definition.schema;
  // Go's typed decode leaves its zero in a required (non-omitempty) field the body lacks, `spec`
  // or a selector requirement's `key`: kinds no schema validates (isGoValidation) get it before
  // defaulting, so their defaulting and Go-style validation find the field as Go's would.
  const goValidated = isGoValidation(scope.definition.strategy?.validate);
  if (goValidated) zeroMissingRequiredFields(obj, schema);
  // And a null list item decodes into its type's zero value, which is then defaulted (a Service
  // port's protocol): the defaulter and validation read a struct there, never null. Custom
  // resources are unstructured: their schema refuses the null.
  if (scope.unstructured !== true) zeroNullListItems(obj, schema);
  // The CR codec prunes, defaults and coerces only an object of the CRD's kind (unstructuredSchemaCoercer, unstructuredDefaulter).
  if (!isOtherKind(scope, obj)) {
    applyDefaults(obj, schema);
    pruneNonNullableNullsWithoutDefaults(obj, schema);
  }
  // (A null field decodes into its zero too: the pruning above dropped it.)
  if (goValidated) zeroMissingRequiredFields(obj, schema);
  dropNullObjectMetaFields(obj);
  if (!isOtherKind(scope, obj)) scheme.defaultInPlace(obj, scope.version);
}

/**
 * The store's half (rest.BeforeCreate/BeforeUpdate's strategy validation, run after mutating
 * admission): `hub` as admission left it is validated in the request version, converted back from
 * the hub only when the two differ. `old` is the stored object (hub), undefined on create; it is
 * converted only when validation reads it (validationReadsOld) and the caller has no
 * `oldInVersion` (its copy in the request version) at hand.
 */
export async function validateAdmitted(scope: RequestScope, hub: KubeObject, old: KubeObject | undefined, warn?: (message: string) => void, oldInVersion?: KubeObject): Promise<void> {
  const scheme = scope.codec.scheme;
  if (scheme === undefined) return;
  const sameVersion = scope.version === scheme.hubVersion;
  const obj = sameVersion ? hub : await scope.codec.fromHub(hub);
  const oldSeen = old === undefined || !validationReadsOld(scope) ? undefined : sameVersion ? old : (oldInVersion ?? (await scope.codec.fromHub(old)));
  validateObject(scope, obj, oldSeen, warn);
}

/**
 * Schema validation and the schema's CEL rules (422 on the Kind with every cause), in the request
 * version. `old` is the current object in the request version on update (transition rules and
 * ratcheting need it), undefined on create. With the scope's validationRatcheting, what an update
 * left unchanged is not failed: schema errors are dropped, CEL errors of rules that do not read
 * oldSelf become warnings (`warn`), and list-type set/map duplicates count only when the stored
 * object had none. Reads obj only.
 */
export function validateObject(scope: RequestScope, obj: KubeObject, old?: KubeObject, warn?: (message: string) => void): void {
  if (scope.codec.scheme === undefined) return;
  const schema = scope.definition.schema;
  const ratcheting = old !== undefined && scope.validationRatcheting === true;
  const celOptions = ratcheting ? { ratcheting, ...(warn !== undefined ? { warn } : {}) } : undefined;
  if (scope.unstructured === true) {
    validateCustomResource(scope, obj, old, ratcheting, celOptions);
    return;
  }
  if (isGoValidation(scope.definition.strategy?.validate)) {
    // Its strategy validates it as kube's Go functions do; only the decode's type check of metadata is left.
    const errs = scope.validator.validate(OBJECT_WITH_META, obj);
    if (errs.length > 0) throw newInvalid(scope.groupKind, String(obj.metadata?.name ?? ''), errs);
    return;
  }
  const errs = [
    ...scope.validator.validate(schema, obj, ratcheting ? ratchetedAt(schema, obj, old) : undefined),
    ...scope.validator.validate(OBJECT_WITH_META, obj),
    ...validateEmbeddedResources(obj, schema),
    ...(ratcheting && validateListSetsAndMaps(old, schema).length > 0 ? [] : validateListSetsAndMaps(obj, schema)),
  ];
  // A built-in kind's declared rules run on an object its schema accepts; the notice that some
  // were not checked (hasBlockingErr) is customResourceStrategy's alone.
  if (!hasBlockingError(errs)) errs.push(...celValidator.validate(schema, obj, old, celOptions));
  if (errs.length > 0) throw newInvalid(scope.groupKind, String(obj.metadata?.name ?? ''), errs);
}

/** A custom resource body of another kind, which its strategy's validation refuses (decodeObjectBody lets it through). */
function isOtherKind(scope: RequestScope, obj: KubeObject): boolean {
  return scope.unstructured === true && obj.kind !== scope.codec.kind;
}

/** Field error types after which customResourceStrategy runs no CEL rule (hasBlockingErr). */
const BLOCKING: ReadonlySet<FieldError['type']> = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

function hasBlockingError(errs: readonly FieldError[]): boolean {
  return errs.some((e) => BLOCKING.has(e.type));
}

/**
 * A custom resource's validation as 1.32's customResourceStrategy runs it (Validate,
 * ValidateUpdate, and statusStrategy.ValidateUpdate for /status), on the object as its strategy
 * prepares it: the validator's part, which is the type meta alone when the kind is wrong
 * (ValidateTypeMeta), otherwise ObjectMeta, the schema (the status schema for /status) and the
 * scale subresource's replica paths (spec, not for /status, and status); then embedded resources
 * (not for /status) and list types; then, when the schema has rules, either the rules or, after a
 * blocking error, the notice that some were not checked. The ObjectMeta errors are those the
 * store's BeforeCreate/BeforeUpdate would find (on the name generateName yields, and the system
 * fields an update keeps), so they share the 422 and the blocking rule with the schema's.
 */
function validateCustomResource(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined, ratcheting: boolean, celOptions: CELValidateOptions | undefined): void {
  const schema = scope.definition.schema;
  // customResourceStrategy's own checks are the scale subresource's replica paths: validate has
  // both (ValidateScaleSpec, ValidateScaleStatus), its /status hook the status one.
  const strategy = scope.definition.strategy as RESTStrategy<KubeObject> | undefined;
  const subject = asStrategyPrepares(scope, obj, old);
  const status = scope.subresource === 'status' && old !== undefined;
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const typeMeta: FieldError[] = [];
  if (kind !== scope.codec.kind) typeMeta.push({ type: 'FieldValueInvalid', field: 'kind', badValue: kind, detail: `must be ${scope.codec.kind}` });
  if (obj.apiVersion !== scope.codec.apiVersion) typeMeta.push({ type: 'FieldValueInvalid', field: 'apiVersion', badValue: obj.apiVersion ?? '', detail: `must be ${scope.codec.apiVersion}` });
  // An update's BeforeUpdate checks ObjectMeta (validateCommonFields) before the strategy, whose
  // ValidateUpdate checks it again: kube's causes list those errors twice (the message once).
  const metaErrs = old !== undefined || typeMeta.length === 0 ? objectMetaErrors(scope, subject, old) : [];
  const errs: FieldError[] = old === undefined ? [] : [...metaErrs];
  if (typeMeta.length > 0) errs.push(...typeMeta);
  else if (status) {
    errs.push(...metaErrs, ...validateStatusStanza(scope, subject, old, ratcheting), ...(strategy?.status?.validateUpdate?.(subject, old) ?? []));
  } else {
    errs.push(
      ...metaErrs,
      ...scope.validator.validate(schema, subject, ratcheting ? ratchetedAt(schema, subject, old) : undefined),
      ...scope.validator.validate(OBJECT_WITH_META, subject),
      ...(strategy?.validate?.(subject) ?? []),
    );
  }
  if (!status) errs.push(...validateEmbeddedResources(subject, schema));
  // Ratcheted as a whole, as kube's strategies do: duplicates an update brings are reported only
  // when the stored object had none.
  if (!(old !== undefined && validateListSetsAndMaps(old, schema).length > 0)) errs.push(...validateListSetsAndMaps(subject, schema));
  if (celValidator.hasRules(schema, true)) {
    if (hasBlockingError(errs)) {
      errs.push({
        type: 'FieldValueInvalid',
        field: '<nil>',
        badValue: null,
        detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      });
    } else {
      errs.push(...celValidator.validate(schema, subject, old, celOptions));
    }
  }
  if (errs.length > 0) throw newInvalid(kind === scope.codec.kind ? scope.groupKind : { group: scope.groupKind.group, kind }, String(obj.metadata?.name ?? ''), errs);
}

/**
 * The ObjectMeta errors the store's BeforeCreate (on the name generateName yields) or BeforeUpdate
 * (uid, creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds kept from the stored
 * object, as it keeps them) will find in a custom resource's metadata.
 */
function objectMetaErrors(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const meta: ObjectMeta = { ...(isJSONObject(obj.metadata) ? obj.metadata : {}) };
  if (old === undefined) {
    if (typeof meta.generateName === 'string' && meta.generateName !== '' && (meta.name === undefined || meta.name === '')) meta.name = generateName(meta.generateName, () => 0);
    return validateObjectMetaCreate(meta, scope.definition.namespaced, dnsSubdomainName);
  }
  const oldMeta: ObjectMeta = isJSONObject(old.metadata) ? old.metadata : {};
  if (typeof meta.uid !== 'string' || meta.uid === '') meta.uid = oldMeta.uid;
  for (const f of ['creationTimestamp', 'deletionTimestamp'] as const) if (oldMeta[f] !== undefined && oldMeta[f] !== null) meta[f] = oldMeta[f];
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  return validateObjectMetaUpdate(meta, oldMeta, scope.definition.namespaced);
}

/**
 * metadata is ObjectMeta whatever the kind's schema says there, and kube decodes it typed: a
 * field of it sent as null (`creationTimestamp: null`, `resourceVersion: null`, as typed clients
 * and applied manifests send them) is that field's zero value, which ObjectMeta omits; not a type
 * error. Nulls deeper down (a label's value) are left to validation.
 */
function dropNullObjectMetaFields(obj: KubeObject): void {
  const meta = obj.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return;
  for (const k of Object.keys(meta)) if (meta[k] === null) delete meta[k];
}

/**
 * A custom resource as customResourceStrategy's PrepareFor* leaves it: through /status,
 * everything but status is the stored object's (statusStrategy); through the main resource of
 * a version with a /status subresource, status is dropped on create and the stored one kept
 * on update. A copy; `obj` itself goes on to the store, whose preconditions read its metadata.
 */
function asStrategyPrepares(scope: RequestScope, obj: KubeObject, old: KubeObject | undefined): KubeObject {
  if (scope.subresource === 'status') {
    if (old === undefined) return obj;
    const prepared = { ...obj };
    prepareStatusUpdate(prepared, old);
    return prepared;
  }
  if (!scope.definition.subresources.status) return obj;
  const prepared = { ...obj };
  if (old === undefined) delete prepared.status;
  else keepStoredStatus(prepared, old);
  return prepared;
}

/**
 * statusStrategy.ValidateUpdate's schema half (ValidateStatusUpdate): only the status stanza,
 * against the schema's `status` property alone, ratcheted against the stored status; errors
 * are reported under `status.` with the stanza's own paths in their details, as kube's
 * validator of the status schema words them. Nothing when the object has no status or the
 * schema does not describe one.
 */
function validateStatusStanza(scope: RequestScope, obj: KubeObject, old: KubeObject, ratcheting: boolean): FieldError[] {
  const statusSchema = propertySchema(scope.definition.schema, 'status');
  if (statusSchema === undefined || !hasField(obj, 'status')) return [];
  const ratcheted = ratcheting ? ratchetedAt(statusSchema, obj.status, ownField(old, 'status')) : undefined;
  return scope.validator.validate(statusSchema, obj.status, ratcheted).map((e) => ({
    ...e,
    field: e.field === '' ? 'status' : e.field.startsWith('[') ? `status${e.field}` : `status.${e.field}`,
  }));
}

/**
 * Whether validateObject reads the stored object (a custom resource, whose ObjectMeta update
 * checks compare with it; validation ratchets; or the schema has CEL rules, which may be
 * transition rules): only then must an update convert it to the request version.
 */
export function validationReadsOld(scope: RequestScope): boolean {
  return scope.codec.scheme !== undefined && (scope.unstructured === true || scope.validationRatcheting === true || celValidator.hasRules(scope.definition.schema, true));
}

/**
 * fieldValidation for the strict decoding errors of a body: Strict fails with `fail(message)`,
 * Warn turns each of `warnings` (by default the errors themselves; a YAML body's go-yaml error
 * is one warning per line) into a Warning header, Ignore drops them.
 */
export function applyFieldValidation(
  ctx: RequestContext,
  directive: FieldValidationDirective,
  errors: readonly string[],
  fail: (strictMessage: string) => StatusError,
  warnings: readonly string[] = errors,
): void {
  if (directive === 'Ignore') return;
  if (directive === 'Warn') {
    for (const w of warnings) ctx.warn(w);
    return;
  }
  if (errors.length > 0) throw fail(`strict decoding error: ${errors.join(', ')}`);
}

/** The 400 kube answers for strict decoding errors of a create or update body. */
export function strictDecodingFailure(scope: RequestScope, version: string): (message: string) => StatusError {
  return (message) => newBadRequest(`${scope.codec.kind} in version ${JSON.stringify(version)} cannot be handled as a ${scope.codec.kind}: ${message}`);
}
