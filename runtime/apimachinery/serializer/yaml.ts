import { Composer, isAlias, isMap, isPair, isScalar, isSeq, Lexer, Parser, type Document, type Node, type Pair, type Scalar, type ScalarTag } from 'yaml';
import { MAX_OBJECT_DEPTH } from './json-scan.js';
import { isJSONObject, setField } from './jsonvalue.js';
import { goSyntaxMessage, markLines } from './yaml-goerrors.js';
import { GoDecodeError, goKeyString, resolvePlain, resolveTagged, type GoResolved } from './yaml-resolve.js';

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
  /**
   * go-yaml's strict errors for the same (`line 7: key "image" already set in map`), in its
   * order: what sigs.k8s.io/yaml's YAMLToJSONStrict reports as `yaml: unmarshal errors:\n  …`.
   */
  readonly duplicateKeys: string[];
}

/**
 * Decodes the first YAML document of `text` into JSON values as sigs.k8s.io/yaml's YAMLToJSON
 * (go-yaml v2) does: later documents are not read; plain scalars resolve by go-yaml's YAML 1.1
 * rules (yaml-resolve.ts: `yes`/`on` true, `010` octal, `0x1F`, `1_000`, `1e400` a string),
 * quoted scalars are strings, merge keys (`<<`) are honoured, standard explicit tags are checked
 * as go-yaml checks them (`!!int x` fails), other tags leave their scalar's text, at most
 * `maxAliasCount` alias expansions, nesting bounded like JSON bodies (`maxDepth`, default
 * MAX_OBJECT_DEPTH). `!!binary` is the decoded bytes as a string, `!!set` a map of nulls,
 * `!!omap` a list of one-key maps; map keys become strings as sigs.k8s.io/yaml makes them.
 * Throws YAMLConversionError, worded as go-yaml where the error classes correspond
 * (yaml-goerrors.ts), for syntax errors, non-scalar keys, invalid `!!binary` data, non-finite
 * numbers, unknown anchors and excessive aliasing or depth.
 */
export function decodeYAML(text: string, opts: { maxAliasCount?: number; maxDepth?: number } = {}): YAMLDecoded {
  const maxDepth = opts.maxDepth ?? MAX_OBJECT_DEPTH;
  // The YAML library composes and converts recursively: nesting it cannot follow must be refused
  // before it starts (near the stack limit V8 may even abort the process compiling a RegExp).
  if (nestingUpperBound(text) > Math.min(maxDepth, MAX_YAML_DEPTH)) throw new YAMLConversionError('yaml: exceeded max depth');
  let doc: Document.Parsed;
  try {
    doc = firstDocument(text);
  } catch (err) {
    throw new YAMLConversionError(err instanceof RangeError ? 'yaml: exceeded max depth' : `yaml: ${messageOf(err)}`);
  }
  // go-yaml's Unmarshal stops after the document's root node: behind a root flow collection
  // (`{"a":1}}`, JSON followed by anything) nothing more is parsed.
  const root = doc.contents;
  if ((isMap(root) || isSeq(root)) && root.flow === true && root.range !== undefined && root.range !== null) {
    const end = root.range[1];
    if (doc.errors.length > 0 && doc.errors.every((e) => e.pos[0] >= end)) doc.errors.length = 0;
  }
  const first = doc.errors[0];
  // go-yaml's reader refuses characters YAML does not allow before anything is parsed there.
  const control = NON_PRINTABLE.exec(text);
  if (control !== null && (first === undefined || control.index <= first.pos[0])) throw new YAMLConversionError('yaml: control characters are not allowed');
  if (first !== undefined) {
    const message = firstSentence(first.message);
    // The parser recursed past the native stack: far deeper than any limit.
    if (message.includes('Maximum call stack size exceeded')) throw new YAMLConversionError('yaml: exceeded max depth');
    // go-yaml fails a bad !!binary without a position.
    if (message === INVALID_BINARY) throw new YAMLConversionError(`yaml: ${message}`);
    const go = goSyntaxMessage(text, doc.errors);
    throw new YAMLConversionError(`yaml: ${go ?? `line ${lineNumber(text, first.pos[0])}: ${message}`}`);
  }
  const keys = resolveScalars(doc, text, maxDepth);
  const duplicateFields = duplicateKeys(doc.contents, maxDepth);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: opts.maxAliasCount ?? MAX_ALIAS_COUNT });
  } catch (err) {
    if (err instanceof RangeError) throw new YAMLConversionError('yaml: exceeded max depth');
    const message = messageOf(err);
    if (message.startsWith('Excessive alias count')) throw new YAMLConversionError('yaml: document contains excessive aliasing');
    // go-yaml's anchor names are letters, digits, `_` and `-`: another name is a syntax error there.
    const unresolved = BAD_ANCHOR.test(text) ? null : /^Unresolved alias[^:]*: ([0-9A-Za-z_-]+)$/.exec(message);
    throw new YAMLConversionError(unresolved !== null ? `yaml: unknown anchor '${unresolved[1]}' referenced` : `yaml: ${message}`);
  }
  value = toJSONCompatible(value, maxDepth);
  return { value: value === undefined ? null : value, duplicateFields, duplicateKeys: goDuplicateKeys(doc, text, keys) };
}

/** Characters outside YAML's printable set (go-yaml's reader: `control characters are not allowed`). */
// eslint-disable-next-line no-control-regex
const NON_PRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f\ud800-\udfff\ufffe\uffff]/u;

/** The first document only, as go-yaml's Unmarshal reads it: later documents are never parsed. */
function firstDocument(text: string): Document.Parsed {
  const composer = new Composer({ uniqueKeys: false, merge: true, schema: 'core', customTags: [goBinary, goTimestamp] });
  for (const doc of composer.compose(new Parser().parse(text), true, text.length)) return doc;
  throw new Error('no document');
}

/** 1-based line of an offset, counting `\n` as the YAML library's LineCounter does. */
function lineNumber(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** An anchor or alias go-yaml's scanner refuses (an empty name, or one another character ends): it fails there first. */
const BAD_ANCHOR = /(?:^|[\s[{,])[&*](?:[0-9A-Za-z_-]*[^0-9A-Za-z_\-\s?:,\]}%@`]|(?![0-9A-Za-z_-]))/;

const STANDARD_TAGS = /^tag:yaml\.org,2002:(str|int|float|bool|null|timestamp)$/;

/**
 * Gives every scalar go-yaml's value (yaml-resolve.ts) and every map key the string
 * sigs.k8s.io/yaml makes of it; returns each key's resolved value, for the strict duplicate check.
 * Fails as go-yaml does for tagged scalars it cannot decode and for aliases to unknown anchors.
 */
function resolveScalars(doc: Document.Parsed, text: string, maxDepth: number): Map<Scalar, GoResolved> {
  const keys = new Map<Scalar, GoResolved>();
  const work: Array<{ node: unknown; key: boolean; depth: number }> = [{ node: doc.contents, key: false, depth: 0 }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { node, key, depth } = item;
    if (depth > maxDepth) continue;
    if (isAlias(node)) {
      if (node.resolve(doc) === undefined && /^[0-9A-Za-z_-]+$/.test(node.source) && !BAD_ANCHOR.test(text)) throw new YAMLConversionError(`yaml: unknown anchor '${node.source}' referenced`);
    } else if (isScalar(node)) {
      let r: GoResolved | undefined;
      try {
        r = goScalar(node);
      } catch (err) {
        if (err instanceof GoDecodeError) throw new YAMLConversionError(`yaml: ${err.message}`);
        throw err;
      }
      if (r === undefined) continue;
      if (key) {
        keys.set(node, r);
        const s = goKeyString(r);
        if (s !== undefined) node.value = s;
      } else {
        node.value = r.value;
      }
    } else if (isPair(node)) {
      // The pairs of !!omap and !!pairs, held by a sequence.
      work.push({ node: node.value, key: false, depth: depth + 1 });
      work.push({ node: node.key, key: true, depth: depth + 1 });
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) work.push({ node: node.items[i], key: false, depth: depth + 1 });
    } else if (isMap(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) {
        const pair = node.items[i] as Pair<unknown, unknown>;
        work.push({ node: pair.value, key: false, depth: depth + 1 });
        work.push({ node: pair.key, key: true, depth: depth + 1 });
      }
    }
  }
  return keys;
}

/** go-yaml's value of a scalar node; undefined where the library's value stands (`!!binary`). */
function goScalar(node: Scalar): GoResolved | undefined {
  const source = node.source ?? (typeof node.value === 'string' ? node.value : undefined);
  if (source === undefined) return undefined;
  const tag = node.tag;
  if (tag === undefined) return node.type === 'PLAIN' || node.type === undefined ? resolvePlain(source) : { tag: '!!str', value: source };
  if (tag === 'tag:yaml.org,2002:binary') return undefined;
  if (STANDARD_TAGS.test(tag)) return resolveTagged(tag, source);
  // Other tags (`!`, `!foo`, `!!set` on a scalar): go-yaml keeps the text.
  return { tag: '!!str', value: source };
}

/**
 * go-yaml's strict decode errors for repeated keys, in the order it finds them: depth first
 * through the document, aliases followed (a repeat inside an anchored mapping is reported for
 * each use), merged mappings (`<<`, a list of them from its last) checked against the keys
 * already set, a pair's value before its key's repeat; each at the line of the pair's value.
 * Keys repeat when their go values are equal (`1` and `"1"` differ).
 */
function goDuplicateKeys(doc: Document.Parsed, text: string, keys: ReadonlyMap<Scalar, GoResolved>): string[] {
  const lineOf = markLines(text);
  const out: string[] = [];
  let budget = 200_000;
  const visit = (node: unknown, depth: number): void => {
    if (--budget < 0 || depth > MAX_YAML_DEPTH || out.length >= 1000) return;
    if (isAlias(node)) visit(node.resolve(doc), depth + 1);
    else if (isSeq(node)) for (const item of node.items) visit(item, depth + 1);
    else if (isMap(node)) visitMap(node.items as Array<Pair<unknown, unknown>>, new Set<string>(), depth);
  };
  const visitMap = (pairs: ReadonlyArray<Pair<unknown, unknown>>, seen: Set<string>, depth: number): void => {
    for (const pair of pairs) {
      if (budget < 0) return;
      const key = pair.key;
      const resolved = isScalar(key) ? keys.get(key) : undefined;
      if (resolved?.tag === '!!merge') {
        merge(pair.value, seen, depth + 1);
        continue;
      }
      visit(pair.value, depth + 1);
      if (resolved === undefined || (typeof resolved.value === 'number' && Number.isNaN(resolved.value))) continue;
      const id = `${resolved.tag === '!!timestamp' ? '!!str' : resolved.tag}:${String(resolved.value)}`;
      if (!seen.has(id)) {
        seen.add(id);
        continue;
      }
      const value = pair.value as Node | null;
      const at = value !== null && value.range !== undefined && value.range !== null && value.range[1] > value.range[0] ? value.range[0] : ((key as Node).range?.[1] ?? 0);
      out.push(`line ${lineOf(at) + 1}: key ${goRepr(resolved)} already set in map`);
    }
  };
  const merge = (value: unknown, seen: Set<string>, depth: number): void => {
    const target = isAlias(value) ? value.resolve(doc) : value;
    if (isMap(target)) visitMap(target.items as Array<Pair<unknown, unknown>>, seen, depth + 1);
    else if (isSeq(target)) {
      for (let i = target.items.length - 1; i >= 0; i--) {
        const item = target.items[i];
        const m = isAlias(item) ? item.resolve(doc) : item;
        if (isMap(m)) visitMap(m.items as Array<Pair<unknown, unknown>>, seen, depth + 1);
      }
    }
  };
  visit(doc.contents, 0);
  return out;
}

/** A decoded YAML value as Go's %#v prints go-yaml's (`[]interface {}{1, "a"}`, `map[interface {}]interface {}{"a":1}`). */
function goSharpV(v: unknown, nested = false): string {
  if (v === null || v === undefined) return nested ? 'interface {}(nil)' : '<nil>';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, true)).join(', ')}}`;
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[interface {}]interface {}{${entries.map(([k, x]) => `${JSON.stringify(k)}:${goSharpV(x, true)}`).join(', ')}}`;
}

/** A key as Go's %#v prints it: strings quoted, numbers and booleans bare. */
function goRepr(r: GoResolved): string {
  const v = r.value;
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return '<nil>';
  if (r.tag === '!!int' && typeof v === 'number' && v > 2 ** 63) return `0x${BigInt(v).toString(16)}`;
  return String(v);
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

/** `!!timestamp`: checked by go-yaml's rules in resolveScalars; the library only keeps the text. */
const goTimestamp: ScalarTag = {
  tag: 'tag:yaml.org,2002:timestamp',
  default: false,
  identify: () => false,
  resolve: (src: string): string => src,
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
        // go-yaml refuses a sequence or mapping key, printing it with %#v.
        if (key !== null && !isScalar(key) && !isAlias(key)) {
          // In a flow mapping go-yaml's parser refuses such a key before its decoder does.
          throw new YAMLConversionError(node.flow === true ? 'yaml: unsupported map key: only scalar keys are allowed' : `yaml: invalid map key: ${goSharpV((key as { toJSON(): unknown }).toJSON())}`);
        }
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
    if (typeof v === 'number' && !Number.isFinite(v)) throw new YAMLConversionError(`json: unsupported value: ${goFloatName(firstNonFinite(root.v, maxDepth) ?? v)}`);
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

function goFloatName(v: number): string {
  return v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN';
}

/** The non-finite number json.Marshal meets first: arrays in order, map keys sorted. */
function firstNonFinite(value: unknown, maxDepth: number): number | undefined {
  const work: Array<[unknown, number]> = [[value, 0]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [v, depth] = item;
    if (typeof v === 'number' && !Number.isFinite(v)) return v;
    if (typeof v !== 'object' || v === null || depth >= maxDepth) continue;
    const children = Array.isArray(v)
      ? v
      : v instanceof Map || v instanceof Set || v instanceof Date
        ? []
        : Object.keys(v)
            .sort()
            .map((k) => (v as Record<string, unknown>)[k]);
    for (let i = children.length - 1; i >= 0; i--) work.push([children[i], depth + 1]);
  }
  return undefined;
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
