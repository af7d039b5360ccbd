import { newBadRequest } from '../../apimachinery/errors/index.js';
import * as fields from '../../apimachinery/fields/index.js';
import * as labels from '../../apimachinery/labels/index.js';
import { fieldSet, parseSelectors, selectableFieldName } from '../../registry/generic/predicate.js';
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
 * selectable fields. A kind whose field selectors are `ignored` selects by
 * labels only, as client-go's fake (a field selector must still parse).
 */
export function parseSelection(resource: FakeResource, labelSelector = '', fieldSelector = ''): Selection {
  if (resource.fieldSelectors === 'ignored') {
    const { label } = parseSelectors(labelSelector, '', new Set());
    try {
      if (fieldSelector !== '') fields.parseSelector(fieldSelector);
    } catch (e) {
      throw newBadRequest(e instanceof Error ? e.message : String(e));
    }
    return { label, field: fields.everything() };
  }
  const selectable = (resource.selectableFields ?? []).map(selectableFieldName);
  return parseSelectors(labelSelector, fieldSelector, new Set(['metadata.name', 'metadata.namespace', ...selectable]));
}

/**
 * The selection of a watch. A kind selected as client-go's fake (`fieldSelectors: 'ignored'`) is
 * watched whole within its namespace: client-go's tracker watch takes no selectors, and the typed
 * fake hands the watch to it unfiltered. Both selectors must still parse, as for a list
 * (client-go's ExtractFromListOptions panics with `invalid selector "s": ...` before any reactor).
 */
export function parseWatchSelection(resource: FakeResource, labelSelector = '', fieldSelector = ''): Selection {
  const selection = parseSelection(resource, labelSelector, fieldSelector);
  return resource.fieldSelectors === 'ignored' ? { label: labels.everything(), field: fields.everything() } : selection;
}

export function selectsEverything(s: Selection): boolean {
  return s.label.empty() && s.field.empty();
}

export function matches(resource: FakeResource, s: Selection, obj: KubeObject): boolean {
  if (selectsEverything(s)) return true;
  return s.label.matchesSet(obj.metadata?.labels ?? {}) && s.field.matchesSet(fieldSet(obj, resource.descriptor.namespaced, obj, resource.selectableFields ?? []));
}
