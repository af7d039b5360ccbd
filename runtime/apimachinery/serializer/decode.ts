import { newBadRequest, newUnsupportedMediaType, type StatusError } from '../errors/index.js';
import { JSONSyntaxError, MAX_OBJECT_DEPTH, scanJSONBody } from './json-scan.js';
import { isJSONObject, jsonTypeName, parseJSONBytes } from './jsonvalue.js';
import { parseContentType } from './mediatype.js';
import { decodeYAML, MAX_ALIAS_COUNT, toJSONCompatible, YAMLConversionError, type YAMLDecoded } from './yaml.js';

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
  /**
   * Whether the body decodes into an unstructured object (custom resources), as kube's
   * UnmarshalCaseSensitivePreserveInts into interface{} does: a JSON number outside float64's
   * range fails it, `<Kind> in version "<v>" cannot be handled as a <Kind>: json: cannot
   * unmarshal number 1e400 into Go value of type float64` (needs `kind`). Typed decoders fail
   * per field type instead (left to the typed decode check).
   */
  readonly unstructured?: boolean;
  /** The URL's apiVersion, whose version names the object in that message when the body has none. */
  readonly defaultAPIVersion?: string;
}

export interface DecodedBody {
  /** The decoded value; never undefined (`null` for a YAML body with no content). */
  readonly value: unknown;
  /** Paths of duplicated keys (`metadata.name`, `spec.ports[0].port`); the last occurrence wins in `value`. */
  readonly duplicateFields: string[];
  /**
   * YAML bodies: go-yaml's strict errors for the repeated keys (`line 7: key "image" already set
   * in map`), which kube reports instead of duplicate fields for YAML (see strict.ts).
   */
  readonly yamlDuplicateKeys?: string[];
  /**
   * JSON bodies: the paths (keys and indexes) of numbers Go's decoder makes float64 where the
   * value here is an integer: `1.0`, `1e0`, integers beyond int64. kube's consumers see a float64
   * there (the scale accessor's `1 is of the type float64, expected int64`, CEL's `expected int,
   * got float64`); YAML bodies have none (YAMLToJSON writes an integral float as an integer).
   */
  readonly integralFloats?: ReadonlyArray<ReadonlyArray<string | number>>;
}

/**
 * Decodes a request body by its Content-Type: `application/json` (and any
 * `+json` suffix) or `application/yaml` (and `+yaml`; the first document, as
 * sigs.k8s.io/yaml reads it). Never
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
  let scanned: ReturnType<typeof scanJSONBody>;
  try {
    scanned = scanJSONBody(bytes, opts.maxDepth ?? MAX_OBJECT_DEPTH);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw decodeError(`couldn't get version/kind; json parse error: ${err.message}`, bytes, opts);
    throw err;
  }
  const value = parseJSONBytes(bytes);
  checkTypeMeta(value, bytes, opts);
  if (scanned.outOfRange !== undefined && opts.unstructured === true && opts.kind !== undefined) {
    throw newBadRequest(`${cannotBeHandled(value, opts)}: json: cannot unmarshal number ${scanned.outOfRange} into Go value of type float64`);
  }
  return { value, duplicateFields: scanned.duplicateFields, integralFloats: scanned.integralFloats };
}

/** transformDecodeError's prefix once the body's kind is known: the kind and version from the body, defaulted from the URL. */
function cannotBeHandled(value: unknown, opts: DecodeOptions): string {
  const obj = isJSONObject(value) ? value : {};
  const kind = typeof obj['kind'] === 'string' && obj['kind'] !== '' ? obj['kind'] : (opts.kind ?? '');
  const versionOf = (apiVersion: unknown): string => (typeof apiVersion === 'string' ? (apiVersion.split('/').pop() ?? '') : '');
  const version = versionOf(obj['apiVersion']) || versionOf(opts.defaultAPIVersion);
  return `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${opts.kind ?? kind}`;
}

/**
 * decodeBody for YAML bytes (JSON is valid YAML and decodes the same). Errors are
 * sigs.k8s.io/yaml YAMLToJSON's, bare (`yaml: line 7: …`), as kube's serializer returns them;
 * yaml.Unmarshal callers (apply) add its `error converting YAML to JSON: `.
 */
export function decodeYAMLBody(bytes: Uint8Array, opts: DecodeOptions = {}): DecodedBody {
  let decoded: DecodedBody | undefined;
  try {
    decoded =
      asJSON(bytes, opts.maxDepth ?? MAX_OBJECT_DEPTH) ??
      fromYAML(
        decodeYAML(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), {
          maxAliasCount: opts.maxAliasCount ?? MAX_ALIAS_COUNT,
          maxDepth: opts.maxDepth ?? MAX_OBJECT_DEPTH,
        }),
      );
  } catch (err) {
    if (err instanceof YAMLConversionError) throw decodeError(err.message, bytes, opts);
    throw err;
  }
  checkTypeMeta(decoded.value, bytes, opts);
  return decoded;
}

function fromYAML(d: YAMLDecoded): DecodedBody {
  return { value: d.value, duplicateFields: d.duplicateFields, yamlDuplicateKeys: d.duplicateKeys };
}

/**
 * A YAML body that is JSON text, decoded as JSON (the same value, and orders
 * of magnitude faster than the YAML library on large bodies); undefined when
 * it is not JSON, or is JSON go-yaml reads otherwise than JSON.parse or
 * reports on: a number out of float64's range (a string to go-yaml), a
 * repeated key (reported with go-yaml's lines), a character YAML refuses.
 */
function asJSON(bytes: Uint8Array, maxDepth: number): DecodedBody | undefined {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (bytes[i] !== 0x7b && bytes[i] !== 0x5b) return undefined;
  let scanned: ReturnType<typeof scanJSONBody>;
  try {
    scanned = scanJSONBody(bytes, maxDepth);
  } catch (err) {
    if (err instanceof JSONSyntaxError) return undefined;
    throw err;
  }
  if (scanned.outOfRange !== undefined || scanned.duplicateFields.length > 0 || hasNonPrintable(bytes)) return undefined;
  const value = toJSONCompatible(parseJSONBytes(bytes), maxDepth);
  return { value, duplicateFields: [], yamlDuplicateKeys: [] };
}

/** Whether the bytes hold a control character (other than tab and line breaks) or DEL: go-yaml's reader refuses them. */
function hasNonPrintable(bytes: Uint8Array): boolean {
  for (const b of bytes) if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f) return true;
  return false;
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
