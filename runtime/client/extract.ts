import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { extract } from '../apimachinery/managedfields/extract.js';
import { newTypeConverter, type TypeConverter } from '../apimachinery/managedfields/typeconverter.js';
import { isJSONObject, type JSONObject } from '../apimachinery/serializer/jsonvalue.js';

/** The kind an extraction reads: its apiVersion, kind and structural schema (the generated one). */
export interface ExtractTarget {
  readonly apiVersion: string;
  readonly kind: string;
  /** False for a cluster-scoped kind, whose extraction carries no namespace (as client-go's ExtractX); default true. */
  readonly namespaced?: boolean;
  readonly schema: JSONSchemaProps;
  /**
   * The kind's published OpenAPI document and definition name (kinds defined in apis/): the
   * server types managedFields by them, and they carry list keys the structural schema may
   * leave to the strategy (a Service port is keyed by port and protocol).
   */
  readonly openapi?: { readonly document: unknown; readonly definition: string };
}

/**
 * A generated schema module (a `.json` import) as the JSONSchemaProps it holds. TypeScript types a
 * JSON module by its literal shape, which a real CRD's schema (a `oneOf` of differently shaped
 * branches) does not fit, so generated code hands the module over here, at its I/O edge: it must
 * be a JSON object; its content was validated when the schema was generated.
 */
export function schemaFromJSON(value: unknown): JSONSchemaProps {
  if (!isJSONObject(value)) throw new TypeError(`a generated schema must be a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value as JSONSchemaProps;
}

// One type converter per generated schema: building the SMD schema walks the whole JSON schema.
const converters = new WeakMap<JSONSchemaProps, TypeConverter>();

function typeConverterOf(t: ExtractTarget): TypeConverter {
  let tc = converters.get(t.schema);
  if (tc === undefined) {
    tc = newTypeConverter([{ apiVersion: t.apiVersion, kind: t.kind, schema: t.schema, ...publishedTypes(t) }], { preserveUnknownFields: false });
    converters.set(t.schema, tc);
  }
  return tc;
}

/** The OpenAPI definition of the target with the document's definitions, when it names one the document has. */
function publishedTypes(t: ExtractTarget): { schema?: JSONSchemaProps; name?: string; definitions?: Readonly<Record<string, unknown>> } {
  if (t.openapi === undefined) return {};
  const components = isJSONObject(t.openapi.document) ? t.openapi.document['components'] : undefined;
  const definitions = isJSONObject(components) ? components['schemas'] : undefined;
  if (!isJSONObject(definitions) || !Object.hasOwn(definitions, t.openapi.definition)) return {};
  const published = definitions[t.openapi.definition];
  return isJSONObject(published) ? { schema: published as JSONSchemaProps, name: t.openapi.definition, definitions } : {};
}

/**
 * client-go's Extract<Kind>: the fields `fieldManager` owns in `obj` through
 * its Apply entry for `subresource` ('' for the main resource), as an apply
 * configuration with the kind's apiVersion and kind and the object's name and
 * namespace, by the same managedFields and merge code the server runs. An object the
 * manager never applied yields just those identifying fields. Generated
 * `extract<Kind>` functions call this with their kind's schema; `obj` is
 * not modified.
 */
export function extractApplyConfiguration<A>(obj: object, target: ExtractTarget, fieldManager: string, subresource: string): A {
  const extracted = extract(obj as JSONObject, fieldManager, typeConverterOf(target), subresource);
  // As client-go's generated ExtractX: the identity is set after the extraction (WithName, WithNamespace, WithKind, WithAPIVersion).
  const meta = isJSONObject((obj as JSONObject)['metadata']) ? ((obj as JSONObject)['metadata'] as JSONObject) : {};
  const identity: JSONObject = { name: typeof meta['name'] === 'string' ? meta['name'] : '' };
  if (target.namespaced !== false && typeof meta['namespace'] === 'string' && meta['namespace'] !== '') identity['namespace'] = meta['namespace'];
  const extractedMeta = isJSONObject(extracted['metadata']) ? extracted['metadata'] : {};
  return { ...extracted, apiVersion: target.apiVersion, kind: target.kind, metadata: { ...extractedMeta, ...identity } } as A;
}
