import { createRequire } from 'node:module';
import type protobuf from 'protobufjs/light.js';
import YAML from 'yaml';
import { GNOSTIC_OPENAPI_V2 } from './gnostic-v2-descriptor.js';

/**
 * The protobuf form of /openapi/v2: a Swagger 2.0 JSON document turned into gnostic's
 * `openapi.v2.Document` (what kube-openapi's ToProtoBinary does with gnostic's ParseDocument),
 * then marshalled. Maps become ordered (name, value) lists in the document's key order;
 * `x-` keys become vendor extensions, and free-form values (vendor extensions, default,
 * example, enum) become `Any` messages holding the value as YAML text, which is what
 * kubectl's readers unmarshal (x-kubernetes-group-version-kind, -patch-strategy, ...).
 *
 * gnostic refuses a document with keys Swagger 2.0 does not define; this conversion leaves such
 * keys out instead, so that one odd aggregated document does not take the whole endpoint down.
 */
export function encodeSwaggerV2Protobuf(document: unknown): Buffer {
  const type = gnosticDocumentType();
  return Buffer.from(type.encode(toGnosticDocument(document)).finish());
}

/** The message type `openapi.v2.Document` of GNOSTIC_OPENAPI_V2, built once with every reference resolved. */
export function gnosticDocumentType(): protobuf.Type {
  // protobufjs/light (a CommonJS package) is loaded here, on the first /openapi/v2 request for
  // protobuf, rather than with the module: most servers never get one, and it is about half a
  // MiB of heap in every process from start to exit.
  if (documentType !== undefined) return documentType;
  const light = createRequire(import.meta.url)('protobufjs/light.js') as typeof protobuf;
  return (documentType = light.Root.fromJSON(GNOSTIC_OPENAPI_V2).resolveAll().lookupType('openapi.v2.Document'));
}

let documentType: protobuf.Type | undefined;

/** A message as protobufjs encodes it from a plain object: field name → value. */
export type GnosticMessage = { [field: string]: unknown };

/** The plain-object `openapi.v2.Document` of a Swagger 2.0 JSON document (not mutated). */
export function toGnosticDocument(document: unknown): GnosticMessage {
  return convert(asObject(document), DOCUMENT);
}

type JSONObject = Readonly<Record<string, unknown>>;
/** Turns one JSON value into a field value; undefined leaves the field out. */
type Converter = (value: unknown) => unknown;
/** JSON key → [message field, converter]; keys not listed (other than `x-`) are left out. */
type Table = Readonly<Record<string, readonly [string, Converter]>>;

function convert(obj: JSONObject, table: Table, vendorExtensions = true): GnosticMessage {
  const out: GnosticMessage = {};
  for (const [key, value] of Object.entries(obj)) {
    const entry = table[key];
    if (entry === undefined) continue;
    const converted = entry[1](value);
    if (converted !== undefined) out[entry[0]] = converted;
  }
  if (vendorExtensions) {
    const ext = vendorExtensionsOf(obj);
    if (ext.length > 0) out['vendorExtension'] = ext;
  }
  return out;
}

function vendorExtensionsOf(obj: JSONObject): GnosticMessage[] {
  return Object.entries(obj)
    .filter(([key]) => key.startsWith('x-'))
    .map(([name, value]) => ({ name, value: toAny(value) }));
}

/**
 * YAML 1.1, as the Go readers parse it (gopkg.in/yaml.v2): strings such as `on` or `no` are
 * quoted so they stay strings. No line folding, so long strings read back unchanged.
 */
function toAny(value: unknown): GnosticMessage {
  return { yaml: YAML.stringify(value, { version: '1.1', lineWidth: 0 }) };
}

// ---- scalar converters ----

const string: Converter = (v) => (typeof v === 'string' ? v : undefined);
const bool: Converter = (v) => (typeof v === 'boolean' ? v : undefined);
const double: Converter = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const int64: Converter = (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined);
const strings: Converter = (v) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined);
const any: Converter = (v) => (v === undefined ? undefined : toAny(v));
const anys: Converter = (v) => (Array.isArray(v) ? v.map(toAny) : undefined);

function object(table: () => Table, vendorExtensions = true): Converter {
  return (v) => (isObject(v) ? convert(v, table(), vendorExtensions) : undefined);
}

function list(each: Converter): Converter {
  return (v) => (Array.isArray(v) ? v.map(each).filter((x) => x !== undefined) : undefined);
}

/** A JSON map as a message with one repeated (name, value) field. */
function namedList(field: string, each: Converter, keep: (key: string) => boolean = () => true): Converter {
  return (v) => {
    if (!isObject(v)) return undefined;
    const items: GnosticMessage[] = [];
    for (const [name, value] of Object.entries(v)) {
      if (!keep(name)) continue;
      const converted = each(value);
      if (converted !== undefined) items.push({ name, value: converted });
    }
    return { [field]: items };
  };
}

function oneOf(field: string, each: Converter): Converter {
  return (v) => {
    const converted = each(v);
    return converted === undefined ? undefined : { [field]: converted };
  };
}

// ---- messages ----

const externalDocs = object(() => ({ description: ['description', string], url: ['url', string] }));

const xml = object(() => ({
  name: ['name', string],
  namespace: ['namespace', string],
  prefix: ['prefix', string],
  attribute: ['attribute', bool],
  wrapped: ['wrapped', bool],
}));

const schema: Converter = object(() => SCHEMA);

/** The validation keywords schemas and primitive values share (their proto fields have the same names). */
const VALUE_LIMITS: Table = {
  multipleOf: ['multipleOf', double],
  maximum: ['maximum', double],
  exclusiveMaximum: ['exclusiveMaximum', bool],
  minimum: ['minimum', double],
  exclusiveMinimum: ['exclusiveMinimum', bool],
  maxLength: ['maxLength', int64],
  minLength: ['minLength', int64],
  pattern: ['pattern', string],
  maxItems: ['maxItems', int64],
  minItems: ['minItems', int64],
  uniqueItems: ['uniqueItems', bool],
  enum: ['enum', anys],
};

const SCHEMA: Table = {
  ...VALUE_LIMITS,
  $ref: ['ref', string],
  format: ['format', string],
  title: ['title', string],
  description: ['description', string],
  default: ['default', any],
  maxProperties: ['maxProperties', int64],
  minProperties: ['minProperties', int64],
  required: ['required', strings],
  additionalProperties: ['additionalProperties', (v) => (typeof v === 'boolean' ? { boolean: v } : oneOf('schema', schema)(v))],
  type: ['type', (v) => (typeof v === 'string' ? { value: [v] } : Array.isArray(v) ? { value: strings(v) } : undefined)],
  items: ['items', (v) => (Array.isArray(v) ? { schema: list(schema)(v) } : isObject(v) ? { schema: [schema(v)] } : undefined)],
  allOf: ['allOf', list(schema)],
  properties: ['properties', namedList('additionalProperties', schema)],
  discriminator: ['discriminator', string],
  readOnly: ['readOnly', bool],
  xml: ['xml', xml],
  externalDocs: ['externalDocs', externalDocs],
  example: ['example', any],
};

const fileSchema = object(() => ({
  format: ['format', string],
  title: ['title', string],
  description: ['description', string],
  default: ['default', any],
  required: ['required', strings],
  type: ['type', string],
  readOnly: ['readOnly', bool],
  externalDocs: ['externalDocs', externalDocs],
  example: ['example', any],
}));

/** The keywords of a primitive (non-body) value: parameters, headers, and their items. */
const PRIMITIVE: Table = {
  ...VALUE_LIMITS,
  type: ['type', string],
  format: ['format', string],
  items: ['items', (v) => primitivesItems(v)],
  collectionFormat: ['collectionFormat', string],
  default: ['default', any],
};

const primitivesItems: Converter = object(() => PRIMITIVE);

const header = object(() => ({ ...PRIMITIVE, description: ['description', string] }));

const PARAMETER_HEAD: Table = {
  required: ['required', bool],
  in: ['in', string],
  description: ['description', string],
  name: ['name', string],
};

/** The NonBodyParameter oneof field for each `in`, and whether that sub-schema has allowEmptyValue. */
const NON_BODY: Readonly<Record<string, readonly [string, boolean]>> = {
  header: ['headerParameterSubSchema', false],
  formData: ['formDataParameterSubSchema', true],
  query: ['queryParameterSubSchema', true],
  path: ['pathParameterSubSchema', false],
};

/** A Parameter by its `in`: body or one of the four non-body sub-schemas; another `in` has no encoding. */
const parameter: Converter = (v) => {
  if (!isObject(v) || typeof v['in'] !== 'string') return undefined;
  if (v['in'] === 'body') return { bodyParameter: convert(v, { ...PARAMETER_HEAD, schema: ['schema', schema] }) };
  const sub = NON_BODY[v['in']];
  if (sub === undefined) return undefined;
  const table: Table = sub[1] ? { ...PARAMETER_HEAD, allowEmptyValue: ['allowEmptyValue', bool], ...PRIMITIVE } : { ...PARAMETER_HEAD, ...PRIMITIVE };
  return { nonBodyParameter: { [sub[0]]: convert(v, table) } };
};

const jsonReference: Converter = object(() => ({ $ref: ['ref', string], description: ['description', string] }), false);

/** A `$ref` object is a JsonReference, anything else the inline form. */
function referenceOr(inlineField: string, inline: Converter): Converter {
  return (v) => {
    if (!isObject(v)) return undefined;
    if (typeof v['$ref'] === 'string') return { jsonReference: jsonReference(v) };
    return oneOf(inlineField, inline)(v);
  };
}

const parametersItem = referenceOr('parameter', parameter);

const response: Converter = object(() => ({
  description: ['description', string],
  schema: ['schema', (v) => (isObject(v) && v['type'] === 'file' ? { fileSchema: fileSchema(v) } : oneOf('schema', schema)(v))],
  headers: ['headers', namedList('additionalProperties', header)],
  examples: ['examples', namedList('additionalProperties', any)],
}));

const RESPONSE_CODE = /^([0-9]{3}|default)$/;

const responses: Converter = (v) => {
  if (!isObject(v)) return undefined;
  const out = namedList('responseCode', referenceOr('response', response), (code) => RESPONSE_CODE.test(code))(v) as GnosticMessage;
  const ext = vendorExtensionsOf(v);
  return ext.length > 0 ? { ...out, vendorExtension: ext } : out;
};

const securityRequirement = namedList('additionalProperties', (v) => (Array.isArray(v) ? { value: strings(v) } : undefined));

const operation = object(() => ({
  tags: ['tags', strings],
  summary: ['summary', string],
  description: ['description', string],
  externalDocs: ['externalDocs', externalDocs],
  operationId: ['operationId', string],
  produces: ['produces', strings],
  consumes: ['consumes', strings],
  parameters: ['parameters', list(parametersItem)],
  responses: ['responses', responses],
  schemes: ['schemes', strings],
  deprecated: ['deprecated', bool],
  security: ['security', list(securityRequirement)],
}));

const pathItem = object(() => ({
  $ref: ['ref', string],
  get: ['get', operation],
  put: ['put', operation],
  post: ['post', operation],
  delete: ['delete', operation],
  options: ['options', operation],
  head: ['head', operation],
  patch: ['patch', operation],
  parameters: ['parameters', list(parametersItem)],
}));

/** Paths: `/…` keys are paths, `x-` keys vendor extensions. */
const paths: Converter = (v) => {
  if (!isObject(v)) return undefined;
  const out = namedList('path', pathItem, (p) => p.startsWith('/'))(v) as GnosticMessage;
  const ext = vendorExtensionsOf(v);
  return ext.length > 0 ? { vendorExtension: ext, ...out } : out;
};

const scopes = namedList('additionalProperties', string);

/** The SecurityDefinitionsItem oneof field by `type` (and `flow` for oauth2). */
const securityDefinitionsItem: Converter = (v) => {
  if (!isObject(v)) return undefined;
  const head: Table = { type: ['type', string], description: ['description', string] };
  const oauth2: Table = { ...head, flow: ['flow', string], scopes: ['scopes', scopes] };
  const authorizationUrl: Table = { authorizationUrl: ['authorizationUrl', string] };
  const tokenUrl: Table = { tokenUrl: ['tokenUrl', string] };
  switch (v['type'] === 'oauth2' ? `oauth2/${String(v['flow'])}` : v['type']) {
    case 'basic':
      return { basicAuthenticationSecurity: convert(v, head) };
    case 'apiKey':
      return { apiKeySecurity: convert(v, { ...head, name: ['name', string], in: ['in', string] }) };
    case 'oauth2/implicit':
      return { oauth2ImplicitSecurity: convert(v, { ...oauth2, ...authorizationUrl }) };
    case 'oauth2/password':
      return { oauth2PasswordSecurity: convert(v, { ...oauth2, ...tokenUrl }) };
    case 'oauth2/application':
      return { oauth2ApplicationSecurity: convert(v, { ...oauth2, ...tokenUrl }) };
    case 'oauth2/accessCode':
      return { oauth2AccessCodeSecurity: convert(v, { ...oauth2, ...authorizationUrl, ...tokenUrl }) };
    default:
      return undefined;
  }
};

const DOCUMENT: Table = {
  swagger: ['swagger', string],
  info: [
    'info',
    object(() => ({
      title: ['title', string],
      version: ['version', string],
      description: ['description', string],
      termsOfService: ['termsOfService', string],
      contact: ['contact', object(() => ({ name: ['name', string], url: ['url', string], email: ['email', string] }))],
      license: ['license', object(() => ({ name: ['name', string], url: ['url', string] }))],
    })),
  ],
  host: ['host', string],
  basePath: ['basePath', string],
  schemes: ['schemes', strings],
  consumes: ['consumes', strings],
  produces: ['produces', strings],
  paths: ['paths', paths],
  definitions: ['definitions', namedList('additionalProperties', schema)],
  parameters: ['parameters', namedList('additionalProperties', parameter)],
  responses: ['responses', namedList('additionalProperties', response)],
  security: ['security', list(securityRequirement)],
  securityDefinitions: ['securityDefinitions', namedList('additionalProperties', securityDefinitionsItem)],
  tags: ['tags', list(object(() => ({ name: ['name', string], description: ['description', string], externalDocs: ['externalDocs', externalDocs] })))],
  externalDocs: ['externalDocs', externalDocs],
};

function asObject(v: unknown): JSONObject {
  return isObject(v) ? v : {};
}

function isObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
