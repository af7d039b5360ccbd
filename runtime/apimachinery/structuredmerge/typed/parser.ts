/**
 * Schemas and values from YAML (typed/parser.go): a Parser holds a schema
 * validated against SMD's schema of schemas; its types parse YAML or decoded
 * objects into TypedValues. The deduced types describe objects without a
 * schema: maps merge key by key, anything else is atomic.
 */
import type { SchemaDocument, TypeRef } from '../schema/index.js';
import { SCHEMA_SCHEMA_YAML, Schema } from '../schema/index.js';
import { decodeYAML } from '../../serializer/yaml.js';
import type { Value } from '../value/index.js';
import { TypedValue } from './typed.js';
import type { ValidationOptions } from './validate.js';

/** A type of a schema that values can be parsed as. Errors of an unknown type surface when it is used. */
export class ParseableType {
  constructor(
    readonly schema: Schema,
    readonly typeRef: TypeRef,
  ) {}

  /** Whether the type resolves in its schema. */
  isValid(): boolean {
    return this.schema.resolve(this.typeRef) !== undefined;
  }

  /** A YAML (or JSON) document as this type; throws on bad YAML and ValidationErrors on a value that does not conform. */
  fromYAML(object: string, opts?: ValidationOptions): TypedValue {
    return TypedValue.asTyped(decodeYAML(object).value, this.schema, this.typeRef, opts);
  }

  /** A decoded object as this type; throws ValidationErrors when it does not conform. */
  fromUnstructured(v: Value, opts?: ValidationOptions): TypedValue {
    return TypedValue.asTyped(v, this.schema, this.typeRef, opts);
  }
}

export class Parser {
  readonly schema: Schema;

  constructor(schema: Schema | SchemaDocument) {
    this.schema = schema instanceof Schema ? schema : new Schema(schema);
  }

  /**
   * A parser of a schema in SMD's YAML form, validated first (NewParser):
   * throws `unable to validate schema: …` for a document that is not a schema.
   */
  static fromYAML(schemaYAML: string): Parser {
    try {
      schemaSchemaParser.type('schema').fromYAML(schemaYAML);
    } catch (err) {
      throw new Error(`unable to validate schema: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    return unvalidated(schemaYAML);
  }

  /** The names of the schema's types, in order. */
  typeNames(): string[] {
    return this.schema.types.map((t) => t.name);
  }

  /** The named type `name`; an unknown name fails only when the type is used. */
  type(name: string): ParseableType {
    return new ParseableType(this.schema, { namedType: name });
  }
}

/** A parser of a schema known to be valid (SMD's create). */
function unvalidated(schemaYAML: string): Parser {
  const doc = decodeYAML(schemaYAML).value;
  return new Parser((doc ?? {}) as SchemaDocument);
}

const schemaSchemaParser = unvalidated(SCHEMA_SCHEMA_YAML);

/**
 * The deduced types: `__untyped_atomic_` (any value, replaced whole) and
 * `__untyped_deduced_` (a map merges key by key, each value deduced again;
 * lists and scalars are atomic).
 */
export const DEDUCED_SCHEMA_YAML = `types:
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
    elementRelationship: separable
`;

/** The type of objects that have no schema: deduced from their content. */
export const deducedParseableType: ParseableType = unvalidated(DEDUCED_SCHEMA_YAML).type('__untyped_deduced_');
