import { newBadRequest, newUnsupportedMediaType, type StatusError } from '../errors/index.js';
import { JSONSyntaxError, MAX_OBJECT_DEPTH, scanJSON } from './json-scan.js';
import { isJSONObject, jsonTypeName, parseJSONBytes } from './jsonvalue.js';
import { parseContentType } from './mediatype.js';
import { decodeYAML, MAX_ALIAS_COUNT, toJSONCompatible, YAMLConversionError } from './yaml.js';

/** The body media types decodeBody accepts, as listed in its 415. */
export const DECODABLE_MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml'];

/** Protobuf bodies (`k8s\0` + runtime.Unknown), decoded for kinds with generated descriptors (serializer/protobuf). */
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** The body media types of a kind in the order kube's 415 lists them: JSON, YAML, then protobuf where the kind has it. */
export function decodableMediaTypes(kind: { readonly protobuf: boolean }): readonly string[] {
  return kind.protobuf ? [...DECODABLE_MEDIA_TYPES, PROTOBUF_MEDIA_TYPE] : DECODABLE_MEDIA_TYPES;
}

export interface DecodeOptions {
  /**
   * The Kind the body is decoded into (create/update). With it, errors carry
   * kube's wording for that path, `the object provided is unrecognized (must
   * be of type Namespace): couldn't get version/kind; json parse error: …
   * ({"apiVersion":"v1","kind":"Na ...)`, and a body that is not an object
   * (or has a non-string apiVersion/kind) is rejected as kube's type-meta
   * probe rejects it. Without it the message is the bare decoder error.
   */
  readonly kind?: string;
  /** Nesting limit; default MAX_OBJECT_DEPTH (what the pipeline can clone and encode). */
  readonly maxDepth?: number;
  /** YAML alias expansions allowed; default 100. */
  readonly maxAliasCount?: number;
  /** The media types a 415 lists; default DECODABLE_MEDIA_TYPES (callers that also decode protobuf list it). */
  readonly acceptedMediaTypes?: readonly string[];
}

export interface DecodedBody {
  /** The decoded value; never undefined (`null` for a YAML body with no content). */
  readonly value: unknown;
  /** Paths of duplicated keys (`metadata.name`, `spec.ports[0].port`); the last occurrence wins in `value`. */
  readonly duplicateFields: string[];
}

/**
 * Decodes a request body by its Content-Type: `application/json` (and any
 * `+json` suffix) or `application/yaml` (and `+yaml`; one document). Never
 * mutates `bytes`. Throws a StatusError: 415 for other or malformed media
 * types (mime.ParseMediaType's errors: `application/json;;;`), 400
 * BadRequest for malformed input, nesting past `maxDepth` or YAML alias bombs.
 */
export function decodeBody(bytes: Uint8Array, contentType: string, opts: DecodeOptions = {}): DecodedBody {
  const mt = parseContentType(contentType === '' ? 'application/json' : contentType);
  const subtype = mt?.subtype ?? '';
  if (mt?.type === 'application' && (subtype === 'json' || subtype.endsWith('+json'))) return decodeJSONBody(bytes, opts);
  if (mt?.type === 'application' && (subtype === 'yaml' || subtype.endsWith('+yaml'))) return decodeYAMLBody(bytes, opts);
  throw newUnsupportedMediaType(opts.acceptedMediaTypes ?? DECODABLE_MEDIA_TYPES);
}

/** decodeBody for JSON bytes. */
export function decodeJSONBody(bytes: Uint8Array, opts: DecodeOptions = {}): DecodedBody {
  let duplicateFields: string[];
  try {
    duplicateFields = scanJSON(bytes, opts.maxDepth ?? MAX_OBJECT_DEPTH);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw decodeError(`couldn't get version/kind; json parse error: ${err.message}`, bytes, opts);
    throw err;
  }
  const value = parseJSONBytes(bytes);
  checkTypeMeta(value, bytes, opts);
  return { value, duplicateFields };
}

/** decodeBody for YAML bytes (JSON is valid YAML and decodes the same). */
export function decodeYAMLBody(bytes: Uint8Array, opts: DecodeOptions = {}): DecodedBody {
  let decoded: DecodedBody | undefined;
  try {
    decoded =
      asJSON(bytes, opts.maxDepth ?? MAX_OBJECT_DEPTH) ??
      decodeYAML(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), {
        maxAliasCount: opts.maxAliasCount ?? MAX_ALIAS_COUNT,
        maxDepth: opts.maxDepth ?? MAX_OBJECT_DEPTH,
      });
  } catch (err) {
    if (err instanceof YAMLConversionError) throw decodeError(`error converting YAML to JSON: ${err.message}`, bytes, opts);
    throw err;
  }
  checkTypeMeta(decoded.value, bytes, opts);
  return decoded;
}

/**
 * A YAML body that is JSON text, decoded as JSON (the same value, duplicates
 * included, and orders of magnitude faster than the YAML library on large
 * bodies); undefined when it is not JSON.
 */
function asJSON(bytes: Uint8Array, maxDepth: number): DecodedBody | undefined {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (bytes[i] !== 0x7b && bytes[i] !== 0x5b) return undefined;
  let duplicateFields: string[];
  try {
    duplicateFields = scanJSON(bytes, maxDepth);
  } catch (err) {
    if (err instanceof JSONSyntaxError) return undefined;
    throw err;
  }
  const value = toJSONCompatible(parseJSONBytes(bytes), maxDepth);
  return { value, duplicateFields };
}

/** The probe of apiVersion/kind kube runs first (json.SimpleMetaFactory.Interpret), when a Kind is given. */
function checkTypeMeta(value: unknown, bytes: Uint8Array, opts: DecodeOptions): void {
  if (opts.kind === undefined || value === null) return;
  if (!isJSONObject(value)) {
    const into = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    throw decodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type ${into}`, bytes, opts);
  }
  for (const field of ['apiVersion', 'kind']) {
    const v = value[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw decodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(v)} into Go struct field .${field} of type string`, bytes, opts);
    }
  }
}

function decodeError(message: string, bytes: Uint8Array, opts: DecodeOptions): StatusError {
  if (opts.kind === undefined) return newBadRequest(message);
  return newBadRequest(`the object provided is unrecognized (must be of type ${opts.kind}): ${message} (${summarizeData(bytes, 30)})`);
}

/** The start of a body as kube quotes it in decode errors: text for objects, hex otherwise. */
export function summarizeData(bytes: Uint8Array, maxLength: number): string {
  if (bytes.length === 0) return '<empty>';
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, maxLength));
  const more = bytes.length > maxLength ? ' ...' : '';
  return bytes[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}
