/**
 * The field set of a value (typed/tofieldset.go): every leaf field and every
 * list or map item it mentions, as managers own them. Atomic lists and maps
 * are one leaf; an empty or null map is a leaf too, so that owning `{}` is
 * owning something; items of an associative list that appear more than once
 * are owned as a whole (their path), never field by field.
 */
import { Set as FieldSet, PathElementSet } from '../fieldpath/index.js';
import type { PathElement } from '../fieldpath/index.js';
import type { List, MapType, Schema, TypeRef } from '../schema/index.js';
import { findField } from '../schema/index.js';
import type { Value } from '../value/index.js';
import type { ValidationError } from './errors.js';
import { pushAll } from './errors.js';
import type { AtomHandler } from './helpers.js';
import { isValueMap, ListItemError, listItemToPathElement, listValue, mapFieldType, mapValue, resolveSchema } from './helpers.js';

class FieldSetWalker implements AtomHandler<Value> {
  readonly set = new FieldSet();
  private readonly path: PathElement[] = [];

  constructor(private readonly schema: Schema) {}

  walk(v: Value, tr: TypeRef): ValidationError[] {
    return resolveSchema(this.schema, tr, v, this, v);
  }

  doScalar(): ValidationError[] {
    this.set.insert(this.path);
    return [];
  }

  doList(t: List, v: Value): ValidationError[] {
    const list = listValue(v);
    if (t.elementRelationship === 'atomic') {
      this.set.insert(this.path);
      return [];
    }
    if (list === undefined || typeof list === 'string') return [];
    return this.visitListItems(t, list);
  }

  private visitListItems(t: List, list: readonly Value[]): ValidationError[] {
    const pes = list.map((child) => listItemToPathElement(this.schema, t, child));
    const seen = new PathElementSet();
    const duplicates = new PathElementSet();
    for (const pe of pes) {
      // An item without a path element (an unvalidated value) cannot be owned: it is left out.
      if (pe instanceof ListItemError) continue;
      if (!seen.has(pe)) seen.insert(pe);
      else if (!duplicates.has(pe)) {
        this.set.insert([...this.path, pe]);
        duplicates.insert(pe);
      }
    }
    const errs: ValidationError[] = [];
    for (let i = 0; i < list.length; i++) {
      const pe = pes[i];
      if (pe === undefined || pe instanceof ListItemError || duplicates.has(pe)) continue;
      this.path.push(pe);
      pushAll(errs, this.walk(list[i], t.elementType));
      this.set.insert(this.path);
      this.path.pop();
    }
    return errs;
  }

  doMap(t: MapType, v: Value): ValidationError[] {
    const m = mapValue(v);
    if (t.elementRelationship === 'atomic') {
      this.set.insert(this.path);
      return [];
    }
    if (m === undefined || typeof m === 'string') return [];
    const errs: ValidationError[] = [];
    for (const key of Object.keys(m)) {
      const val = m[key];
      this.path.push({ fieldName: key });
      pushAll(errs, this.walk(val, mapFieldType(t, key)));
      // A struct field is owned through its leaves; an empty or null value, or a key the struct does not declare, is owned itself.
      if (val === null || (isValueMap(val) && Object.keys(val).length === 0) || findField(t, key) === undefined) this.set.insert(this.path);
      this.path.pop();
    }
    return errs;
  }
}

/** The field set of `v` as type `tr`, and the errors met (typed ToFieldSet). */
export function toFieldSet(schema: Schema, tr: TypeRef, v: Value): { readonly set: FieldSet; readonly errors: ValidationError[] } {
  const w = new FieldSetWalker(schema);
  const errors = w.walk(v, tr);
  return { set: w.set, errors };
}
