/**
 * Scalar aliases for Go types whose JSON form is not a plain string, number
 * or object. The generator recognizes them by name; use them wherever the Go
 * field has that type so schemas and clients agree with Kubernetes.
 *
 * On the protobuf wire (fields numbered with `@protobuf`) they are what Go
 * writes: int32 and int64 varints, Bytes bytes, Time and MicroTime the
 * Timestamp message {seconds=1, nanos=2} (Time keeps seconds only, a zero
 * time is an empty message), IntOrString {type=1, intVal=2, strVal=3},
 * Quantity {string=1}, RawExtension {raw=1} holding JSON. Duration has no
 * protobuf decoder yet.
 */

/**
 * A 32-bit signed integer; on the wire a JSON integer (OpenAPI integer, format int32).
 *
 * @type integer
 * @format int32
 */
export type int32 = number;

/**
 * A 64-bit signed integer; on the wire a JSON integer (OpenAPI integer, format int64).
 *
 * @type integer
 * @format int64
 */
export type int64 = number;

/**
 * A point in time (Go metav1.Time): an RFC 3339 string in UTC with second precision, e.g. `2024-05-01T10:00:00Z`.
 *
 * @format date-time
 */
export type Time = string;

/**
 * A point in time with microsecond precision (Go metav1.MicroTime): an RFC 3339 string such as `2024-05-01T10:00:00.000001Z`.
 *
 * @format date-time
 */
export type MicroTime = string;

/** A duration (Go metav1.Duration): a string in Go's time.Duration syntax, e.g. `1h30m` or `250ms`. */
export type Duration = string;

/**
 * A value that is either an integer or a string (Go intstr.IntOrString), such as a port number or a port name.
 *
 * @intOrString
 */
export type IntOrString = number | string;

/**
 * A fixed-point amount (Go resource.Quantity), such as `500m` or `2Gi`; sent as a string, accepted as a number too.
 *
 * @intOrString
 * @pattern ^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$
 */
export type Quantity = string | number;

/**
 * An embedded object of any kind (Go runtime.RawExtension): a JSON object kept as sent, usually carrying its own apiVersion and kind.
 *
 * @preserveUnknownFields
 */
export type RawExtension = object;

/**
 * Binary data (Go []byte): a base64-encoded string (OpenAPI string, format byte).
 *
 * @format byte
 */
export type Bytes = string;
