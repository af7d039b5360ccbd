import { builtinProtobufScheme } from './builtin.js';
import { decodeProtobufObject } from './decode.js';
import { encodeProtobufObject } from './encode.js';

/**
 * The protobuf serializer's bytes for a Status: `k8s\0` and runtime.Unknown{typeMeta{v1, Status},
 * raw, "", ""}. Fields the Status leaves out are Go's zero values (metadata is always written,
 * details only when present).
 */
export function encodeStatusProtobuf(status: Readonly<Record<string, unknown>>): Uint8Array {
  return encodeProtobufObject({ ...status, apiVersion: 'v1', kind: 'Status' }, builtinProtobufScheme());
}

/** A protobuf Status (an error answer to an Accept that prefers protobuf) as the JSON its Go value encodes to. */
export function decodeStatusProtobuf(bytes: Uint8Array): Record<string, unknown> {
  return decodeProtobufObject(bytes, { into: { apiVersion: 'v1', kind: 'Status' }, kind: 'Status', scheme: builtinProtobufScheme() });
}
