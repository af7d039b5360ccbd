/**
 * The protobuf wire contract of the types in apis/ that carry `@protobuf`
 * field numbers: what Go's generated.proto files say (field numbers, scalar
 * types, repeated and map fields) plus what Go's struct tags add for JSON
 * (pointer fields, omitempty, omitzero), so a decoder can turn the bytes
 * typed clients send into the JSON that Go's encoding/json would write for
 * the same Go value.
 */

/** Protobuf scalars as Kubernetes uses them; Go string enums are `string`. */
export type ProtoScalar = 'string' | 'bool' | 'int32' | 'int64' | 'bytes';

/**
 * Types of apis/meta/v1/scalars.ts (and FieldsV1) whose protobuf message is
 * fixed by a hand-written Go implementation rather than by their fields:
 * Time and MicroTime are Timestamp {seconds=1, nanos=2}, IntOrString is
 * {type=1, intVal=2, strVal=3}, Quantity is {string=1}, RawExtension and
 * FieldsV1 are {raw=1} holding JSON.
 */
export type ProtoWellKnown = 'Time' | 'MicroTime' | 'IntOrString' | 'Quantity' | 'RawExtension' | 'FieldsV1';

export const PROTO_WELL_KNOWN: readonly ProtoWellKnown[] = ['Time', 'MicroTime', 'IntOrString', 'Quantity', 'RawExtension', 'FieldsV1'];

/** The type of a field's value (of each element for repeated fields, of each value for maps). */
export type ProtoFieldType =
  | { readonly kind: 'scalar'; readonly scalar: ProtoScalar }
  | { readonly kind: 'wellKnown'; readonly name: ProtoWellKnown }
  /** Another message, by its definition name (`io.k8s.api.core.v1.ServiceSpec`). */
  | { readonly kind: 'message'; readonly name: string };

export interface ProtoField {
  /** The JSON name (the TypeScript property). */
  readonly name: string;
  readonly number: number;
  /** `map`: a `Record<string, V>`, on the wire repeated {key=1, value=2} entries. */
  readonly cardinality: 'single' | 'repeated' | 'map';
  readonly type: ProtoFieldType;
  /** The Go field is a pointer: absent stays absent, a zero value that was sent is kept. */
  readonly pointer: boolean;
  /** The Go json tag has omitempty (the property is optional): zero scalars, empty lists and maps are left out. */
  readonly omitEmpty: boolean;
  /** The Go json tag has omitzero: a zero struct (a zero Time) is left out too. */
  readonly omitZero: boolean;
}

export interface ProtoMessage {
  /** The definition name, also the message's name in descriptors. */
  readonly name: string;
  /**
   * Set for types that inline TypeMeta: objects of this kind can be decoded
   * from a protobuf envelope naming it (Namespace, Scale, DeleteOptions).
   */
  readonly kind: string | undefined;
  /**
   * A named list (`export type ExtraValue = string[]`, Go's `type ExtraValue []string`):
   * go-to-protobuf wraps it in a message of one field, `repeated <element> items = 1`, while
   * its JSON stays the plain array. Its only field is then `items`.
   */
  readonly namedList?: boolean;
  /** Sorted by number. */
  readonly fields: readonly ProtoField[];
}
