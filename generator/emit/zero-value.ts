import { setField } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import type { ProtoField, ProtoMessage, ProtoScalar, ProtoWellKnown } from '../model/protobuf.js';
import type { JSONSchemaProps } from '../model/schema.js';
import type { ApiModel, KindModel } from '../model/types.js';

/** ObjectMeta's definition name: its zero value is fixed (see objectMetaZero). */
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * A zero ObjectMeta as kube 1.32's encoding/json writes it: every field is omitempty, and
 * creationTimestamp, a non-pointer metav1.Time, is a struct that omitempty cannot leave out and
 * whose zero marshals as null. (Our ObjectMeta marks it omitzero, newer kube's tag; the reference
 * server's zero objects still carry the null.)
 */
function objectMetaZero(): Record<string, unknown> {
  return { creationTimestamp: null };
}

/**
 * The zero value of each kind (what kube's `scope.Creater.New(kind)` gives, as encoding/json
 * writes it): the live object a create or an apply-create starts from, whose shape decides which
 * parents the field manager records as set (a Service's created `spec` is already there, so its
 * managedFields have no `.` under `f:spec`).
 *
 * Go writes every field without omitempty, and every non-pointer struct even with omitempty:
 * - a struct field is written as its own zero value, recursively, unless it is a pointer or omitzero;
 * - a scalar without omitempty is written as "", 0 or false (bytes as null: a nil []byte);
 * - a list or map without omitempty is written as null (a nil slice or map);
 * - metav1.Time, MicroTime, RawExtension and FieldsV1 are structs whose zero marshals as null,
 *   IntOrString's as 0, Quantity's as "0".
 * Pointer-ness and omitempty come from the type's protobuf markers (`@protobuf N pointer`; the
 * property is optional = omitempty). Types without markers follow kube's API conventions instead:
 * a kind's `spec` and `status` are non-pointer structs, any other optional struct is a pointer,
 * and a required property (no `?`) is a non-pointer without omitempty.
 */
export class ZeroValues {
  private readonly messages = new Map<string, ProtoMessage>();

  constructor(private readonly model: ApiModel) {
    for (const g of model.groups) for (const v of g.versions) for (const m of v.protobuf) this.messages.set(m.name, m);
  }

  /** The zero object of a kind (without apiVersion and kind: TypeMeta is omitempty). */
  of(kind: KindModel): Record<string, unknown> {
    return this.struct(kind.definition, true, [kind.definition]);
  }

  private struct(name: string, root: boolean, trail: readonly string[]): Record<string, unknown> {
    if (name === OBJECT_META) return objectMetaZero();
    const schema = this.definition(name, trail);
    return this.properties(schema, this.messages.get(name), root, trail);
  }

  private properties(schema: JSONSchemaProps, message: ProtoMessage | undefined, root: boolean, trail: readonly string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set(schema.required ?? []);
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      const field = message?.fields.find((f) => f.name === name);
      const zero = field === undefined ? this.conventionalZero(name, prop, required.has(name), root, trail) : this.markedZero(field, trail);
      if (zero !== ABSENT) setField(out, name, zero);
    }
    return out;
  }

  /** A field with protobuf markers: Go's pointer, omitempty and omitzero are known. */
  private markedZero(field: ProtoField, trail: readonly string[]): unknown {
    if (field.pointer) return ABSENT;
    if (field.cardinality !== 'single') return field.omitEmpty ? ABSENT : null;
    const type = field.type;
    if (type.kind === 'message') return field.omitZero ? ABSENT : this.struct(type.name, false, [...trail, type.name]);
    if (type.kind === 'wellKnown') return field.omitZero ? ABSENT : WELL_KNOWN_ZERO[type.name];
    if (field.omitEmpty) return ABSENT;
    return SCALAR_ZERO[type.scalar];
  }

  /** A field without markers: kube's API conventions stand in for Go's struct tags. */
  private conventionalZero(name: string, prop: JSONSchemaProps, required: boolean, root: boolean, trail: readonly string[]): unknown {
    const ref = prop.$ref;
    if (ref !== undefined) {
      const isStruct = required || (root && (name === 'spec' || name === 'status')) || ref === OBJECT_META;
      return isStruct ? this.struct(ref, false, [...trail, ref]) : ABSENT;
    }
    if (!required) return ABSENT;
    if (prop['x-kubernetes-int-or-string'] === true) return 0;
    switch (prop.type) {
      case 'string':
        return prop.format === 'byte' || prop.format === 'date-time' ? null : '';
      case 'boolean':
        return false;
      case 'integer':
      case 'number':
        return 0;
      case 'object':
        return prop.properties === undefined ? null : this.properties(prop, undefined, false, trail);
      default:
        return null;
    }
  }

  private definition(name: string, trail: readonly string[]): JSONSchemaProps {
    if (trail.indexOf(name) !== trail.length - 1) throw new Error(`zero value: ${trail.join(' → ')}: a struct cannot contain itself by value`);
    const schema = Object.hasOwn(this.model.definitions, name) ? this.model.definitions[name] : undefined;
    if (schema === undefined) throw new Error(`zero value: ${trail.join(' → ')}: no definition ${name}`);
    return schema;
  }
}

/** Marks a field Go's encoding/json leaves out of the zero value. */
const ABSENT = Symbol('absent');

const SCALAR_ZERO: Readonly<Record<ProtoScalar, unknown>> = { string: '', bool: false, int32: 0, int64: 0, bytes: null };

const WELL_KNOWN_ZERO: Readonly<Record<ProtoWellKnown, unknown>> = {
  Time: null,
  MicroTime: null,
  RawExtension: null,
  FieldsV1: null,
  IntOrString: 0,
  Quantity: '0',
};
