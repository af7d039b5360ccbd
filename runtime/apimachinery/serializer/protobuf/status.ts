import type { ProtobufPackage } from './descriptor.js';
import { decodeProtobufObject } from './decode.js';
import { encodeProtobufObject } from './encode.js';
import { ProtobufScheme } from './scheme.js';

/**
 * metav1.Status in protobuf, as an error is written for a client that asked for
 * application/vnd.kubernetes.protobuf (responsewriters.ErrorNegotiated): the messages of
 * apimachinery's meta/v1 generated.proto (Status, StatusDetails, StatusCause and the ListMeta
 * they hold). apis/meta/v1/status.ts has no `@protobuf` numbers, so no generated descriptors;
 * these are for encoding Status only, and are not in the scheme request bodies decode with.
 */
const STATUS_PACKAGE: ProtobufPackage = {
  apiVersion: 'v1',
  messages: [
    {
      name: 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
      fields: [
        { name: 'selfLink', number: 1, type: 'string', omitEmpty: true },
        { name: 'resourceVersion', number: 2, type: 'string', omitEmpty: true },
        { name: 'continue', number: 3, type: 'string', omitEmpty: true },
        { name: 'remainingItemCount', number: 4, type: 'int64', omitEmpty: true, pointer: true },
      ],
    },
    {
      name: 'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
      kind: 'Status',
      fields: [
        { name: 'metadata', number: 1, type: 'message', message: 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', omitEmpty: true },
        { name: 'status', number: 2, type: 'string', omitEmpty: true },
        { name: 'message', number: 3, type: 'string', omitEmpty: true },
        { name: 'reason', number: 4, type: 'string', omitEmpty: true },
        { name: 'details', number: 5, type: 'message', message: 'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails', omitEmpty: true, pointer: true },
        { name: 'code', number: 6, type: 'int32', omitEmpty: true },
      ],
    },
    {
      // Field numbers ascending, as gogo writes them (uid is 6, after retryAfterSeconds).
      name: 'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails',
      fields: [
        { name: 'name', number: 1, type: 'string', omitEmpty: true },
        { name: 'group', number: 2, type: 'string', omitEmpty: true },
        { name: 'kind', number: 3, type: 'string', omitEmpty: true },
        { name: 'causes', number: 4, type: 'message', message: 'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause', cardinality: 'repeated', omitEmpty: true },
        { name: 'retryAfterSeconds', number: 5, type: 'int32', omitEmpty: true },
        { name: 'uid', number: 6, type: 'string', omitEmpty: true },
      ],
    },
    {
      name: 'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause',
      fields: [
        { name: 'reason', number: 1, type: 'string', omitEmpty: true },
        { name: 'message', number: 2, type: 'string', omitEmpty: true },
        { name: 'field', number: 3, type: 'string', omitEmpty: true },
      ],
    },
  ],
};

let scheme: ProtobufScheme | undefined;

/**
 * The protobuf serializer's bytes for a Status: `k8s\0` and runtime.Unknown{typeMeta{v1, Status},
 * raw, "", ""}. Fields the Status leaves out are Go's zero values (metadata is always written,
 * details only when present).
 */
export function encodeStatusProtobuf(status: Readonly<Record<string, unknown>>): Uint8Array {
  scheme ??= new ProtobufScheme([STATUS_PACKAGE]);
  return encodeProtobufObject({ ...status, apiVersion: 'v1', kind: 'Status' }, scheme);
}

/** A protobuf Status (an error answer to an Accept that prefers protobuf) as the JSON its Go value encodes to. */
export function decodeStatusProtobuf(bytes: Uint8Array): Record<string, unknown> {
  scheme ??= new ProtobufScheme([STATUS_PACKAGE]);
  return decodeProtobufObject(bytes, { into: { apiVersion: 'v1', kind: 'Status' }, kind: 'Status', scheme });
}
