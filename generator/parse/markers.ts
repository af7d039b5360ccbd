import type { DiagnosticSink } from '../model/diagnostics.js';
import type { ParsedComment } from './comments.js';
import { DOCUMENTATION_TAGS, type KeySpec, type MarkerArgs, type MarkerName, type MarkerSite, VOCABULARY } from './vocabulary.js';

/** The value of a `fieldNumber` marker: `@protobuf 9 pointer` → {number: 9, flags: ['pointer']}. */
export interface FieldNumber {
  readonly number: number;
  readonly flags: readonly string[];
}

export interface KeyValues {
  readonly positional: string | undefined;
  readonly values: Readonly<Record<string, string | number | readonly string[]>>;
}

type ValueOf<A extends MarkerArgs> = A extends { kind: 'flag' }
  ? true
  : A extends { kind: 'string' | 'oneOf' }
    ? string
    : A extends { kind: 'number' | 'integer' }
      ? number
      : A extends { kind: 'list' }
        ? readonly string[]
        : A extends { kind: 'keyValues' }
          ? KeyValues
          : A extends { kind: 'fieldNumber' }
            ? FieldNumber
            : unknown;

export type MarkerValue<N extends MarkerName> = ValueOf<(typeof VOCABULARY)[N]['args']>;

export interface Marker<N extends MarkerName> {
  readonly name: N;
  readonly value: MarkerValue<N>;
  readonly line: number;
  readonly column: number;
}

/** The decoded markers of one declaration. */
export class Markers {
  static readonly empty = new Markers([]);

  constructor(private readonly items: readonly Marker<MarkerName>[]) {}

  has(name: MarkerName): boolean {
    return this.items.some((m) => m.name === name);
  }

  one<N extends MarkerName>(name: N): Marker<N> | undefined {
    return this.items.find((m) => m.name === name) as Marker<N> | undefined;
  }

  all<N extends MarkerName>(name: N): readonly Marker<N>[] {
    return this.items.filter((m) => m.name === name) as Marker<N>[];
  }

  get names(): readonly MarkerName[] {
    return this.items.map((m) => m.name);
  }
}

/**
 * Decodes the tags of `comment` as markers allowed at `site`. Unknown tags,
 * tags at the wrong site and malformed arguments are reported to `sink` as
 * `file:line: marker @name: …` and left out of the result.
 */
export function decodeMarkers(comment: ParsedComment, site: MarkerSite, file: string, sink: DiagnosticSink): Markers {
  const out: Marker<MarkerName>[] = [];
  for (const tag of comment.tags) {
    if (DOCUMENTATION_TAGS.has(tag.name)) continue;
    const location = { file, line: tag.line, column: tag.column };
    if (!Object.hasOwn(VOCABULARY, tag.name)) {
      sink.error(location, `marker @${tag.name}: unknown marker${suggest(tag.name)}`);
      continue;
    }
    const name = tag.name as MarkerName;
    const spec = VOCABULARY[name];
    if (!(spec.sites as readonly MarkerSite[]).includes(site)) {
      sink.error(location, `marker @${name}: not allowed on a ${siteLabel(site)} (allowed on: ${spec.sites.map(siteLabel).join(', ')})`);
      continue;
    }
    if (!spec.repeatable && out.some((m) => m.name === name)) {
      sink.error(location, `marker @${name}: given more than once`);
      continue;
    }
    const decoded = decodeArgs(spec.args, tag.text);
    if (typeof decoded === 'string') {
      sink.error(location, `marker @${name}: ${decoded}`);
      continue;
    }
    out.push({ name, value: decoded.value as never, line: tag.line, column: tag.column });
  }
  return new Markers(out);
}

function siteLabel(site: MarkerSite): string {
  return { package: 'package (doc.ts)', kind: 'kind', type: 'type', field: 'field' }[site];
}

/** Returns the decoded value, or a message saying what is wrong. */
function decodeArgs(args: MarkerArgs, text: string): { value: unknown } | string {
  switch (args.kind) {
    case 'flag':
      return text === '' || text === 'true' ? { value: true } : `takes no argument, got "${text}"`;
    case 'string': {
      if (text === '') return 'needs a value';
      if (text.startsWith('"')) {
        const parsed = parseJSON(text);
        return typeof parsed === 'string' ? { value: parsed } : 'a quoted value must be a JSON string';
      }
      return { value: text };
    }
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) return `needs a number, got "${text}"`;
      if (args.kind === 'integer' && !Number.isInteger(n)) return `needs an integer, got "${text}"`;
      return { value: n };
    }
    case 'json': {
      if (text === '') return 'needs a JSON value';
      const parsed = parseJSON(text);
      // A bare word that is not JSON is taken as a string, as Go's +default=Foo is.
      return { value: parsed === undefined ? (/^[\w.-]+$/.test(text) ? text : undefined) : parsed };
    }
    case 'list': {
      const items = splitList(text);
      return items.length === 0 ? 'needs at least one item' : { value: items };
    }
    case 'oneOf':
      return args.values.includes(text) ? { value: text } : `must be one of ${args.values.join(', ')}, got "${text}"`;
    case 'keyValues':
      return decodeKeyValues(args.positional, args.keys, text);
    case 'fieldNumber':
      return decodeFieldNumber(args.flags, text);
  }
}

/** Protobuf reserves 19000-19999 for its own use; numbers end at 2^29-1. */
const MAX_FIELD_NUMBER = 536_870_911;

function decodeFieldNumber(flags: readonly string[], text: string): { value: FieldNumber } | string {
  const [first, ...rest] = text.split(/\s+/).filter((w) => w !== '');
  if (first === undefined) return 'needs a field number';
  const n = Number(first);
  if (!/^\d+$/.test(first) || n < 1 || n > MAX_FIELD_NUMBER) return `field number must be an integer from 1 to ${MAX_FIELD_NUMBER}, got "${first}"`;
  if (n >= 19000 && n <= 19999) return `field number ${n} is in the range 19000-19999 that protobuf reserves`;
  for (const [i, word] of rest.entries()) {
    if (!flags.includes(word)) return `unknown flag "${word}" (known: ${flags.join(', ')})`;
    if (rest.indexOf(word) !== i) return `flag "${word}" given twice`;
  }
  return { value: { number: n, flags: rest } };
}

function decodeKeyValues(positional: readonly string[] | undefined, keys: Readonly<Record<string, KeySpec>>, text: string): { value: KeyValues } | string {
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return tokens;
  let first: string | undefined;
  const values: Record<string, string | number | readonly string[]> = {};
  for (const [i, token] of tokens.entries()) {
    if (token.key === undefined) {
      if (i === 0 && positional !== undefined) {
        if (!positional.includes(token.value)) return `must start with one of ${positional.join(', ')}, got "${token.value}"`;
        first = token.value;
        continue;
      }
      return `expected key=value, got "${token.value}"`;
    }
    const spec = keys[token.key];
    if (spec === undefined) return `unknown argument "${token.key}" (known: ${Object.keys(keys).join(', ')})`;
    if (Object.hasOwn(values, token.key)) return `argument "${token.key}" given twice`;
    if (spec.type === 'integer') {
      const n = Number(token.value);
      if (!Number.isInteger(n)) return `argument "${token.key}" needs an integer, got "${token.value}"`;
      values[token.key] = n;
    } else {
      values[token.key] = spec.type === 'list' ? splitList(token.value) : token.value;
    }
  }
  if (positional !== undefined && first === undefined) return `must start with one of ${positional.join(', ')}`;
  for (const [key, spec] of Object.entries(keys)) {
    if (spec.required && !Object.hasOwn(values, key)) return `missing argument "${key}"`;
  }
  return { value: { positional: first, values } };
}

interface Token {
  readonly key: string | undefined;
  readonly value: string;
}

/** `a=b c="d e" f` → [{a,b}, {c,"d e"}, {undefined,f}]; quoted values use JSON string escapes. */
function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const keyMatch = /^([A-Za-z][\w]*)=/.exec(text.slice(i));
    const key = keyMatch?.[1];
    if (keyMatch !== null) i += keyMatch[0].length;
    if (text[i] === '"') {
      const end = closingQuote(text, i);
      if (end < 0) return 'unterminated quoted value';
      const parsed = parseJSON(text.slice(i, end + 1));
      if (typeof parsed !== 'string') return 'malformed quoted value';
      tokens.push({ key, value: parsed });
      i = end + 1;
    } else {
      const start = i;
      while (i < text.length && !/\s/.test(text[i]!)) i++;
      tokens.push({ key, value: text.slice(start, i) });
    }
  }
  return tokens;
}

function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function splitList(text: string): string[] {
  return text
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function suggest(name: string): string {
  const known = Object.keys(VOCABULARY);
  const lower = name.toLowerCase();
  const best = known.map((k) => ({ k, d: distance(k.toLowerCase(), lower) })).sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))[0];
  return best !== undefined && best.d <= 2 ? ` (did you mean @${best.k}?)` : '';
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}
