import * as fields from '../apimachinery/fields/index.js';
import * as labels from '../apimachinery/labels/index.js';
import type { StoredObject } from '../apimachinery/object.js';

/** The labels and fields of one object that selectors are evaluated against. */
export interface Attrs {
  labels: labels.Set;
  fields: fields.Set;
}

export type AttrFunc<T = StoredObject> = (obj: T) => Attrs;

/**
 * SelectionPredicate (k8s.io/apiserver/pkg/storage/selection_predicate.go) as a plain object:
 * what to select, plus paging (limit/continue) and whether the watcher accepts bookmarks.
 */
export interface SelectionPredicate<T = StoredObject> {
  label: labels.Selector;
  field: fields.Selector;
  /** Defaults to defaultNamespaceScopedAttr. */
  getAttrs?: AttrFunc<T>;
  /** Fields the watch cache indexes (e.g. spec.nodeName); a hint only. */
  indexFields?: readonly string[];
  limit?: number;
  continue?: string;
  allowWatchBookmarks?: boolean;
}

/** Labels from metadata.labels; fields metadata.name and metadata.namespace. */
export function defaultNamespaceScopedAttr(obj: StoredObject): Attrs {
  return {
    labels: obj.metadata?.labels ?? {},
    fields: { 'metadata.name': obj.metadata?.name ?? '', 'metadata.namespace': obj.metadata?.namespace ?? '' },
  };
}

/** Labels from metadata.labels; field metadata.name. */
export function defaultClusterScopedAttr(obj: StoredObject): Attrs {
  return { labels: obj.metadata?.labels ?? {}, fields: { 'metadata.name': obj.metadata?.name ?? '' } };
}

/** Selects everything, no paging. */
export const everything: SelectionPredicate = Object.freeze({ label: labels.everything(), field: fields.everything() });

/** True when the predicate selects everything (paging fields aside). */
export function predicateEmpty(p: SelectionPredicate<never>): boolean {
  return p.label.empty() && p.field.empty();
}

/** Matches evaluates the predicate on obj; an empty predicate never computes attributes. */
export function predicateMatches<T extends StoredObject>(p: SelectionPredicate<T>, obj: T): boolean {
  if (predicateEmpty(p as SelectionPredicate<never>)) return true;
  const attrs = (p.getAttrs ?? (defaultNamespaceScopedAttr as AttrFunc<T>))(obj);
  return p.label.matchesSet(attrs.labels) && p.field.matchesSet(attrs.fields);
}

/** The single object name the predicate selects (field selector metadata.name=X), if any. */
export function predicateMatchesSingle(p: SelectionPredicate<never>): string | undefined {
  if (p.limit || p.continue) return undefined;
  return p.field.requiresExactMatch('metadata.name');
}
