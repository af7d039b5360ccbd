import { newBadRequest, newUnsupportedMediaType, type StatusError } from '../errors/index.js';
import { quote } from '../util/strconv.js';
import { decodableMediaTypes, decodeBody, type DecodedBody, type DecodeOptions, PROTOBUF_MEDIA_TYPE, summarizeData } from './decode.js';
import { mediaTypeEssence, parseContentType } from './mediatype.js';
import { builtinProtobufScheme } from './protobuf/builtin.js';
import { decodeProtobufObject } from './protobuf/decode.js';
import { readEnvelope } from './protobuf/envelope.js';
import { ProtobufDecodeError } from './protobuf/wire.js';
import type { ProtobufScheme, TypeMetaRef } from './protobuf/scheme.js';
import { decodeYAMLBodyOffThread, YAML_OFF_THREAD_BYTES } from './yaml-pool.js';

export interface TypedBodyOptions extends DecodeOptions {
  /** The kind the endpoint decodes into: protobuf bodies are accepted when it has descriptors. */
  readonly into: TypeMetaRef;
  /** Default: the descriptors generated from apis/. */
  readonly scheme?: ProtobufScheme;
  /**
   * The request's fieldValidation directive ('' or absent is Warn, handlers' default): what a
   * custom resource's protobuf body meets (see decodeTypedBody).
   */
  readonly fieldValidation?: string;
}

/**
 * The body media types an endpoint decoding `into` accepts, in the order its 415 lists them: with
 * protobuf when the kind has descriptors, and for a custom resource (`unstructured`), whose 1.32
 * serializer lists protobuf (unstructuredNegotiatedSerializer) though it decodes none.
 */
export function bodyMediaTypes(into: TypeMetaRef, scheme: ProtobufScheme = builtinProtobufScheme(), unstructured = false): readonly string[] {
  return decodableMediaTypes({ protobuf: unstructured || scheme.supports(into) });
}

/**
 * decodeBody for a body of a known kind: JSON and YAML as decodeBody
 * decodes them, and `application/vnd.kubernetes.protobuf` when the kind has
 * protobuf descriptors (no duplicate fields there: protobuf has no such
 * notion). A 415 lists what this kind accepts.
 */
export function decodeTypedBody(bytes: Uint8Array, contentType: string, opts: TypedBodyOptions): DecodedBody {
  const scheme = opts.scheme ?? builtinProtobufScheme();
  const accepted = bodyMediaTypes(opts.into, scheme, opts.unstructured === true);
  const mt = parseContentType(contentType === '' ? 'application/json' : contentType);
  if (mt !== undefined && mediaTypeEssence(mt) === PROTOBUF_MEDIA_TYPE && accepted.includes(PROTOBUF_MEDIA_TYPE)) {
    if (opts.unstructured === true) throw unstructuredProtobufError(bytes, opts, accepted);
    const decodeOpts = { into: opts.into, scheme, ...(opts.kind === undefined ? {} : { kind: opts.kind }) };
    return { value: decodeProtobufObject(bytes, decodeOpts), duplicateFields: [] };
  }
  // Kinds with protobuf descriptors are the typed ones; others (custom resources) decode as unstructured.
  const unstructured = opts.unstructured ?? !scheme.supports(opts.into);
  return decodeBody(bytes, contentType, { ...opts, acceptedMediaTypes: accepted, unstructured, defaultAPIVersion: opts.defaultAPIVersion ?? opts.into.apiVersion });
}

/**
 * A custom resource's protobuf body, as 1.32's create and update handlers meet it. Under Warn (the
 * default) and Strict they decode with the protobuf entry's StrictSerializer, which the CR
 * serializer leaves unset: the nil decoder panics and the connection drops with no answer. We
 * answer 415 there instead (listing what the CR serializer lists). Under Ignore, protobuf.Serializer
 * Decode runs: the prefix and the runtime.Unknown envelope are checked (an error there has no kind:
 * "the object provided is unrecognized"), then the envelope's kind, defaulted from the URL's, meets
 * an *unstructured.Unstructured, which has no protobuf form (errNotMarshalable), as
 * transformDecodeError words it.
 */
function unstructuredProtobufError(bytes: Uint8Array, opts: TypedBodyOptions, accepted: readonly string[]): StatusError {
  if (opts.fieldValidation !== 'Ignore') return newUnsupportedMediaType(accepted);
  const into = opts.into;
  let envelope;
  try {
    envelope = readEnvelope(bytes);
  } catch (err) {
    if (!(err instanceof ProtobufDecodeError)) throw err;
    return newBadRequest(`the object provided is unrecognized (must be of type ${into.kind}): ${err.message} (${summarizeData(bytes, 30)})`);
  }
  // unk.GroupVersionKind(): an apiVersion with more than one slash parses to no group version.
  const parts = envelope.apiVersion.split('/');
  let version = parts.length === 1 ? parts[0]! : parts.length === 2 ? parts[1]! : '';
  const kind = envelope.kind === '' ? into.kind : envelope.kind;
  // copyKindDefaults: the URL's group version when the envelope has no version.
  if (version === '') version = into.apiVersion.split('/').at(-1)!;
  return newBadRequest(
    `${kind} in version ${quote(version)} cannot be handled as a ${into.kind}: object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message`,
  );
}

/**
 * What can abort a decode: the request, whose `signal` is read only when a decode goes off
 * thread (a request's AbortSignal is made on first use, and costs a JSON create or update more
 * than anything else it would be needed for).
 */
export interface DecodeCancellation {
  readonly signal: AbortSignal;
}

/**
 * decodeTypedBody for request handlers: a YAML body larger than YAML_OFF_THREAD_BYTES is decoded
 * on a worker thread (the YAML library takes seconds for a few MiB, which would hold the event
 * loop), abandoned when the request (`cancel`) aborts; everything else decodes in place.
 */
export async function decodeRequestBody(bytes: Uint8Array, contentType: string, opts: TypedBodyOptions, cancel?: DecodeCancellation): Promise<DecodedBody> {
  const mt = parseContentType(contentType === '' ? 'application/json' : contentType);
  if (mt !== undefined && mediaTypeEssence(mt) === 'application/yaml' && bytes.length > YAML_OFF_THREAD_BYTES) {
    return decodeYAMLBodyOffThread(bytes, opts, cancel?.signal);
  }
  return decodeTypedBody(bytes, contentType, opts);
}
