/**
 * A value with its type (typed/typed.go): the unit the merge core works on.
 * Every operation leaves its inputs as they are and answers new values; a
 * value nested deeper than the call stack can follow fails with a
 * ValidationErrors instead of crashing.
 */
import { Set as FieldSet } from '../fieldpath/index.js';
import type { Path, PathElement } from '../fieldpath/index.js';
import type { Schema, TypeRef } from '../schema/index.js';
import { typeRefEquals, typeRefName } from '../schema/index.js';
import type { Value } from '../value/index.js';
import { type Comparison, compareValuesTyped } from './compare.js';
import { depthGuarded, errorf, throwIfAny, ValidationErrors } from './errors.js';
import { mergeValues } from './merge.js';
import { removeItemsWithSchema } from './remove.js';
import { toFieldSet } from './tofieldset.js';
import type { ValidationOptions } from './validate.js';
import { validateValue } from './validate.js';

export interface ExtractItemsOptions {
  /** Also extract the key fields of every listed associative list item (WithAppendKeyFields). */
  readonly appendKeyFields?: boolean;
}

export class TypedValue {
  private constructor(
    readonly value: Value,
    readonly schema: Schema,
    readonly typeRef: TypeRef,
  ) {}

  /** `v` as type `tr` of `schema`; throws ValidationErrors when it does not conform (AsTyped). */
  static asTyped(v: Value, schema: Schema, tr: TypeRef, opts?: ValidationOptions): TypedValue {
    const tv = new TypedValue(v, schema, tr);
    tv.validate(opts);
    return tv;
  }

  /** `v` as type `tr`, not validated: for values validated before, or operations that validate anyway. */
  static asTypedUnvalidated(v: Value, schema: Schema, tr: TypeRef): TypedValue {
    return new TypedValue(v, schema, tr);
  }

  /** Throws ValidationErrors listing every violation of the type. */
  validate(opts?: ValidationOptions): void {
    throwIfAny(depthGuarded(() => validateValue(this.schema, this.typeRef, this.value, opts)));
  }

  /** Every leaf field and item the value mentions; throws ValidationErrors on a value that does not conform. */
  toFieldSet(): FieldSet {
    const r = depthGuarded(() => toFieldSet(this.schema, this.typeRef, this.value));
    throwIfAny(r.errors);
    return r.set;
  }

  /**
   * This value with the partially specified object `pso` merged in: `pso`
   * wins at every leaf it sets, nothing is removed. Both must have the same
   * schema and type.
   */
  merge(pso: TypedValue): TypedValue {
    this.checkSameType(pso);
    const r = depthGuarded(() => mergeValues(this.schema, this.typeRef, this.value, pso.value));
    throwIfAny(r.errors);
    return new TypedValue(r.value, this.schema, this.typeRef);
  }

  /** What `rhs` removed, modified and added relative to this value. Both must have the same schema and type. */
  compare(rhs: TypedValue): Comparison {
    this.checkSameType(rhs);
    const r = depthGuarded(() => compareValuesTyped(this.schema, this.typeRef, this.value, rhs.value));
    throwIfAny(r.errors);
    return r.comparison;
  }

  /** This value without the fields and items of `items`. */
  removeItems(items: FieldSet): TypedValue {
    return this.withValue(depthGuarded(() => removeItemsWithSchema(this.schema, this.typeRef, this.value, items, false)));
  }

  /** This value with only the fields and items of `items` (and, with appendKeyFields, the key fields of listed items). */
  extractItems(items: FieldSet, opts: ExtractItemsOptions = {}): TypedValue {
    let wanted = items;
    if (opts.appendKeyFields === true) {
      const r = depthGuarded(() => toFieldSet(this.schema, this.typeRef, this.value));
      if (r.errors.length === 0) wanted = items.union(keyFieldPaths(items, r.set));
    }
    return this.withValue(depthGuarded(() => removeItemsWithSchema(this.schema, this.typeRef, this.value, wanted, true)));
  }

  /** The same type with a null value. */
  empty(): TypedValue {
    return this.withValue(null);
  }

  private withValue(v: Value): TypedValue {
    return new TypedValue(v, this.schema, this.typeRef);
  }

  private checkSameType(other: TypedValue): void {
    if (this.schema !== other.schema) throw new ValidationErrors(errorf('expected objects with types from the same schema'));
    if (!typeRefEquals(this.typeRef, other.typeRef)) {
      throw new ValidationErrors(errorf(`expected objects of the same type, but got ${typeRefName(this.typeRef)} and ${typeRefName(other.typeRef)}`));
    }
  }
}

/** The key fields (`path-to-item.keyName`) of every associative list item that `items` lists and the value has. */
function keyFieldPaths(items: FieldSet, present: FieldSet): FieldSet {
  const keys = new FieldSet();
  items.iterate((path: Path) => {
    if (!present.has(path)) return;
    path.forEach((pe: PathElement, i: number) => {
      if (!('key' in pe)) return;
      for (const field of pe.key) keys.insert([...path.slice(0, i + 1), { fieldName: field.name }]);
    });
  });
  return keys;
}
