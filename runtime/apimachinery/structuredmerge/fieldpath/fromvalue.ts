/**
 * SetFromValue (fromvalue.go): every leaf of a value as a set, without a
 * schema. List elements that are maps with scalar `key`, `id` or `name`
 * fields are addressed by those as a key, others by index. Iterative.
 */
import { sortFieldList, type Field } from '../value/fields.js';
import type { Value } from '../value/compare.js';
import type { PathElement } from './element.js';
import type { Path } from './path.js';
import { Set } from './set.js';

/** AssociativeListCandidateFieldNames: the fields taken as a list element's key, when scalar. */
export const associativeListCandidateFieldNames: readonly string[] = ['key', 'id', 'name'];

/** SetFromValue. */
export function setFromValue(v: Value): Set {
  const s = new Set();
  // Paths are built only at leaves, from links to the parent step: a level costs no copy of the path above it.
  const work: Array<[Value, PathLink | undefined]> = [[v, undefined]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [value, link] = item;
    if (Array.isArray(value)) {
      value.forEach((x: Value, i) => work.push([x, { pe: guessBestListPathElement(i, x), parent: link }]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, x] of Object.entries(value)) work.push([x, { pe: { fieldName: k }, parent: link }]);
    } else if (link !== undefined) s.insert(linkPath(link));
  }
  return s;
}

interface PathLink {
  readonly pe: PathElement;
  readonly parent: PathLink | undefined;
}

function linkPath(link: PathLink): Path {
  const out: PathElement[] = [];
  for (let l: PathLink | undefined = link; l !== undefined; l = l.parent) out.push(l.pe);
  return out.reverse();
}

/** GuessBestListPathElement. */
export function guessBestListPathElement(index: number, item: Value): PathElement {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return { index };
  const keys: Field[] = [];
  for (const name of associativeListCandidateFieldNames) {
    if (!Object.prototype.hasOwnProperty.call(item, name)) continue;
    const f: unknown = (item as Record<string, unknown>)[name];
    if (f === null || typeof f === 'object') continue;
    keys.push({ name, value: f });
  }
  if (keys.length === 0) return { index };
  return { key: sortFieldList(keys) };
}
