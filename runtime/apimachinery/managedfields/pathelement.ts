import { deserializePathElement, serializePathElement } from '../structuredmerge/fieldpath/index.js';
import type { PathElement } from '../structuredmerge/fieldpath/index.js';

/** The qualifiers of a serialized path element (pathelement.go): field, value, index, key. */
export const pathElementQualifiers: ReadonlySet<string> = new Set(['f', 'v', 'i', 'k']);

/**
 * Parses one FieldsV1 key (NewPathElement). Unlike the merge core's strict parser, a qualifier
 * this version does not know is ignored (undefined), so entries written by a newer server still
 * decode; a key without a colon, or a known qualifier with a bad payload, is an error.
 */
export function newPathElement(s: string): PathElement | undefined {
  const colon = s.indexOf(':');
  if (colon < 0) throw new Error(`missing colon: ${s}`);
  if (!pathElementQualifiers.has(s.slice(0, colon))) return undefined;
  return deserializePathElement(s);
}

/** Serializes a path element as a FieldsV1 key (PathElementString). */
export function pathElementString(pe: PathElement): string {
  return serializePathElement(pe);
}
