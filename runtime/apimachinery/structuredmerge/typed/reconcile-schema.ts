/**
 * Field sets recorded before a schema change (typed/reconcile_schema.go): a
 * list or map that became atomic is owned as a whole, so a manager that
 * owned fields below it now owns just the list or map itself. Changes from
 * atomic to granular need nothing (the owner keeps the whole). Maps of
 * deduced types (preserve-unknown-fields without properties) are left as
 * they are.
 */
import { Set as FieldSet } from '../fieldpath/index.js';
import type { PathElement } from '../fieldpath/index.js';
import type { List, MapType, Schema, TypeRef } from '../schema/index.js';
import { findField, isEmptyTypeRef, typeRefName } from '../schema/index.js';
import type { ValidationError } from './errors.js';
import { depthGuarded, errorf, pushAll, ValidationErrors } from './errors.js';
import type { AtomHandler } from './helpers.js';
import { handleAtom } from './helpers.js';
import type { TypedValue } from './typed.js';

/** The part of the field set at one node, and whether the node was owned as a leaf. */
interface ReconcileNode {
  readonly fieldSet: FieldSet | undefined;
  readonly isAtomic: boolean;
}

class Reconciler implements AtomHandler<ReconcileNode> {
  /** Paths whose subtrees are dropped, then paths added: the edit that reconciles the set. */
  readonly toRemove = new FieldSet();
  readonly toAdd = new FieldSet();
  private readonly path: PathElement[] = [];

  constructor(private readonly schema: Schema) {}

  reconcile(node: ReconcileNode, tr: TypeRef): ValidationError[] {
    const a = this.schema.resolve(tr);
    if (a === undefined) return errorf(`could not resolve ${typeRefName(tr)}`);
    return handleAtom(a, tr, this, node);
  }

  doScalar(): ValidationError[] {
    return [];
  }

  doList(t: List, node: ReconcileNode): ValidationError[] {
    if (!node.isAtomic && t.elementRelationship === 'atomic') {
      this.ownWhole();
      return [];
    }
    return node.fieldSet === undefined ? [] : this.visitItems(node.fieldSet, () => t.elementType);
  }

  doMap(t: MapType, node: ReconcileNode): ValidationError[] {
    if (isUntypedDeducedMap(t)) return [];
    if (!node.isAtomic && t.elementRelationship === 'atomic') {
      if (node.fieldSet !== undefined && node.fieldSet.size() > 0) this.ownWhole();
      return [];
    }
    return node.fieldSet === undefined ? [] : this.visitItems(node.fieldSet, (pe) => typeRefAtPath(t, pe));
  }

  /** The node is now atomic: its subtree goes, the node itself stays owned. */
  private ownWhole(): void {
    this.toRemove.insert(this.path);
    this.toAdd.insert(this.path);
  }

  /**
   * Visits the children of `set` (those that are not also members) and then
   * its members; an element the schema gives no type (an unknown field) is skipped.
   */
  private visitItems(set: FieldSet, typeOf: (pe: PathElement) => TypeRef | undefined): ValidationError[] {
    const errs: ValidationError[] = [];
    const visit = (pe: PathElement, isMember: boolean): void => {
      const tr = typeOf(pe);
      if (tr === undefined) return;
      const child = set.children.get(pe);
      this.path.push(pe);
      pushAll(errs, this.reconcile({ fieldSet: child, isAtomic: isMember && child === undefined }, tr));
      this.path.pop();
    };
    set.children.iterate((pe) => {
      if (!set.members.has(pe)) visit(pe, false);
    });
    set.members.iterate((pe) => visit(pe, true));
    return errs;
  }
}

/** The type of the element `pe` of map type `t`: its field's, else the element type; undefined when neither. */
function typeRefAtPath(t: MapType, pe: PathElement): TypeRef | undefined {
  let tr = t.elementType;
  if ('fieldName' in pe) tr = findField(t, pe.fieldName)?.type ?? tr;
  return tr === undefined || isEmptyTypeRef(tr) ? undefined : tr;
}

/** A map without fields whose elements are deduced or untyped: preserve-unknown-fields with no properties. */
function isUntypedDeducedMap(m: MapType): boolean {
  const et = m.elementType;
  if (m.fields !== undefined || et === undefined) return false;
  if (et.namedType !== undefined) return et.namedType === '__untyped_deduced_';
  return et.scalar === 'untyped';
}

/**
 * `fieldset` reconciled with the current schema of `tv`, or undefined when
 * nothing changed (ReconcileFieldSetWithSchema). Throws when the schema
 * cannot be followed.
 */
export function reconcileFieldSetWithSchema(fieldset: FieldSet, tv: TypedValue): FieldSet | undefined {
  const r = new Reconciler(tv.schema);
  const errs = depthGuarded(() => r.reconcile({ fieldSet: fieldset, isAtomic: false }, tv.typeRef));
  if (errs.length > 0) throw new Error(`errors reconciling field set with schema: ${new ValidationErrors(errs).message}`);
  if (r.toRemove.empty() && r.toAdd.empty()) return undefined;
  return fieldset.recursiveDifference(r.toRemove).union(r.toAdd);
}
