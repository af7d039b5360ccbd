import { isAlias, isMap, isScalar, isSeq, Lexer, parseDocument, type Node, type ScalarTag } from 'yaml';
import { MAX_OBJECT_DEPTH } from './json-scan.js';
import { isJSONObject, setField } from './jsonvalue.js';

/** YAML documents may expand at most this many aliases: a "billion laughs" body fails fast. */
export const MAX_ALIAS_COUNT = 100;

/** A YAML body that cannot become JSON; `message` is worded as sigs.k8s.io/yaml's (`yaml: line 2: …`). */
export class YAMLConversionError extends Error {
  override readonly name = 'YAMLConversionError';
}

export interface YAMLDecoded {
  readonly value: unknown;
  /** Paths of keys repeated within one mapping, as the JSON strict decoder prints them. */
  readonly duplicateFields: string[];
}

/**
 * Decodes a single YAML document into JSON values (yaml.YAMLToJSON): YAML 1.2
 * core schema, merge keys (`<<`) honoured, unknown tags read as their plain
 * value, at most `maxAliasCount` alias expansions, nesting bounded like JSON
 * bodies (`maxDepth`, default MAX_OBJECT_DEPTH).
 * Tags whose values are not JSON end as go-yaml v2 and encoding/json leave
 * them: `!!binary` is the decoded bytes as a string, `!!timestamp` an RFC 3339
 * string, `!!set` a map of nulls, `!!omap` a list of one-key maps.
 * Throws YAMLConversionError for syntax errors, several documents, non-scalar
 * keys, invalid `!!binary` data, non-finite numbers and excessive aliasing or depth.
 */
export function decodeYAML(text: string, opts: { maxAliasCount?: number; maxDepth?: number } = {}): YAMLDecoded {
  // The YAML library composes and converts recursively: nesting it cannot follow must be refused
  // before it starts (near the stack limit V8 may even abort the process compiling a RegExp).
  if (nestingUpperBound(text) > Math.min(opts.maxDepth ?? MAX_OBJECT_DEPTH, MAX_YAML_DEPTH)) throw new YAMLConversionError('yaml: exceeded max depth');
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: false, merge: true, schema: 'core', customTags: [goBinary] });
  } catch (err) {
    throw new YAMLConversionError(err instanceof RangeError ? 'yaml: exceeded max depth' : `yaml: ${messageOf(err)}`);
  }
  const first = doc.errors[0];
  if (first !== undefined) {
    const line = first.linePos?.[0].line;
    const message = firstSentence(first.message);
    // The parser recursed past the native stack: far deeper than any limit.
    if (message.includes('Maximum call stack size exceeded')) throw new YAMLConversionError('yaml: exceeded max depth');
    // go-yaml fails a bad !!binary without a position.
    if (message === INVALID_BINARY) throw new YAMLConversionError(`yaml: ${message}`);
    throw new YAMLConversionError(`yaml: ${line !== undefined ? `line ${line}: ` : ''}${message}`);
  }
  const duplicateFields = duplicateKeys(doc.contents, opts.maxDepth ?? MAX_OBJECT_DEPTH);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: opts.maxAliasCount ?? MAX_ALIAS_COUNT });
  } catch (err) {
    throw new YAMLConversionError(err instanceof RangeError ? 'yaml: exceeded max depth' : `yaml: ${messageOf(err)}`);
  }
  value = toJSONCompatible(value, opts.maxDepth ?? MAX_OBJECT_DEPTH);
  return { value: value === undefined ? null : value, duplicateFields };
}

/**
 * YAML nests at most this deep here (half of MAX_OBJECT_DEPTH): the library's
 * recursion uses several frames a level, and must stay far from the stack limit.
 */
export const MAX_YAML_DEPTH = 500;

/**
 * An upper bound of a YAML text's nesting, from its tokens (the library's
 * lexer: a linear state machine, no recursion): open flow collections, plus,
 * outside them, the line's indentation and its `-`, `?` and `:` indicators
 * (a nested block collection is indented deeper or opened on the same line
 * by an indicator). Scalars, quoted or block, are single tokens and never count.
 */
function nestingUpperBound(text: string): number {
  let flow = 0;
  let indent = 0;
  let indicators = 0;
  let lineStart = true;
  let max = 0;
  for (const tok of new Lexer().lex(text)) {
    if (tok === '[' || tok === '{') flow++;
    else if (tok === ']' || tok === '}') flow = Math.max(0, flow - 1);
    else if (tok.startsWith('\n') || tok.startsWith('\r')) {
      lineStart = true;
      indent = 0;
      indicators = 0;
      continue;
    } else if (lineStart && tok.startsWith(' ')) indent = tok.length;
    else if (flow === 0 && (tok === '-' || tok === '?' || tok === ':')) indicators++;
    lineStart = false;
    max = Math.max(max, flow + indent + indicators + 1);
  }
  return max;
}

/** go-yaml's error for a `!!binary` value that is not standard padded base64 (line breaks aside). */
const INVALID_BINARY = '!!binary value contains invalid base64 data';

/** go-yaml's `!!binary`: strict standard base64 (line breaks ignored), read as a Go string of the bytes. */
const goBinary: ScalarTag = {
  tag: 'tag:yaml.org,2002:binary',
  default: false,
  identify: () => false,
  resolve(src: string): string {
    const b64 = src.replace(/[\r\n]/g, '');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) throw new Error(INVALID_BINARY);
    return Buffer.from(b64, 'base64').toString('utf8');
  },
};

/** Walks the document without recursion: duplicate keys by path, non-scalar keys rejected. */
function duplicateKeys(root: unknown, maxDepth: number): string[] {
  const dups: string[] = [];
  const work: Array<{ node: unknown; path: string; depth: number }> = [{ node: root, path: '', depth: 0 }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { node, path, depth } = item;
    if (isAlias(node)) continue;
    if ((isMap(node) || isSeq(node)) && depth >= maxDepth) throw new YAMLConversionError('yaml: exceeded max depth');
    if (isSeq(node)) {
      node.items.forEach((child, i) => work.push({ node: child, path: `${path}[${i}]`, depth: depth + 1 }));
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (key !== null && !isScalar(key) && !isAlias(key)) throw new YAMLConversionError('yaml: unsupported map key: only scalar keys are allowed');
        const name = key === null ? '' : isScalar(key) ? String(key.value) : String(key.toJSON());
        if (name === '<<') continue;
        const child = path === '' ? name : `${path}.${name}`;
        if (seen.has(name)) {
          if (!dups.includes(child)) dups.push(child);
        } else {
          seen.add(name);
        }
        work.push({ node: pair.value, path: child, depth: depth + 1 });
      }
    }
  }
  return dups;
}

/**
 * The decoded value with every non-JSON value replaced by what encoding/json
 * makes of go-yaml's (a Date, a Set of `!!set`, a Map of `!!omap`); rejects
 * non-finite numbers and nesting past `maxDepth`. Iterative.
 */
export function toJSONCompatible(value: unknown, maxDepth: number): unknown {
  const root = { v: value };
  const work: Array<[holder: Record<string, unknown> | unknown[], key: string | number, depth: number]> = [[root, 'v', 0]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [holder, key, depth] = item;
    let v = (holder as Record<string | number, unknown>)[key];
    if (typeof v === 'number' && !Number.isFinite(v)) throw new YAMLConversionError(`json: unsupported value: ${v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN'}`);
    if (typeof v !== 'object' || v === null) continue;
    if (v instanceof Date) v = goTimeJSON(v);
    else if (v instanceof Set) v = Object.fromEntries([...v].map((k) => [String(k), null]));
    else if (v instanceof Map) v = [...v].map(([k, x]) => Object.fromEntries([[String(k), x]]));
    else if (!Array.isArray(v) && !isJSONObject(v)) v = String(v);
    if (Array.isArray(holder)) holder[key as number] = v;
    else setField(holder, key as string, v);
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) throw new YAMLConversionError('yaml: exceeded max depth');
    if (Array.isArray(v)) v.forEach((_, i) => work.push([v as unknown[], i, depth + 1]));
    else for (const k of Object.keys(v)) work.push([v as Record<string, unknown>, k, depth + 1]);
  }
  return root.v;
}

/** time.Time's JSON: RFC 3339 with the fraction's trailing zeros dropped (RFC3339Nano), in UTC. */
function goTimeJSON(d: Date): string {
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace(/\.?0+Z$/, 'Z');
}

function firstSentence(message: string): string {
  return message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? message;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? firstSentence(err.message) : String(err);
}
