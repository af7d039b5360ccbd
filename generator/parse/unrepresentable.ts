import type { Node } from 'ts-morph';

/** The declaration whose type is being translated: what errors name and point at. */
export interface TypeContext {
  /** `property spec`, `type Foo`, `kind Widget`. */
  readonly target: string;
  /** The declaration errors point at. */
  readonly at: Node;
  /** `@preserveUnknownFields` was given: parts with no schema keep any value, unvalidated. */
  readonly optIn: boolean;
  /** `@intOrString` was given: `number | string` is intstr.IntOrString. */
  readonly intOrString: boolean;
  /** The value may be absent (an optional property), so `| undefined` adds nothing. */
  readonly optional: boolean;
}

const OPT_IN =
  'or, to keep any value unvalidated, mark the declaration @preserveUnknownFields ' + '(+kubebuilder:pruning:PreserveUnknownFields) or a field @schemaless (+kubebuilder:validation:Schemaless)';

/**
 * The messages for TypeScript types that have no structural schema. Each says
 * why kube cannot represent the type and what to write instead, as
 * controller-gen refuses such Go types rather than emitting an empty schema.
 */
export const unrepresentable = {
  opaque(ctx: TypeContext, text: string): string {
    return (
      `${ctx.target}: type "${text}" has no schema, so the field would be stored unvalidated and never pruned: ` +
      `declare its shape as an interface, use RawExtension (any object) from apis/meta/v1, ${OPT_IN}`
    );
  },

  undefinedMember(ctx: TypeContext, text: string): string {
    return `${ctx.target}: "${text}" allows undefined where a value is required (JSON has no undefined): ` + 'make the property optional (name?: T) or nullable (T | null)';
  },

  numberOrString(ctx: TypeContext, text: string): string {
    return `${ctx.target}: "${text}" is an int-or-string only for integers: use IntOrString from apis/meta/v1 ` + '(x-kubernetes-int-or-string, intstr.IntOrString) or mark it @intOrString';
  },

  union(ctx: TypeContext, text: string, members: readonly ('object' | 'scalar')[]): string {
    const objects = members.filter((m) => m === 'object').length;
    const why =
      objects > 1
        ? 'a union of object types has no structural schema (a CRD schema cannot use oneOf/anyOf to choose between shapes): ' +
          'declare one object with an optional field per alternative (a discriminated union, +unionDiscriminator/+unionMember), '
        : 'a field of a structural schema has exactly one type: split it into one field per type, ' + 'use a string-literal union (an enum) or IntOrString from apis/meta/v1, ';
    return `${ctx.target}: "${text}" has no structural schema: ${why}${OPT_IN}`;
  },
} as const;
