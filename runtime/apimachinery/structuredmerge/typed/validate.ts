/**
 * Validation of a value against its type (typed/validate.go): scalars of the
 * right kind, lists and maps where the schema has them, no undeclared fields
 * in structs, list items that have a key, and no two items of an associative
 * list with the same key unless duplicates are allowed.
 */
import { PathElementSet, pathElementString } from '../fieldpath/index.js';
import type { PathElement } from '../fieldpath/index.js';
import type { List, MapType, Scalar, Schema, TypeRef } from '../schema/index.js';
import { findField, isEmptyTypeRef } from '../schema/index.js';
import type { Value } from '../value/index.js';
import type { ValidationError } from './errors.js';
import { errorf, pushAll, withLazyPrefix } from './errors.js';
import type { AtomHandler } from './helpers.js';
import { ListItemError, listItemToPathElement, listValue, mapValue, resolveSchema, validateScalar } from './helpers.js';

export interface ValidationOptions {
  /** Sets and associative lists may hold items with equal keys (SMD's AllowDuplicates). */
  readonly allowDuplicates?: boolean;
}

class Validator implements AtomHandler<Value> {
  constructor(
    private readonly schema: Schema,
    private readonly allowDuplicates: boolean,
  ) {}

  validate(v: Value, tr: TypeRef, prefix?: () => string): ValidationError[] {
    return withLazyPrefix(resolveSchema(this.schema, tr, v, this, v), prefix);
  }

  doScalar(t: Scalar, v: Value): ValidationError[] {
    return validateScalar(t, v, '');
  }

  doList(t: List, v: Value): ValidationError[] {
    const list = listValue(v);
    if (typeof list === 'string') return errorf(list);
    return list === undefined ? [] : this.visitListItems(t, list);
  }

  private visitListItems(t: List, list: readonly Value[]): ValidationError[] {
    const errs: ValidationError[] = [];
    const observed = new PathElementSet();
    for (let i = 0; i < list.length; i++) {
      const child = list[i];
      let pe: PathElement;
      if (t.elementRelationship !== 'associative') {
        pe = { index: i };
      } else {
        const r = listItemToPathElement(this.schema, t, child);
        // Without a path element nothing deeper can be named: the rest of the list is not checked.
        if (r instanceof ListItemError) return errs.concat(errorf(`element ${i}: ${r.message}`));
        pe = r;
        if (observed.has(pe) && !this.allowDuplicates) errs.push(...errorf(`duplicate entries for key ${pathElementString(pe)}`));
        observed.insert(pe);
      }
      const item = pe;
      pushAll(
        errs,
        this.validate(child, t.elementType, () => pathElementString(item)),
      );
    }
    return errs;
  }

  doMap(t: MapType, v: Value): ValidationError[] {
    const m = mapValue(v);
    if (typeof m === 'string') return errorf(m);
    if (m === undefined) return [];
    const errs: ValidationError[] = [];
    for (const key of Object.keys(m)) {
      const pe: PathElement = { fieldName: key };
      const tr = findField(t, key)?.type ?? t.elementType;
      if (tr === undefined || isEmptyTypeRef(tr)) {
        errs.push(...withLazyPrefix(errorf('field not declared in schema'), () => pathElementString(pe)));
        break;
      }
      pushAll(
        errs,
        this.validate(m[key], tr, () => pathElementString(pe)),
      );
    }
    return errs;
  }
}

/** Every way `v` violates type `tr` of `schema` (empty when it conforms). */
export function validateValue(schema: Schema, tr: TypeRef, v: Value, opts: ValidationOptions = {}): ValidationError[] {
  return new Validator(schema, opts.allowDuplicates === true).validate(v, tr);
}
