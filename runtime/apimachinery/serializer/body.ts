import { decodableMediaTypes, decodeBody, type DecodedBody, type DecodeOptions, PROTOBUF_MEDIA_TYPE } from './decode.js';
import { mediaTypeEssence, parseContentType } from './mediatype.js';
import { builtinProtobufScheme } from './protobuf/builtin.js';
import { decodeProtobufObject } from './protobuf/decode.js';
import type { ProtobufScheme, TypeMetaRef } from './protobuf/scheme.js';
import { decodeYAMLBodyOffThread, YAML_OFF_THREAD_BYTES } from './yaml-pool.js';

export interface TypedBodyOptions extends DecodeOptions {
  /** The kind the endpoint decodes into: protobuf bodies are accepted when it has descriptors. */
  readonly into: TypeMetaRef;
  /** Default: the descriptors generated from apis/. */
  readonly scheme?: ProtobufScheme;
}

/** The body media types an endpoint decoding `into` accepts, in the order its 415 lists them. */
export function bodyMediaTypes(into: TypeMetaRef, scheme: ProtobufScheme = builtinProtobufScheme()): readonly string[] {
  return decodableMediaTypes({ protobuf: scheme.supports(into) });
}

/**
 * decodeBody for a body of a known kind: JSON and YAML as decodeBody
 * decodes them, and `application/vnd.kubernetes.protobuf` when the kind has
 * protobuf descriptors (no duplicate fields there: protobuf has no such
 * notion). A 415 lists what this kind accepts.
 */
export function decodeTypedBody(bytes: Uint8Array, contentType: string, opts: TypedBodyOptions): DecodedBody {
  const scheme = opts.scheme ?? builtinProtobufScheme();
  const accepted = bodyMediaTypes(opts.into, scheme);
  const mt = parseContentType(contentType === '' ? 'application/json' : contentType);
  if (mt !== undefined && mediaTypeEssence(mt) === PROTOBUF_MEDIA_TYPE && accepted.includes(PROTOBUF_MEDIA_TYPE)) {
    const decodeOpts = { into: opts.into, scheme, ...(opts.kind === undefined ? {} : { kind: opts.kind }) };
    return { value: decodeProtobufObject(bytes, decodeOpts), duplicateFields: [] };
  }
  // Kinds with protobuf descriptors are the typed ones; others (custom resources) decode as unstructured.
  const unstructured = opts.unstructured ?? !scheme.supports(opts.into);
  return decodeBody(bytes, contentType, { ...opts, acceptedMediaTypes: accepted, unstructured, defaultAPIVersion: opts.defaultAPIVersion ?? opts.into.apiVersion });
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
