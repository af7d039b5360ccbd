import { newBadRequest } from '../../apimachinery/errors/index.js';
import * as fields from '../../apimachinery/fields/index.js';
import * as labels from '../../apimachinery/labels/index.js';
import { readPath, selectableFieldName } from '../../registry/generic/predicate.js';
import type { KubeObject } from '../../registry/rest.js';
import type { FakeResource } from './resources.js';

/** Label and field selectors of a list, watch or deletecollection, parsed. */
export interface Selection {
  readonly label: labels.Selector;
  readonly field: fields.Selector;
}

/**
 * Parses the selectors as the API server does: 400 BadRequest with the
 * parser's message, and `field label not supported: f` for fields other than
 * metadata.name, metadata.namespace (namespaced kinds) and the kind's
 * selectable fields.
 */
export function parseSelection(resource: FakeResource, labelSelector = '', fieldSelector = ''): Selection {
  let label: labels.Selector;
  let field: fields.Selector;
  try {
    label = labelSelector === '' ? labels.everything() : labels.parse(labelSelector);
    field = fieldSelector === '' ? fields.everything() : fields.parseSelector(fieldSelector);
  } catch (e) {
    throw newBadRequest(e instanceof Error ? e.message : String(e));
  }
  const supported = new Set(['metadata.name', 'metadata.namespace', ...(resource.selectableFields ?? []).map(selectableFieldName)]);
  for (const r of field.requirements()) {
    if (!supported.has(r.field)) throw newBadRequest(`field label not supported: ${r.field}`);
  }
  return { label, field };
}

export function selectsEverything(s: Selection): boolean {
  return s.label.empty() && s.field.empty();
}

function fieldValue(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v))) return String(v);
  return undefined;
}

/** The field set a field selector sees: name, namespace and the selectable fields present on the object. */
function fieldSet(resource: FakeResource, obj: KubeObject): Record<string, string> {
  const meta = obj.metadata ?? {};
  const set: Record<string, string> = { 'metadata.name': meta.name ?? '' };
  if (resource.descriptor.namespaced) set['metadata.namespace'] = meta.namespace ?? '';
  for (const path of resource.selectableFields ?? []) {
    const v = fieldValue(readPath(obj, path));
    if (v !== undefined) set[selectableFieldName(path)] = v;
  }
  return set;
}

export function matches(resource: FakeResource, s: Selection, obj: KubeObject): boolean {
  if (selectsEverything(s)) return true;
  return s.label.matchesSet(obj.metadata?.labels ?? {}) && s.field.matchesSet(fieldSet(resource, obj));
}
