import type { OpenAPIComponentsDocument } from '../definition/resource.js';
import { hasField, isJSONObject, jsonTypeName } from '../serializer/jsonvalue.js';
import { parseRFC3339Error } from '../util/gotime.js';
import { goStdBase64Error } from '../serializer/gobase64.js';

/**
 * The JSON-type half of kube's typed decoding of a generated kind: a decoded body whose value at a
 * typed field has another JSON type (a string where a struct goes) cannot be decoded into the Go
 * struct, which kube reports before any defaulting or validation. `typeMismatch` finds the first
 * such value in document order, as Go's decoder reports the first one, described by the kind's
 * OpenAPI definitions (named structs are `$ref`s; their Go type is `<package>.<Name>`, the package
 * being the segment before the name: `io.k8s.api.core.v1.ServiceSpec` → `v1.ServiceSpec`).
 * Values of types with their own decoders (IntOrString, Quantity, MicroTime, RawExtension: no
 * properties, or int-or-string) are left to validation; null decodes into anything, as in Go. A
 * metav1.Time (a date-time string) is decoded by its UnmarshalJSON: a value that is not a string is
 * Go's type error for a string, a string that time.Parse(RFC3339) refuses is its parse error
 * (`timeError`), and either ends the decode, so it is the one reported even after a type mismatch.
 */
export interface TypeMismatch {
  /** What the body holds: `string`, `number`, `number 1.5`, `bool`, `array`, `object`. */
  readonly value: string;
  /** The Go type of the field: `v1.ServiceSpec`, `[]v1.ServicePort`, `map[string]string`, `int32`. */
  readonly goType: string;
  /** The name (without package) of the innermost struct whose field holds it, Go's errorContext.Struct. */
  readonly struct: string;
  /** The JSON field names from the root, without array indexes or map keys (Go's FieldStack). */
  readonly fieldStack: readonly string[];
  /** The value's kind as the unstructured converter names it (`string`, `slice`, `map`, `int64`, `float64`, `bool`). */
  readonly unstructuredKind: string;
  /** What the Go type is: a struct, a slice, a map or a scalar (for the unstructured converter's message). */
  readonly goKind: 'struct' | 'slice' | 'map' | 'scalar';
  /** time.Parse's error for a metav1.Time's string, which Go reports as it is (no field context). */
  readonly timeError?: string;
  /** base64's error for a []byte field's string, which Go's decoder saves as it is (no field context). */
  readonly base64Error?: string;
}

/**
 * How Go's decoder names the type of a field where its schema cannot tell: a named type (Go's
 * `type ServiceType string` is printed `v1.ServiceType` where the schema only says string), or
 * a list or map of one (`items`, `values`: `[]v1.IPFamily`, `map[string]v1.ExtraValue`). `name`
 * absent: the unnamed list or map of its `items` or `values`.
 */
export interface GoTypeName {
  readonly name?: string;
  readonly items?: GoTypeName;
  readonly values?: GoTypeName;
}

/** The Go type names of a document's fields, by definition id and JSON field name (generated with the group: apis/ declares them). */
export type GoTypeNames = Readonly<Record<string, Readonly<Record<string, GoTypeName | undefined>> | undefined>>;

/**
 * The date-time fields of built-in kinds that are metav1.MicroTime (RFC3339Micro: another
 * layout), as `<struct>.<field>` (k8s.io/api v0.32 core/v1, events/v1, coordination/v1).
 */
const MICRO_TIME_FIELDS: ReadonlySet<string> = new Set(['Event.eventTime', 'EventSeries.lastObservedTime', 'LeaseSpec.acquireTime', 'LeaseSpec.renewTime']);

type Node = Readonly<Record<string, unknown>>;

/** Go's `json: cannot unmarshal string into Go struct field Service.spec of type v1.ServiceSpec`. */
export function jsonUnmarshalMessage(m: TypeMismatch): string {
  if (m.timeError !== undefined) return m.timeError;
  if (m.base64Error !== undefined) return m.base64Error;
  const at = m.fieldStack.length === 0 ? `Go value of type ${m.goType}` : `Go struct field ${m.struct}.${m.fieldStack.join('.')} of type ${m.goType}`;
  return `json: cannot unmarshal ${m.value} into ${at}`;
}

/** runtime.DefaultUnstructuredConverter.FromUnstructured's error for the mismatch (strategic merge patches). */
export function unstructuredConverterMessage(m: TypeMismatch): string {
  if (m.timeError !== undefined) return m.timeError;
  // The converter re-decodes the string through encoding/json (sliceFromUnstructured).
  if (m.base64Error !== undefined) return `error decoding from json: ${m.base64Error}`;
  switch (m.goKind) {
    case 'struct':
      return `cannot restore struct from: ${m.unstructuredKind}`;
    case 'slice':
      return `cannot restore slice from ${m.unstructuredKind}`;
    case 'map':
      return `cannot restore map from ${m.unstructuredKind}`;
    default:
      return `cannot convert ${m.unstructuredKind} to ${m.goType}`;
  }
}

/** How Go prints the type of an OpenAPI definition: its package and name (`io.k8s.api.core.v1.ServiceSpec` → `v1.ServiceSpec`). */
export function goTypeName(id: string): string {
  const parts = id.split('.');
  return parts.length < 2 ? id : `${parts[parts.length - 2] ?? ''}.${parts[parts.length - 1] ?? ''}`;
}

/** What Go decodes a value into, as typeMismatch reads it from a schema. */
type Shape =
  | { kind: 'struct'; goType: string; id: string; name: string; props: Node }
  | { kind: 'slice'; goType: string; items: Shape }
  | { kind: 'map'; goType: string; values: Shape }
  | { kind: 'scalar'; goType: string; json: 'string' | 'integer' | 'number' | 'boolean'; bits?: number }
  | { kind: 'time'; goType: 'string' }
  | { kind: 'bytes'; goType: '[]uint8' }
  | { kind: 'any' };

/** `shape` under the Go names the group declared for it. */
function named(shape: Shape, n: GoTypeName | undefined): Shape {
  if (n === undefined) return shape;
  switch (shape.kind) {
    case 'slice': {
      const items = named(shape.items, n.items);
      return items.kind === 'any' ? shape : { ...shape, items, goType: n.name ?? `[]${items.goType}` };
    }
    case 'map': {
      const values = named(shape.values, n.values);
      return values.kind === 'any' ? shape : { ...shape, values, goType: n.name ?? `map[string]${values.goType}` };
    }
    case 'scalar':
      return n.name === undefined ? shape : { ...shape, goType: n.name };
    default:
      return shape;
  }
}

/**
 * The first value of `obj` whose JSON type the definition `root` of `doc` cannot decode, or
 * undefined. `goTypes` names the fields whose Go types are named types.
 */
export function typeMismatch(doc: OpenAPIComponentsDocument, root: string, obj: unknown, goTypes: GoTypeNames = {}): TypeMismatch | undefined {
  const schemas = doc.components.schemas;
  const definition = (id: string): Node | undefined => {
    const d = hasField(schemas, id) ? schemas[id] : undefined;
    return isJSONObject(d) ? d : undefined;
  };
  /** The definition id a property schema refers to ($ref, or allOf of one $ref, as openapi-gen writes them). */
  const refOf = (s: Node): string | undefined => {
    const direct = s['$ref'];
    if (typeof direct === 'string') return direct.slice(direct.lastIndexOf('/') + 1);
    const allOf = s['allOf'];
    return Array.isArray(allOf) && allOf.length === 1 && isJSONObject(allOf[0]) ? refOf(allOf[0]) : undefined;
  };
  /** The shape of field `field` of a struct (a date-time string is a metav1.Time unless it is a MicroTime). */
  const fieldShape = (s: Node, struct: { id: string; name: string }, field: string, depth: number): Shape => {
    if (s['type'] === 'string' && s['format'] === 'date-time' && !MICRO_TIME_FIELDS.has(`${struct.name}.${field}`)) return { kind: 'time', goType: 'string' };
    const fields = hasField(goTypes, struct.id) ? goTypes[struct.id] : undefined;
    return named(shapeOf(s, depth), fields !== undefined && hasField(fields, field) ? fields[field] : undefined);
  };
  const shapeOf = (s: Node, depth: number): Shape => {
    if (depth > 64 || s['x-kubernetes-int-or-string'] === true) return { kind: 'any' };
    const ref = refOf(s);
    if (ref !== undefined) {
      const d = definition(ref);
      const props = d?.['properties'];
      if (d === undefined || !isJSONObject(props) || d['type'] !== 'object') return { kind: 'any' };
      const name = ref.slice(ref.lastIndexOf('.') + 1);
      return { kind: 'struct', goType: goTypeName(ref), id: ref, name, props };
    }
    switch (s['type']) {
      case 'array': {
        const items = isJSONObject(s['items']) ? shapeOf(s['items'], depth + 1) : ({ kind: 'any' } as const);
        return items.kind === 'any' ? { kind: 'any' } : { kind: 'slice', goType: `[]${items.goType}`, items };
      }
      case 'object': {
        const values = isJSONObject(s['additionalProperties']) ? shapeOf(s['additionalProperties'], depth + 1) : ({ kind: 'any' } as const);
        return values.kind === 'any' ? { kind: 'any' } : { kind: 'map', goType: `map[string]${values.goType}`, values };
      }
      case 'string':
        if (s['format'] === 'byte') return { kind: 'bytes', goType: '[]uint8' };
        return s['format'] === undefined || s['format'] === '' ? { kind: 'scalar', goType: 'string', json: 'string' } : { kind: 'any' };
      case 'boolean':
        return { kind: 'scalar', goType: 'bool', json: 'boolean' };
      case 'integer':
        return s['format'] === 'int32' ? { kind: 'scalar', goType: 'int32', json: 'integer', bits: 32 } : { kind: 'scalar', goType: 'int64', json: 'integer', bits: 64 };
      case 'number':
        return { kind: 'scalar', goType: s['format'] === 'float' ? 'float32' : 'float64', json: 'number' };
      default:
        return { kind: 'any' };
    }
  };
  const unstructuredKind = (v: unknown): string => {
    if (typeof v === 'string') return 'string';
    if (typeof v === 'boolean') return 'bool';
    if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
    return Array.isArray(v) ? 'slice' : 'map';
  };

  // Go's decoder goes on after a type mismatch (the first is the one it returns) and stops at a
  // metav1.Time's error: walk returns only the latter, `first` keeps the former.
  let first: TypeMismatch | undefined;
  const walk = (v: unknown, shape: Shape, struct: string, stack: readonly string[], depth: number): TypeMismatch | undefined => {
    if (v === null || shape.kind === 'any') return undefined;
    const mismatch = (value: string): undefined => {
      first ??= { value, goType: shape.goType, struct, fieldStack: stack, unstructuredKind: unstructuredKind(v), goKind: shape.kind === 'time' || shape.kind === 'bytes' ? 'scalar' : shape.kind };
      return undefined;
    };
    switch (shape.kind) {
      case 'time': {
        const base = { goType: 'string', struct, fieldStack: stack, unstructuredKind: unstructuredKind(v), goKind: 'scalar' } as const;
        if (typeof v !== 'string') return { ...base, value: typeof v === 'number' ? 'number' : jsonTypeName(v) };
        const timeError = parseRFC3339Error(v);
        return timeError === undefined ? undefined : { ...base, value: 'string', timeError };
      }
      case 'bytes': {
        if (typeof v !== 'string') return mismatch(typeof v === 'number' ? 'number' : jsonTypeName(v));
        const base64Error = goStdBase64Error(v);
        if (base64Error !== undefined) first ??= { value: 'string', goType: shape.goType, struct, fieldStack: stack, unstructuredKind: 'string', goKind: 'scalar', base64Error };
        return undefined;
      }
      case 'struct': {
        if (!isJSONObject(v)) return mismatch(jsonTypeName(v));
        for (const [k, child] of Object.entries(v)) {
          const p = hasField(shape.props, k) ? shape.props[k] : undefined;
          if (!isJSONObject(p)) continue; // unknown fields are dropped, not decoded
          const found = walk(child, fieldShape(p, shape, k, depth + 1), shape.name, [...stack, k], depth + 1);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      case 'slice': {
        if (!Array.isArray(v)) return mismatch(jsonTypeName(v));
        for (const item of v) {
          const found = walk(item, shape.items, struct, stack, depth + 1);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      case 'map': {
        if (!isJSONObject(v)) return mismatch(jsonTypeName(v));
        for (const item of Object.values(v)) {
          const found = walk(item, shape.values, struct, stack, depth + 1);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      case 'scalar': {
        const json = typeof v === 'number' ? 'number' : jsonTypeName(v);
        if (shape.json === 'string') return typeof v === 'string' ? undefined : mismatch(json);
        if (shape.json === 'boolean') return typeof v === 'boolean' ? undefined : mismatch(json);
        if (typeof v !== 'number') return mismatch(json);
        if (shape.json === 'number') return undefined;
        const limit = 2 ** ((shape.bits ?? 64) - 1);
        return Number.isInteger(v) && v >= -limit && v < limit ? undefined : mismatch(`number ${String(v)}`);
      }
    }
  };
  const top = definition(root);
  const props = top?.['properties'];
  if (top === undefined || !isJSONObject(props)) return undefined;
  const name = root.slice(root.lastIndexOf('.') + 1);
  return walk(obj, { kind: 'struct', goType: goTypeName(root), id: root, name, props }, name, [], 0) ?? first;
}
