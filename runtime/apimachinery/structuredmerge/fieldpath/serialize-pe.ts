/**
 * The string form of a path element in a fieldsV1 key (serialize-pe.go):
 * `f:<name>`, `k:<JSON object of the key fields>`, `v:<JSON value>`,
 * `i:<index>`. Values are read with Go's JSON syntax rules and wording.
 */
import { JSONSyntaxError, scanJSON } from '../../serializer/json-scan.js';
import { isJSONObject, parseJSONBytes } from '../../serializer/jsonvalue.js';
import { sortFieldList, type Field } from '../value/fields.js';
import { goJSON, goJSONString } from '../value/json.js';
import { goQuote } from '../value/tostring.js';
import type { PathElement } from './element.js';

/** ErrUnknownPathElementType: a key of a kind this version does not know; readers drop it. */
export class UnknownPathElementTypeError extends Error {
  override readonly name = 'UnknownPathElementTypeError';
  constructor() {
    super('unknown path element type');
  }
}

/** The one instance, compared by identity as SMD compares its sentinel. */
export const errUnknownPathElementType = new UnknownPathElementTypeError();

/** SerializePathElement. */
export function serializePathElement(pe: PathElement): string {
  if ('fieldName' in pe) return `f:${pe.fieldName}`;
  if ('key' in pe) return `k:{${pe.key.map((f) => `${goJSONString(f.name)}:${goJSON(f.value)}`).join(',')}}`;
  if ('value' in pe) return `v:${goJSON(pe.value)}`;
  if ('index' in pe) return `i:${pe.index}`;
  throw new Error('invalid PathElement');
}

/** DeserializePathElement: throws with SMD's (and Go's JSON decoder's) wording. */
export function deserializePathElement(s: string): PathElement {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  switch (s[0]) {
    case 'f':
      return { fieldName: s.slice(2) };
    case 'v':
      return { value: parseJSONText(s.slice(2)) };
    case 'k':
      return { key: keyFields(parseJSONText(s.slice(2))) };
    case 'i':
      return { index: atoi(s.slice(2)) };
    default:
      throw errUnknownPathElementType;
  }
}

/** One JSON value, with Go's syntax errors (trailing data included). */
function parseJSONText(text: string): unknown {
  const bytes = Buffer.from(text, 'utf8');
  try {
    scanJSON(bytes);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw new Error(err.message, { cause: err });
    throw err;
  }
  return parseJSONBytes(bytes);
}

/** The fields of a `k:` object, sorted by name; `null` reads as no fields, as SMD's reader allows. */
function keyFields(v: unknown): Field[] {
  if (v === null) return [];
  if (!isJSONObject(v)) throw new Error(`key path element must be a JSON object, got ${goJSON(v)}`);
  const fields: Field[] = Object.entries(v).map(([name, value]) => ({ name, value }));
  sortFieldList(fields);
  return fields;
}

const DIGITS = /^[+-]?0*([0-9]*)$/;

/** strconv.Atoi on a 64-bit platform, with its error texts. */
export function atoi(s: string): number {
  const m = DIGITS.exec(s);
  if (!m || !/[0-9]/.test(s)) throw new Error(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  // Beyond int64 in Go; beyond 2^53 a JS number would name another index, so refused here as well.
  const n = m[1]!.length > 16 ? Infinity : Number(s);
  if (!Number.isSafeInteger(n)) throw new Error(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return n;
}
