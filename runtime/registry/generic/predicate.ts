import { newBadRequest } from '../../apimachinery/errors/index.js';
import * as fields from '../../apimachinery/fields/index.js';
import * as labels from '../../apimachinery/labels/index.js';
import type { Attrs, AttrFunc, SelectionPredicate } from '../../storage/index.js';
import type { KubeObject } from '../rest.js';
import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';
import { ownField } from '../../apimachinery/serializer/jsonvalue.js';

/**
 * Selection predicates of a resource: labels, plus the fields metadata.name,
 * metadata.namespace, the resource's declared selectable fields and those its strategy computes. Selectable fields are
 * declared per version; the store evaluates them on the HUB form of each stored object, with
 * the hub resource's declarations, so one predicate serves every request version (kube's
 * field label conversion is the identity for our kinds).
 */

/** `.spec.referenceType` → `spec.referenceType`, as field selectors spell it. */
export function selectableFieldName(jsonPath: string): string {
  return jsonPath.startsWith('.') ? jsonPath.slice(1) : jsonPath;
}

/** Reads a simple `.a.b.c` path; undefined when any step is missing. */
export function readPath(obj: unknown, jsonPath: string): unknown {
  let cur: unknown = obj;
  for (const seg of selectableFieldName(jsonPath).split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = ownField(cur, seg);
  }
  return cur;
}

function fieldValue(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v))) return String(v);
  return undefined;
}

/**
 * The AttrFunc for objects as stored: `toHub` gives the hub form (shared and cached for
 * frozen objects) on which the selectable fields are read.
 */
export function attrFunc(resource: ResourceDefinition, toHub: (stored: KubeObject) => KubeObject): AttrFunc<KubeObject> {
  const selectable = resource.selectableFields;
  const computed = computedFieldsOf(resource);
  const needsHub = selectable.length > 0 || computed !== undefined;
  return (obj): Attrs => {
    const form = needsHub ? toHub(obj) : obj;
    const fields = fieldSet(obj, resource.namespaced, form, selectable);
    if (computed !== undefined) for (const [label, value] of Object.entries(computed)) fields[label] = value(form);
    return { labels: obj.metadata?.labels ?? {}, fields };
  };
}

/**
 * What a strategy may declare beside RESTStrategy: selectable fields it computes, by label, from
 * the hub object, where no JSONPath reads the value (kube's ToSelectableFields: an Event's
 * `source` is source.component, else the reporting controller). Each returns the field's value,
 * '' when absent; it must not mutate the object.
 */
export interface SelectableFieldsStrategy<T> {
  readonly selectableFieldFuncs?: Readonly<Record<string, (obj: T) => string>>;
}

/** The computed selectable fields a resource's strategy declares, if any. */
function computedFieldsOf(resource: ResourceDefinition): Readonly<Record<string, (obj: KubeObject) => string>> | undefined {
  const strategy = resource.strategy as SelectableFieldsStrategy<KubeObject> | undefined;
  const funcs = strategy?.selectableFieldFuncs;
  return funcs === undefined || Object.keys(funcs).length === 0 ? undefined : funcs;
}

/**
 * The field set a field selector sees: metadata.name, metadata.namespace (namespaced kinds) and
 * the selectable fields present on `form` (the object in the version that declares them).
 */
export function fieldSet(obj: KubeObject, namespaced: boolean, form: KubeObject, selectableFields: readonly string[]): Record<string, string> {
  const meta = obj.metadata ?? {};
  const set: Record<string, string> = { 'metadata.name': meta.name ?? '' };
  if (namespaced) set['metadata.namespace'] = meta.namespace ?? '';
  for (const path of selectableFields) {
    const v = fieldValue(readPath(form, path));
    if (v !== undefined) set[selectableFieldName(path)] = v;
  }
  return set;
}

/** The field names a field selector may use on this resource. */
export function supportedFieldLabels(resource: ResourceDefinition): ReadonlySet<string> {
  return new Set(['metadata.name', 'metadata.namespace', ...resource.selectableFields.map(selectableFieldName), ...Object.keys(computedFieldsOf(resource) ?? {})]);
}

/**
 * Parses the labelSelector and fieldSelector query parameters into a predicate (without
 * getAttrs: the store supplies it). Throws 400 BadRequest with kube's wording for selectors
 * that do not parse and for fields the resource does not support (`field label not supported: f`).
 */
export function buildPredicate(resource: ResourceDefinition, labelSelector: string, fieldSelector: string): SelectionPredicate<KubeObject> {
  return parseSelectors(labelSelector, fieldSelector, supportedFieldLabels(resource));
}

/**
 * The labelSelector and fieldSelector of a request, parsed: 400 BadRequest with the parser's
 * message, and `field label not supported: f` for a field outside `supported`.
 */
export function parseSelectors(labelSelector: string, fieldSelector: string, supported: ReadonlySet<string>): { label: labels.Selector; field: fields.Selector } {
  let label: labels.Selector;
  let field: fields.Selector;
  try {
    label = labelSelector === '' ? labels.everything() : labels.parse(labelSelector);
    field = fieldSelector === '' ? fields.everything() : fields.parseSelector(fieldSelector);
  } catch (e) {
    throw newBadRequest(e instanceof Error ? e.message : String(e));
  }
  for (const r of field.requirements()) {
    if (!supported.has(r.field)) throw newBadRequest(`field label not supported: ${r.field}`);
  }
  return { label, field };
}
