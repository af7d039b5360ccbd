/**
 * The string form of a path element in a fieldsV1 key (serialize-pe.go):
 * `f:<name>`, `k:<JSON object of the key fields>`, `v:<JSON value>`,
 * `i:<index>`. Values are read with Go's JSON syntax rules and wording.
 */
import { JSONSyntaxError, MAX_NESTING_DEPTH, scanJSON } from '../../serializer/json-scan.js';
import { isJSONObject, parseJSONBytes } from '../../serializer/jsonvalue.js';
import { sortFieldList, type Field } from '../value/fields.js';
import { goJSON, goJSONString } from '../value/json.js';
import { atoi } from '../../util/strconv.js';
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

/**
 * The serialized form of key and value elements, per element object: path
 * elements are immutable and shared between the sets of every manager of an
 * object, which are written again on every write.
 */
const serialized = new WeakMap<PathElement, string>();

/** SerializePathElement. */
export function serializePathElement(pe: PathElement): string {
  if ('fieldName' in pe) return `f:${pe.fieldName}`;
  if ('index' in pe) return `i:${pe.index}`;
  let out = serialized.get(pe);
  if (out !== undefined) return out;
  if ('key' in pe) out = `k:{${pe.key.map((f) => `${goJSONString(f.name)}:${goJSON(f.value)}`).join(',')}}`;
  else if ('value' in pe) out = `v:${goJSON(pe.value)}`;
  else throw new Error('invalid PathElement');
  serialized.set(pe, out);
  return out;
}

/**
 * Recently read `k:`/`v:` keys with scalar contents (nearly all of them),
 * frozen and shared: every write decodes the managed fields of every
 * manager, and their keys repeat. Bounded; cleared when full.
 */
const parsed = new Map<string, PathElement>();
const PARSED_MAX = 8192;

/** DeserializePathElement: throws with SMD's (and Go's JSON decoder's) wording. */
export function deserializePathElement(s: string): PathElement {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  switch (s[0]) {
    case 'f':
      return { fieldName: s.slice(2) };
    case 'i':
      // Go's Atoi; an index beyond 2^53, which Go would take, is out of range for a JS number.
      return { index: atoi(s.slice(2)) };
    case 'v':
    case 'k':
      return parsed.get(s) ?? remember(s, s[0] === 'v' ? { value: parseJSONText(s.slice(2)) } : { key: keyFields(parseJSONText(s.slice(2))) });
    default:
      throw errUnknownPathElementType;
  }
}

function remember(s: string, pe: PathElement): PathElement {
  const scalars = 'key' in pe ? pe.key.every((f) => !isContainer(f.value)) : 'value' in pe && !isContainer(pe.value);
  if (!scalars || s.length > 1024) return pe;
  if (parsed.size >= PARSED_MAX) parsed.clear();
  if ('key' in pe) for (const f of Object.freeze(pe.key)) Object.freeze(f);
  parsed.set(s, Object.freeze(pe));
  return pe;
}

const isContainer = (v: unknown): boolean => typeof v === 'object' && v !== null;

/** An escaped UTF-16 surrogate: JSON.parse would keep it unpaired where Go's decoder reads U+FFFD. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * One JSON value, with Go's syntax rules and errors (trailing data
 * included). JSON.parse accepts exactly the same texts save unpaired
 * surrogate escapes and nesting past Go's limit; those, and every
 * failure (for the wording), go through Go's scanner.
 */
export function parseJSONText(text: string): unknown {
  if (!SURROGATE_ESCAPE.test(text) && !mayNestTooDeep(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // Worded below.
    }
  }
  const bytes = Buffer.from(text, 'utf8');
  try {
    scanJSON(bytes);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw new Error(err.message, { cause: err });
    throw err;
  }
  return parseJSONBytes(bytes);
}

/** Whether the text has enough brackets to nest past MAX_NESTING_DEPTH. */
function mayNestTooDeep(text: string): boolean {
  return text.length > MAX_NESTING_DEPTH && text.split('[').length + text.split('{').length > MAX_NESTING_DEPTH;
}

/** The fields of a `k:` object, sorted by name; `null` reads as no fields, as SMD's reader allows. */
function keyFields(v: unknown): Field[] {
  if (v === null) return [];
  if (!isJSONObject(v)) throw new Error(`ReadObjectCB: expect { or n, but found ${goJSON(v).slice(0, 1)}`);
  const fields: Field[] = Object.entries(v).map(([name, value]) => ({ name, value }));
  sortFieldList(fields);
  return fields;
}
