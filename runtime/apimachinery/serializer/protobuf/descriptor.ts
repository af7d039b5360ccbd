/**
 * Protobuf message descriptors as generated/protobuf/<group>/<version>.ts
 * declares them (emitted from the `@protobuf` field numbers in apis/). Plain
 * data: the field numbers of Go's generated.proto plus what Go's struct tags
 * say about JSON, which the decoder needs to write the JSON that Go's
 * encoding/json writes for the same Go value.
 */

/** Scalars as Kubernetes uses them; Go string enums are `string`. */
export type ScalarType = 'string' | 'bool' | 'int32' | 'int64' | 'bytes';

/**
 * Types whose message is fixed by Go's hand-written implementation:
 * Time/MicroTime {seconds=1, nanos=2}, IntOrString {type=1, intVal=2,
 * strVal=3}, Quantity {string=1}, RawExtension and FieldsV1 {raw=1}.
 */
export type WellKnownType = 'Time' | 'MicroTime' | 'IntOrString' | 'Quantity' | 'RawExtension' | 'FieldsV1';

export type FieldType = ScalarType | WellKnownType | 'message';

export interface FieldDescriptor {
  /** JSON name. */
  readonly name: string;
  readonly number: number;
  /** Type of the value, of each element (repeated) or of each map value. */
  readonly type: FieldType;
  /** Name of the message when `type` is `message`. */
  readonly message?: string;
  /** Absent for a single value; `map` fields are repeated {key=1, value=2} entries with string keys. */
  readonly cardinality?: 'repeated' | 'map';
  /** The Go field is a pointer: absent stays absent, a zero value that was sent is kept. */
  readonly pointer?: true;
  /** The Go json tag has omitempty: zero scalars and empty lists and maps are left out. */
  readonly omitEmpty?: true;
  /** The Go json tag has omitzero: zero structs (a zero Time) are left out too. */
  readonly omitZero?: true;
}

export interface MessageDescriptor {
  /** The OpenAPI definition name of the type (`io.k8s.api.core.v1.Namespace`). */
  readonly name: string;
  /** Set for types that inline TypeMeta: the kind a protobuf envelope names. */
  readonly kind?: string;
  /**
   * A Go named slice (`type ExtraValue []string`): on the wire a message whose one field is
   * `repeated items = 1`, in JSON the plain array of its items.
   */
  readonly namedList?: true;
  /** Sorted by number. */
  readonly fields: readonly FieldDescriptor[];
}

/** The messages of one group version. */
export interface ProtobufPackage {
  /** `group/version`, `v1` for the core group. */
  readonly apiVersion: string;
  readonly messages: readonly MessageDescriptor[];
}
