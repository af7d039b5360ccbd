import { newBadRequest, newUnsupportedMediaType } from '../../errors/index.js';
import { DECODABLE_MEDIA_TYPES, summarizeData } from '../decode.js';
import { builtinProtobufScheme } from './builtin.js';
import { readEnvelope, type Unknown } from './envelope.js';
import { decodeMessage } from './message.js';
import type { ProtobufScheme, TypeMetaRef } from './scheme.js';
import { ProtobufDecodeError } from './wire.js';

export interface ProtobufDecodeOptions {
  /** The kind the body is decoded into; it defaults the envelope's apiVersion and kind (copyKindDefaults). */
  readonly into: TypeMetaRef;
  /**
   * Set for create/update bodies: errors then carry kube's wording for that
   * path (`Namespace in version "v1" cannot be handled as a Namespace: …`,
   * or `the object provided is unrecognized (must be of type Namespace): …`
   * when the envelope itself is bad). Without it errors are the bare decoder
   * messages, as decodeBody's are.
   */
  readonly kind?: string;
  /** Default: the descriptors generated from apis/. */
  readonly scheme?: ProtobufScheme;
}

/**
 * Decodes a protobuf body (`k8s\0` + runtime.Unknown) into the JSON object
 * the request pipeline works on, apiVersion and kind included. Never
 * mutates `bytes`. Throws a StatusError: 415 when `into` has no protobuf
 * descriptors (listing JSON and YAML), 400 BadRequest for malformed bytes,
 * an envelope naming a kind without descriptors, or values Go could not
 * write as JSON.
 */
export function decodeProtobufObject(bytes: Uint8Array, opts: ProtobufDecodeOptions): Record<string, unknown> {
  const scheme = opts.scheme ?? builtinProtobufScheme();
  if (!scheme.supports(opts.into)) throw newUnsupportedMediaType(DECODABLE_MEDIA_TYPES);
  let envelope: Unknown;
  try {
    envelope = readEnvelope(bytes);
  } catch (err) {
    if (!(err instanceof ProtobufDecodeError)) throw err;
    throw newBadRequest(opts.kind === undefined ? err.message : `the object provided is unrecognized (must be of type ${opts.kind}): ${err.message} (${summarizeData(bytes, 30)})`);
  }
  const actual = copyKindDefaults(envelope, opts.into);
  try {
    const message = scheme.forKind(actual);
    if (message === undefined) throw new ProtobufDecodeError(`no kind ${JSON.stringify(actual.kind)} is registered for version ${JSON.stringify(actual.apiVersion)}`);
    return { kind: actual.kind, apiVersion: actual.apiVersion, ...decodeMessage(envelope.raw, message) };
  } catch (err) {
    if (!(err instanceof ProtobufDecodeError)) throw err;
    const version = actual.apiVersion.slice(actual.apiVersion.indexOf('/') + 1);
    throw newBadRequest(opts.kind === undefined ? err.message : `${actual.kind} in version ${JSON.stringify(version)} cannot be handled as a ${opts.kind}: ${err.message}`);
  }
}

/**
 * The envelope's kind and group version, each taken from `into` when empty
 * (a malformed apiVersion counts as empty, as schema.FromAPIVersionAndKind
 * makes it).
 */
function copyKindDefaults(envelope: Unknown, into: TypeMetaRef): TypeMetaRef {
  const parts = envelope.apiVersion.split('/');
  const version = parts.length === 1 ? parts[0]! : parts.length === 2 ? parts[1]! : '';
  return {
    kind: envelope.kind === '' ? into.kind : envelope.kind,
    apiVersion: version === '' ? into.apiVersion : envelope.apiVersion,
  };
}
