/**
 * Removing or extracting the items of a field set from a value
 * (typed/remove.go). Removing drops each listed field or item (an atomic
 * list or map only as a whole); extracting keeps only the listed ones (an
 * atomic list or map whole). Containers left with nothing become null, as
 * in SMD. The input is not modified.
 */
import type { Set as FieldSet } from '../fieldpath/index.js';
import type { List, MapType, Schema, TypeRef } from '../schema/index.js';
import { setField } from '../../serializer/jsonvalue.js';
import type { Value } from '../value/index.js';
import type { ValidationError } from './errors.js';
import type { AtomHandler } from './helpers.js';
import { isValueMap, ListItemError, listItemToPathElement, mapFieldType, resolveSchema } from './helpers.js';

interface RemoveNode {
  readonly value: Value;
  readonly items: FieldSet;
  out: Value;
}

class Remover implements AtomHandler<RemoveNode> {
  constructor(
    private readonly schema: Schema,
    /** Keep the listed items (ExtractItems) instead of dropping them (RemoveItems). */
    private readonly extract: boolean,
  ) {}

  walk(value: Value, items: FieldSet, tr: TypeRef): Value {
    const node: RemoveNode = { value, items, out: undefined };
    // The value has been validated: errors (of a mismatched value) leave it out.
    resolveSchema(this.schema, tr, value, this, node);
    return node.out === undefined ? null : node.out;
  }

  doScalar(_t: unknown, node: RemoveNode): ValidationError[] {
    node.out = node.value;
    return [];
  }

  doList(t: List, node: RemoveNode): ValidationError[] {
    const list = node.value;
    if (!Array.isArray(list)) return [];
    // Atomic lists are all or nothing; an empty one is extracted as it is (empty is not null there).
    if (list.length === 0 || t.elementRelationship === 'atomic') {
      if (this.extract) node.out = list;
      return [];
    }
    const out: Value[] = [];
    for (const item of list as readonly Value[]) {
      const pe = listItemToPathElement(this.schema, t, item);
      if (pe instanceof ListItemError) {
        // An item no path element names cannot be listed: kept by removal, left out of extraction.
        if (!this.extract) out.push(item);
        continue;
      }
      const exact = node.items.has([pe]);
      const below = node.items.withPrefix(pe);
      const prefixed = !below.empty();
      if (this.extract) {
        if (exact || prefixed) out.push(prefixed ? this.walk(item, below, t.elementType) : item);
      } else if (!exact) {
        out.push(prefixed ? this.walk(item, below, t.elementType) : item);
      }
    }
    if (out.length > 0) node.out = out;
    return [];
  }

  doMap(t: MapType, node: RemoveNode): ValidationError[] {
    const m = node.value;
    if (!isValueMap(m)) return [];
    const keys = Object.keys(m);
    if (keys.length === 0 || t.elementRelationship === 'atomic') {
      if (this.extract) node.out = m;
      return [];
    }
    const out: Record<string, Value> = {};
    let any = false;
    for (const key of keys) {
      const pe = { fieldName: key };
      const tr = mapFieldType(t, key);
      let v = m[key];
      if (node.items.has([pe])) {
        // A listed field: dropped, or extracted (walked with the whole set, as SMD does).
        if (this.extract) {
          setField(out, key, this.walk(v, node.items, tr));
          any = true;
        }
        continue;
      }
      const below = node.items.withPrefix(pe);
      if (!below.empty()) v = this.walk(v, below, tr);
      else if (this.extract) continue;
      setField(out, key, v);
      any = true;
    }
    if (any) node.out = out;
    return [];
  }
}

/** `value` of type `tr` without the items of `items` (extract: with only them). */
export function removeItemsWithSchema(schema: Schema, tr: TypeRef, value: Value, items: FieldSet, extract: boolean): Value {
  return new Remover(schema, extract).walk(value, items, tr);
}
