/**
 * Comparing two values of one type (typed/compare.go): the fields the
 * right-hand side removed, modified and added, at the granularity managers
 * own them (an atomic list or map changes as one leaf). Items of an
 * associative list are matched by key; duplicated items compare as a whole.
 */
import { Set as FieldSet, PathElementMap, pathElementString } from '../fieldpath/index.js';
import type { Filter, PathElement } from '../fieldpath/index.js';
import type { List, MapType, Scalar, Schema, TypeRef } from '../schema/index.js';
import { hasField, ownField } from '../../serializer/jsonvalue.js';
import type { Value } from '../value/index.js';
import { valueEquals } from '../value/index.js';
import type { ValidationError } from './errors.js';
import { errorf, pushAll, withLazyPrefix } from './errors.js';
import type { AtomHandler, SidesNode } from './helpers.js';
import { handleSides, isValueMap, ListItemError, listItemToPathElement, mapFieldType, validateScalarSides } from './helpers.js';

/** What changed from the left-hand to the right-hand value; a field is in at most one of the three sets. */
export class Comparison {
  constructor(
    /** Fields the right-hand side no longer has. */
    public removed: FieldSet = new FieldSet(),
    /** Fields both have, with different values. */
    public modified: FieldSet = new FieldSet(),
    /** Fields only the right-hand side has. */
    public added: FieldSet = new FieldSet(),
  ) {}

  /** Whether nothing changed. */
  isSame(): boolean {
    return this.removed.empty() && this.modified.empty() && this.added.empty();
  }

  /** Removes `fields` and everything below them from the three sets (ExcludeFields); returns this comparison. */
  excludeFields(fields?: FieldSet): Comparison {
    if (fields === undefined || fields.empty()) return this;
    this.removed = this.removed.recursiveDifference(fields);
    this.modified = this.modified.recursiveDifference(fields);
    this.added = this.added.recursiveDifference(fields);
    return this;
  }

  /** Passes the three sets through `filter` (FilterFields); returns this comparison. */
  filterFields(filter?: Filter): Comparison {
    if (filter === undefined) return this;
    this.removed = filter.filter(this.removed);
    this.modified = filter.filter(this.modified);
    this.added = filter.filter(this.added);
    return this;
  }

  /** SMD's human-readable form: a section per non-empty set. */
  toString(): string {
    let s = '';
    if (!this.modified.empty()) s += `- Modified Fields:\n${this.modified.toString()}\n`;
    if (!this.added.empty()) s += `- Added Fields:\n${this.added.toString()}\n`;
    if (!this.removed.empty()) s += `- Removed Fields:\n${this.removed.toString()}\n`;
    return s;
  }
}

interface CompareNode extends SidesNode {
  inLeaf: boolean;
}

class Comparer implements AtomHandler<CompareNode> {
  readonly comparison = new Comparison();
  private readonly path: PathElement[] = [];

  constructor(private readonly schema: Schema) {}

  compare(node: CompareNode, tr: TypeRef, prefix?: () => string): ValidationError[] {
    const { errors, dispatched } = handleSides(this.schema, tr, this, node);
    if (!dispatched) return errors;
    // A container only one side has (its leaves were not visited as such) is added or removed itself.
    if (!node.inLeaf) {
      if (node.lhs === undefined) this.comparison.added.insert(this.path);
      else if (node.rhs === undefined) this.comparison.removed.insert(this.path);
    }
    return withLazyPrefix(errors, prefix);
  }

  private doLeaf(node: CompareNode): void {
    if (node.inLeaf) return;
    node.inLeaf = true;
    if (node.lhs === undefined) this.comparison.added.insert(this.path);
    else if (node.rhs === undefined) this.comparison.removed.insert(this.path);
    else if (!valueEquals(node.rhs, node.lhs)) this.comparison.modified.insert(this.path);
  }

  doScalar(t: Scalar, node: CompareNode): ValidationError[] {
    const errs = validateScalarSides(t, node);
    if (errs.length === 0) this.doLeaf(node);
    return errs;
  }

  doList(t: List, node: CompareNode): ValidationError[] {
    const lhs = Array.isArray(node.lhs) ? (node.lhs as readonly Value[]) : undefined;
    const rhs = Array.isArray(node.rhs) ? (node.rhs as readonly Value[]) : undefined;
    const emptyPromoteToLeaf = (lhs === undefined || lhs.length === 0) && (rhs === undefined || rhs.length === 0);
    if (t.elementRelationship === 'atomic' || emptyPromoteToLeaf) {
      this.doLeaf(node);
      return [];
    }
    return this.visitListItems(t, lhs ?? [], rhs ?? []);
  }

  /** The items of each side by path element, every path element once in `all` (first seen first). */
  private indexItems(t: List, list: readonly Value[], values: PathElementMap<Value[]>, all: PathElement[], other: PathElementMap<Value[]> | undefined, errs: ValidationError[]): void {
    for (let i = 0; i < list.length; i++) {
      const child = list[i];
      const pe = listItemToPathElement(this.schema, t, child);
      if (pe instanceof ListItemError) {
        errs.push(...errorf(`element ${i}: ${pe.message}`));
        continue;
      }
      const items = values.get(pe);
      if (items !== undefined) {
        items.push(child);
        continue;
      }
      values.insert(pe, [child]);
      if (other === undefined || !other.has(pe)) all.push(pe);
    }
  }

  private visitListItems(t: List, lhs: readonly Value[], rhs: readonly Value[]): ValidationError[] {
    const errs: ValidationError[] = [];
    const all: PathElement[] = [];
    const lValues = new PathElementMap<Value[]>();
    const rValues = new PathElementMap<Value[]>();
    this.indexItems(t, lhs, lValues, all, undefined, errs);
    this.indexItems(t, rhs, rValues, all, lValues, errs);
    for (const pe of all) {
      const lList = lValues.get(pe) ?? [];
      const rList = rValues.get(pe) ?? [];
      if (lList.length === 0 && rList.length === 0) return errs;
      if (lList.length <= 1 && rList.length <= 1) {
        // No duplicates: item against item.
        pushAll(errs, this.compareListItem(t, pe, lList[0], rList[0]));
      } else if (lList.length >= 2 && rList.length >= 2) {
        // Duplicated on both sides: compared as one atomic value.
        if (lList.length !== rList.length || lList.some((v, i) => !valueEquals(v, rList[i]))) this.comparison.modified.insert([...this.path, pe]);
      } else if (lList.length >= 2) {
        // No longer duplicated: the single new item is added, the duplicated whole removed.
        if (rList.length !== 0) pushAll(errs, this.compareListItem(t, pe, undefined, rList[0]));
        this.comparison.removed.insert([...this.path, pe]);
      } else {
        // Newly duplicated: the single old item is removed, the duplicated whole added.
        if (lList.length !== 0) pushAll(errs, this.compareListItem(t, pe, lList[0], undefined));
        this.comparison.added.insert([...this.path, pe]);
      }
    }
    return errs;
  }

  private compareListItem(t: List, pe: PathElement, lhs: Value, rhs: Value): ValidationError[] {
    this.path.push(pe);
    const errs = this.compare({ lhs, rhs, inLeaf: false }, t.elementType, () => pathElementString(pe));
    this.path.pop();
    return errs;
  }

  doMap(t: MapType, node: CompareNode): ValidationError[] {
    const lhs = isValueMap(node.lhs) ? node.lhs : undefined;
    const rhs = isValueMap(node.rhs) ? node.rhs : undefined;
    const emptyPromoteToLeaf = (lhs === undefined || Object.keys(lhs).length === 0) && (rhs === undefined || Object.keys(rhs).length === 0);
    if (t.elementRelationship === 'atomic' || emptyPromoteToLeaf) {
      this.doLeaf(node);
      return [];
    }
    const errs: ValidationError[] = [];
    const visit = (key: string, l: Value, r: Value): void => {
      const pe: PathElement = { fieldName: key };
      this.path.push(pe);
      pushAll(
        errs,
        this.compare({ lhs: l, rhs: r, inLeaf: false }, mapFieldType(t, key), () => pathElementString(pe)),
      );
      this.path.pop();
    };
    if (lhs !== undefined) for (const key of Object.keys(lhs)) visit(key, lhs[key], rhs !== undefined ? ownField(rhs, key) : undefined);
    if (rhs !== undefined) for (const key of Object.keys(rhs)) if (lhs === undefined || !hasField(lhs, key)) visit(key, undefined, rhs[key]);
    return errs;
  }
}

/** Compares `lhs` with `rhs`, both of type `tr` (typed Compare). */
export function compareValuesTyped(schema: Schema, tr: TypeRef, lhs: Value, rhs: Value): { readonly comparison: Comparison; readonly errors: ValidationError[] } {
  const w = new Comparer(schema);
  const errors = w.compare({ lhs, rhs, inLeaf: false }, tr);
  return { comparison: w.comparison, errors };
}
