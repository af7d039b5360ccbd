/**
 * Merging a partially specified object into a value (typed/merge.go): the
 * right-hand side wins at every leaf; maps merge key by key, associative
 * lists item by item (matched by key, in an order that keeps the right-hand
 * side's order of the items it lists), atomic lists and maps are replaced
 * whole. Both sides stay as they are: the result is new containers, which
 * may share leaves (scalars, atomic subtrees) with the inputs.
 */
import { PathElementMap, PathElementSet, pathElementEquals, pathElementString } from '../fieldpath/index.js';
import type { PathElement } from '../fieldpath/index.js';
import type { List, MapType, Scalar, Schema, TypeRef } from '../schema/index.js';
import { hasField, ownField, setField } from '../../serializer/jsonvalue.js';
import type { Value } from '../value/index.js';
import type { ValidationError } from './errors.js';
import { errorf, pushAll, withLazyPrefix } from './errors.js';
import type { AtomHandler, SidesNode } from './helpers.js';
import { handleSides, isValueMap, ListItemError, listItemToPathElement, mapFieldType, validateScalarSides } from './helpers.js';
import type { ValueMap } from './helpers.js';

/** One node of the walk: the two sides (undefined: absent) and what the merge puts there (undefined: nothing). */
interface MergeNode extends SidesNode {
  /** In a "big leaf" (an atomic list or map, or a scalar): taken whole, leaves below are not visited. */
  inLeaf: boolean;
  out: Value;
}

class Merger implements AtomHandler<MergeNode> {
  constructor(private readonly schema: Schema) {}

  merge(node: MergeNode, tr: TypeRef, prefix?: () => string): ValidationError[] {
    const { errors, dispatched } = handleSides(this.schema, tr, this, node);
    return dispatched ? withLazyPrefix(errors, prefix) : errors;
  }

  /** Takes the node whole: the right-hand side if present, else the left (ruleKeepRHS). */
  private doLeaf(node: MergeNode): void {
    if (node.inLeaf) return;
    node.inLeaf = true;
    node.out = node.rhs !== undefined ? node.rhs : node.lhs;
  }

  doScalar(t: Scalar, node: MergeNode): ValidationError[] {
    const errs = validateScalarSides(t, node);
    if (errs.length === 0) this.doLeaf(node);
    return errs;
  }

  doList(t: List, node: MergeNode): ValidationError[] {
    // A side that is not a list counts as absent here; validation reports it.
    const lhs = asList(node.lhs);
    const rhs = asList(node.rhs);
    // Both empty or null: a leaf, so that empty and null stay distinct.
    const emptyPromoteToLeaf = (lhs === undefined || lhs.length === 0) && (rhs === undefined || rhs.length === 0);
    if (t.elementRelationship === 'atomic' || emptyPromoteToLeaf) {
      this.doLeaf(node);
      return [];
    }
    return this.visitListItems(t, lhs ?? [], rhs ?? [], node);
  }

  private visitListItems(t: List, lhs: readonly Value[], rhs: readonly Value[], node: MergeNode): ValidationError[] {
    const r = this.indexListPathElements(t, rhs, false);
    const l = this.indexListPathElements(t, lhs, true);
    if (r.errs.length > 0 || l.errs.length > 0) return r.errs.concat(l.errs);
    const out: Value[] = [];
    // The keys both sides have, in the right-hand side's order: shared items are placed in that order.
    const sharedOrder = r.pes.filter((pe) => l.observed.has(pe));
    let sharedAt = 0;
    let nextShared: PathElement | undefined = sharedOrder[sharedAt++];
    const mergedRHS = new PathElementSet();
    const emit = (pe: PathElement, lChild: Value, rChild: Value): void => {
      // Errors below a list item are not reported, as in SMD (validation has reported them).
      const item = this.mergeListItem(t, pe, lChild, rChild);
      if (item !== undefined) out.push(item);
    };
    let lI = 0;
    let rI = 0;
    while (lI < l.pes.length || rI < r.pes.length) {
      if (lI < l.pes.length && rI < r.pes.length) {
        const pe = l.pes[lI] as PathElement;
        if (pathElementEquals(pe, r.pes[rI] as PathElement)) {
          mergedRHS.insert(pe);
          emit(pe, l.observed.get(pe), r.observed.get(pe));
          lI++;
          rI++;
          nextShared = sharedOrder[sharedAt++];
          continue;
        }
        if (r.observed.has(pe) && nextShared !== undefined && !pathElementEquals(nextShared, pe)) {
          // A shared item, but not the one due now: it comes when the right-hand side reaches it.
          lI++;
          continue;
        }
      }
      if (lI < l.pes.length) {
        const pe = l.pes[lI] as PathElement;
        if (!r.observed.has(pe)) {
          // Only on the left: kept where it is (by position, since duplicates are not in `observed`).
          emit(pe, lhs[lI], undefined);
          lI++;
          continue;
        } else if (mergedRHS.has(pe)) {
          lI++;
        }
      }
      if (rI < r.pes.length) {
        const pe = r.pes[rI] as PathElement;
        mergedRHS.insert(pe);
        emit(pe, l.observed.get(pe), r.observed.get(pe));
        rI++;
        if (nextShared !== undefined && pathElementEquals(nextShared, pe)) nextShared = sharedOrder[sharedAt++];
      }
    }
    if (out.length > 0) node.out = out;
    return [];
  }

  /**
   * The path elements of a list's items in order, and each item by path
   * element. A duplicated item on the left (allowed there) maps to null: it
   * is replaced, never merged field by field.
   */
  private indexListPathElements(t: List, list: readonly Value[], allowDuplicates: boolean): { pes: PathElement[]; observed: PathElementMap<Value>; errs: ValidationError[] } {
    const errs: ValidationError[] = [];
    const observed = new PathElementMap<Value>();
    const pes: PathElement[] = [];
    for (let i = 0; i < list.length; i++) {
      const child = list[i];
      const pe = listItemToPathElement(this.schema, t, child);
      if (pe instanceof ListItemError) {
        errs.push(...errorf(`element ${i}: ${pe.message}`));
        continue;
      }
      const found = observed.has(pe);
      if (found && !allowDuplicates) {
        errs.push(...errorf(`duplicate entries for key ${pathElementString(pe)}`));
        continue;
      }
      observed.insert(pe, found ? null : child);
      pes.push(pe);
    }
    return { pes, observed, errs };
  }

  private mergeListItem(t: List, pe: PathElement, lhs: Value, rhs: Value): Value {
    const child: MergeNode = { lhs, rhs, inLeaf: false, out: undefined };
    this.merge(child, t.elementType, () => pathElementString(pe));
    return child.out;
  }

  doMap(t: MapType, node: MergeNode): ValidationError[] {
    const lhs = asMap(node.lhs);
    const rhs = asMap(node.rhs);
    const emptyPromoteToLeaf = (lhs === undefined || isEmptyMap(lhs)) && (rhs === undefined || isEmptyMap(rhs));
    if (t.elementRelationship === 'atomic' || emptyPromoteToLeaf) {
      this.doLeaf(node);
      return [];
    }
    const errs: ValidationError[] = [];
    const out: Record<string, Value> = {};
    let any = false;
    const visit = (key: string, l: Value, r: Value): void => {
      const child: MergeNode = { lhs: l, rhs: r, inLeaf: false, out: undefined };
      pushAll(
        errs,
        this.merge(child, mapFieldType(t, key), () => pathElementString({ fieldName: key })),
      );
      if (child.out !== undefined) {
        setField(out, key, child.out);
        any = true;
      }
    };
    // The left's keys in its order, then those only the right has (MapZip, Unordered).
    if (lhs !== undefined) for (const key of Object.keys(lhs)) visit(key, lhs[key], rhs !== undefined ? ownField(rhs, key) : undefined);
    if (rhs !== undefined) for (const key of Object.keys(rhs)) if (lhs === undefined || !hasField(lhs, key)) visit(key, undefined, rhs[key]);
    if (any) node.out = out;
    return errs;
  }
}

function asList(v: Value): readonly Value[] | undefined {
  return Array.isArray(v) ? (v as readonly Value[]) : undefined;
}

function asMap(v: Value): ValueMap | undefined {
  return isValueMap(v) ? v : undefined;
}

function isEmptyMap(m: ValueMap): boolean {
  return Object.keys(m).length === 0;
}

/**
 * Merges `rhs` into `lhs`, both values of type `tr` (typed merge with
 * ruleKeepRHS). `value` is undefined when the merge put nothing there.
 */
export function mergeValues(schema: Schema, tr: TypeRef, lhs: Value, rhs: Value): { readonly value: Value; readonly errors: ValidationError[] } {
  const node: MergeNode = { lhs, rhs, inLeaf: false, out: undefined };
  const errors = new Merger(schema).merge(node, tr);
  return { value: node.out, errors };
}
