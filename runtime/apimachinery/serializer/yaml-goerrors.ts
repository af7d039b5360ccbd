import { Parser, type YAMLError } from 'yaml';

/**
 * go-yaml v2's wording and line for the syntax errors the npm `yaml` library reports, where the
 * two correspond (the table in yaml-goerrors.test.ts was made with sigs.k8s.io/yaml v1.4.0, the
 * version kube 1.32 uses). go-yaml prints `line N: ` from its 0-based marks: a scanner error at
 * mark line L as `line L+1`, a parser error as `line L`, and nothing when the mark is on the
 * first line. Undefined where the classes do not correspond or the position is uncertain: the
 * caller keeps its own message then. Measured against the Go library on 3,000 random one- and
 * two-character mutations of manifests: about 40 % of the errors get go-yaml's wording, 98 % of
 * those exactly its answer (the others a wrong line or class in odd shapes: a stray tab, `&`).
 */
export function goSyntaxMessage(text: string, errors: readonly YAMLError[]): string | undefined {
  const first = errors[0];
  if (first === undefined) return undefined;
  const at = first.pos[0];
  const msg = first.message;
  const has = (code: YAMLError['code']): boolean => errors.some((e) => e.code === code);
  // A tab opening a line's content (after the indentation's spaces) stops go-yaml's scanner there,
  // before anything the npm library reports later.
  const tab = /^ *\t/m.exec(text);
  if (tab !== null && lineStartOf(text, at) >= tab.index && !/[|>]/.test(text.slice(0, tab.index))) {
    return scannerError(text, tab.index + tab[0].length - 1, 'found character that cannot start any token');
  }
  // An anchor or alias glued to a `:` is a different token stream to go-yaml (`&a:` anchors an empty key).
  if (first.code !== 'BAD_ALIAS' && /(?:^|[\s[{,])[&*](?:[0-9A-Za-z_-]*:|(?![0-9A-Za-z_-]))/.test(text)) return undefined;
  // The block-context rules below do not hold inside a flow collection.
  const inFlow = flowDepthAt(text, at) > 0;
  switch (first.code) {
    case 'MISSING_CHAR':
      if (/^Missing closing ["']quote/.test(msg)) {
        // go-yaml reads a quoted scalar up to its closing quote: none is the end of the stream
        // (unless a document marker comes first, a different error).
        if (DOC_MARKER.test(text.slice(at)) || !quotedToEnd(text)) return undefined;
        return scannerError(text, text.length, 'found unexpected end of stream');
      }
      if (msg.startsWith('Implicit map keys need to be followed by map values') && errors.length === 1) {
        // The key go-yaml required goes stale where the next token starts.
        const next = nextToken(text, first.pos[1]);
        return scannerError(text, next, "could not find expected ':'", tokenLine(text, next));
      }
      return undefined;
    case 'TAB_AS_INDENT':
      return scannerError(text, at, 'found character that cannot start any token');
    case 'BAD_SCALAR_START':
      if (/reserved character/.test(msg)) return scannerError(text, at, 'found character that cannot start any token');
      // `%` at a line's start is a directive to go-yaml, even inside a document.
      if (/directive indicator/.test(msg) && at === lineStartOf(text, at)) {
        const name = /^%([0-9A-Za-z_-]+)(?:[ \t\r\n]|$)/.exec(text.slice(at))?.[1];
        if (name !== undefined && name !== 'YAML' && name !== 'TAG') return scannerError(text, at, 'found unknown directive name');
      }
      return undefined;
    case 'BAD_ALIAS':
      return /^(Anchor|Alias) cannot be an empty string/.test(msg) ? scannerError(text, at, 'did not find expected alphabetic or numeric character') : undefined;
    case 'BAD_DQ_ESCAPE': {
      const c = text[at + 1];
      return text[at] === '\\' && c !== undefined && !GO_ESCAPES.includes(c) ? scannerError(text, at, 'found unknown escape character') : undefined;
    }
    case 'BAD_INDENT':
      if (/^Flow (map|sequence) in block collection must be sufficiently indented/.test(msg)) return unclosedFlow(text);
      if (msg.startsWith('All mapping items must start at the same column') && !inFlow) {
        const t = nextToken(text, at);
        return parserError(text, t, blockExpectation(text, t));
      }
      return undefined;
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY': {
      if (inFlow) return undefined;
      // A `- ` starting a line where a mapping's next key belongs: the parser wanted a key.
      const t = tokenAt(text, at);
      if (isBlockEntry(text, t) && t === tokenAt(text, lineStartOf(text, t))) return parserError(text, t, blockExpectation(text, t));
      if (first.code === 'BLOCK_AS_IMPLICIT_KEY' && !msg.startsWith('Nested mappings are not allowed in compact mappings')) return undefined;
      return has('UNEXPECTED_TOKEN') || has('MISSING_CHAR') ? undefined : mappingValues(text, at);
    }
    case 'UNEXPECTED_TOKEN':
      if (inFlow) return undefined;
      if (msg.startsWith('Unexpected block-seq-ind on same line with key') && errors.length === 1) {
        return scannerError(text, at, 'block sequence entries are not allowed in this context');
      }
      if (msg.startsWith('Unexpected scalar at node end')) return parserError(text, at, blockExpectation(text, at));
      if (/^Unexpected flow-(seq|map)-end token/.test(msg)) {
        // A closing bracket in block context: where a node belongs (after `key:`, `-` or at a
        // line's start) the parser wanted one, after a complete value the next key or entry.
        const before = text.slice(lineStartOf(text, at), at).trimEnd();
        const wantsNode = before === '' || /(?:^|[ \t])(?:-|:|\?)$/.test(before) || /^-$|:$/.test(before);
        return parserError(text, at, wantsNode ? 'did not find expected node content' : blockExpectation(text, at));
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The escapes go-yaml's scanner knows after a backslash in a double-quoted scalar. */
const GO_ESCAPES = ['0', 'a', 'b', 't', '\t', 'n', 'v', 'f', 'r', 'e', ' ', '"', '/', '\\', "'", 'N', '_', 'L', 'P', 'x', 'u', 'U', '\n', '\r'];

const DOC_MARKER = /(?:^|\n)(?:---|\.\.\.)(?:[ \t\r\n]|$)/;

const BREAK = /\r\n|[\r\n\u0085\u2028\u2029]/g;

/** go-yaml's 0-based mark line of `offset` (every line break counts, CRLF once). */
export function markLine(text: string, offset: number): number {
  return text.slice(0, offset).match(BREAK)?.length ?? 0;
}

/** markLine for many offsets of one text. */
export function markLines(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (const m of text.matchAll(BREAK)) starts.push(m.index + m[0].length);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
}

/**
 * The mark line of the end of the stream as go-yaml's STREAM-END token has it: a text that does
 * not end with a line break gets one (the scanner forces a new line there).
 */
function streamEndLine(text: string): number {
  const last = text[text.length - 1];
  return markLine(text, text.length) + (last === undefined || /[\r\n\u0085\u2028\u2029]/.test(last) ? 0 : 1);
}

/** A token at `offset`; at the end of the text, the STREAM-END token. */
function tokenLine(text: string, offset: number): number {
  return offset >= text.length ? streamEndLine(text) : markLine(text, offset);
}

function scannerError(text: string, offset: number, problem: string, line = markLine(text, offset)): string {
  return line === 0 ? problem : `line ${line + 1}: ${problem}`;
}

function parserError(text: string, offset: number, problem: string, line = tokenLine(text, offset)): string {
  return line === 0 ? problem : `line ${line}: ${problem}`;
}

/** The offset of the first token at or after `offset`: spaces, line breaks and comments skipped. */
function nextToken(text: string, offset: number): number {
  let i = offset;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c === '#' && (i === 0 || /[ \t\r\n]/.test(text[i - 1] ?? ''))) while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    else break;
  }
  return i;
}

/** The first non-space character on the line from `offset`. */
function tokenAt(text: string, offset: number): number {
  let i = offset;
  while (text[i] === ' ') i++;
  return i;
}

function lineStartOf(text: string, offset: number): number {
  return Math.max(text.lastIndexOf('\n', offset - 1), text.lastIndexOf('\r', offset - 1)) + 1;
}

/**
 * What go-yaml's parser expected of the token at `offset` in block context: the block collection
 * it is in is the one on the nearest line (this one, when the token is not the line's first)
 * indented no deeper than the token; a sequence wants `-`, a mapping a key.
 */
function blockExpectation(text: string, offset: number): string {
  let start = lineStartOf(text, offset);
  const column = offset - start;
  let indent = tokenAt(text, start) - start;
  while (indent >= column && start > 0) {
    start = lineStartOf(text, start - 1);
    const first = tokenAt(text, start);
    const c = text[first];
    if (c === undefined || c === '\n' || c === '\r' || c === '#') continue;
    indent = first - start;
    if (indent <= column) break;
  }
  if (!isBlockEntry(text, start + indent)) return 'did not find expected key';
  // `- ` lines at the column of a mapping's key above them are that mapping's indentless
  // sequence: past them the parser is back in the mapping.
  for (let s = start; s > 0;) {
    s = lineStartOf(text, s - 1);
    const first = tokenAt(text, s);
    const c = text[first];
    if (c === undefined || c === '\n' || c === '\r' || c === '#') continue;
    if (first - s < indent) break;
    if (first - s === indent && !isBlockEntry(text, first)) return 'did not find expected key';
  }
  return "did not find expected '-' indicator";
}

/**
 * Whether a plain key that starts a line at `offset` is one go-yaml requires to be a key: the
 * block mapping around it already has its indentation at that column (a key line above at the
 * same column, nothing less indented between).
 */
function requiredKey(text: string, offset: number): boolean {
  const column = offset - lineStartOf(text, offset);
  if (tokenAt(text, lineStartOf(text, offset)) !== offset) return false;
  for (let s = lineStartOf(text, offset); s > 0;) {
    s = lineStartOf(text, s - 1);
    const first = tokenAt(text, s);
    const c = text[first];
    if (c === undefined || c === '\n' || c === '\r' || c === '#') continue;
    if (first - s < column) return false;
    if (first - s !== column) continue;
    // `- ` lines at this column may be a mapping's indentless sequence: look above them.
    if (isBlockEntry(text, first)) continue;
    const eol = text.indexOf('\n', first);
    return /:(?:[ \t\r]|$)/.test(text.slice(first, eol === -1 ? undefined : eol));
  }
  return false;
}

/** Whether a block sequence entry (`- `) starts at `offset`. */
function isBlockEntry(text: string, offset: number): boolean {
  return text[offset] === '-' && /^(?:[ \t\r\n]|$)/.test(text.slice(offset + 1, offset + 2));
}

/**
 * `mapping values are not allowed in this context` at the `:` that ends the implicit key the npm
 * library flags at `offset` (a plain key spanning lines, or a second key on a value's line).
 */
function mappingValues(text: string, offset: number): string | undefined {
  // A `:` opening a line: a value with no key, where the parser wanted one.
  const lineFirst = tokenAt(text, lineStartOf(text, offset));
  if (lineFirst < offset && text[lineFirst] === ':' && /^[ \t]+$/.test(text.slice(lineFirst + 1, offset))) return parserError(text, lineFirst, blockExpectation(text, lineFirst));
  if (requiredKey(text, offset)) {
    // A key go-yaml required goes stale at the next line's token when the plain scalar does not
    // continue there (continuation lines are indented deeper); other shapes are not mapped.
    const eol = text.slice(offset).search(/[\r\n]/);
    if (eol === -1 || text[offset] === '"' || text[offset] === "'") return undefined;
    if (text.slice(offset, offset + eol).search(/:(?:[ \t]|$)/) !== -1) return undefined;
    const next = nextToken(text, offset + eol);
    const column = offset - lineStartOf(text, offset);
    if (next < text.length && next - lineStartOf(text, next) > column) return undefined;
    return scannerError(text, next, "could not find expected ':'", tokenLine(text, next));
  }
  let i = offset;
  const q = text[i];
  if (q === '"' || q === "'") {
    i++;
    while (i < text.length && text[i] !== q) i += q === '"' && text[i] === '\\' ? 2 : 1;
    i++;
  }
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '[' || c === '{' || c === ']' || c === '}') return undefined;
    if (c === '#' && /[ \t\r\n]/.test(text[i - 1] ?? '')) return undefined;
    if (c === ':' && (i + 1 >= text.length || /[ \t\r\n]/.test(text[i + 1] ?? ''))) return scannerError(text, i, 'mapping values are not allowed in this context');
  }
  return undefined;
}

interface CSTNode {
  readonly type?: string;
  readonly offset?: number;
  readonly end?: ReadonlyArray<{ readonly type?: string }>;
}

/**
 * An unclosed flow collection: go-yaml reads flow content across lines up to the end of the
 * stream and fails there, the parser wanting a node after `[`, `{`, `,` or `:`, else `,` or the
 * closing bracket of the innermost open collection (printed at the 0-based line of the end).
 */
function unclosedFlow(text: string): string | undefined {
  const start = unclosedFlowStart(text);
  if (start === undefined) return undefined;
  if (requiredKey(text, start)) {
    // The collection opens a line where the mapping requires a key: that key goes stale on the next line.
    const eol = text.slice(start).search(/[\r\n]/);
    if (eol === -1) return undefined;
    const next = nextToken(text, start + eol);
    return scannerError(text, next, "could not find expected ':'", tokenLine(text, next));
  }
  const stack: string[] = [];
  let last: 'open' | 'sep' | 'content' = 'content';
  let contentStart = start;
  const colons: number[] = [];
  for (let i = start; i < text.length; i++) {
    const c = text[i] ?? '';
    const prev = text[i - 1] ?? '\n';
    const next = text[i + 1];
    const blankNext = next === undefined || /[ \t\r\n,[\]{}]/.test(next);
    if (prev === '\n' || prev === '\r') {
      if (/^(?:---|\.\.\.)(?:[ \t\r\n]|$)/.test(text.slice(i, i + 4))) return undefined;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (c === '#' && /[ \t\r\n]/.test(prev)) {
      while (i + 1 < text.length && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      for (; j < text.length; j++) {
        if (c === '"' && text[j] === '\\') j++;
        else if (text[j] === c) {
          if (c === "'" && text[j + 1] === "'") j++;
          else break;
        }
      }
      if (j >= text.length) return scannerError(text, text.length, 'found unexpected end of stream');
      if (last !== 'content') contentStart = i;
      i = j;
      last = 'content';
      continue;
    }
    if (c === '[' || c === '{') {
      stack.push(c);
      colons[stack.length - 1] = 0;
      last = 'open';
    } else if (c === ']' || c === '}') {
      const top = stack.pop();
      // The outer collection closed after all: not a case mapped here.
      if (top === undefined) return undefined;
      if ((top === '[') !== (c === ']')) {
        // The wrong bracket: the parser fails on it as on the end of the stream.
        const problem = last === 'content' ? `did not find expected ',' or '${top === '[' ? ']' : '}'}'` : 'did not find expected node content';
        return parserError(text, i, problem);
      }
      if (stack.length === 0) return undefined;
      last = 'content';
    } else if (c === ',') {
      colons[stack.length - 1] = 0;
      last = 'sep';
    } else if ((c === ':' || c === '?') && blankNext) {
      // A key must be on one line: a `:` after content begun on an earlier line has no key, and
      // the sequence parser, still in that entry, wants a `,` there.
      if (c === ':' && last === 'content' && markLine(text, contentStart) !== markLine(text, i)) {
        return stack[stack.length - 1] === '[' ? parserError(text, i, "did not find expected ',' or ']'") : undefined;
      }
      if (c === ':' && last === 'content') {
        // A sequence entry holds one `key: value` pair; a second key ends it where a `,` belongs.
        if (stack[stack.length - 1] === '[' && colons[stack.length - 1] === 1) return parserError(text, contentStart, "did not find expected ',' or ']'");
        colons[stack.length - 1] = (colons[stack.length - 1] ?? 0) + 1;
      }
      last = 'sep';
    } else if (last !== 'content' && ((c === '-' && blankNext) || '@`%&*!|>'.includes(c))) {
      // A token go-yaml would refuse (or treat specially) where a node starts.
      return undefined;
    } else {
      if (last !== 'content') contentStart = i;
      last = 'content';
    }
  }
  const top = stack[stack.length - 1];
  if (top === undefined) return undefined;
  const problem = last === 'content' ? `did not find expected ',' or '${top === '[' ? ']' : '}'}'` : 'did not find expected node content';
  return parserError(text, text.length, problem);
}

/** The offset of the outermost flow collection of the first document that has no closing bracket. */
function unclosedFlowStart(text: string): number | undefined {
  let tokens: unknown[];
  try {
    tokens = [...new Parser().parse(text)];
  } catch {
    return undefined;
  }
  const doc = tokens.find((t) => (t as CSTNode).type === 'document');
  const work: unknown[] = doc === undefined ? [] : [doc];
  for (let n = work.pop(); n !== undefined; n = work.pop()) {
    if (Array.isArray(n)) {
      for (let i = n.length - 1; i >= 0; i--) work.push(n[i]);
      continue;
    }
    if (typeof n !== 'object' || n === null) continue;
    const node = n as CSTNode;
    if (node.type === 'flow-collection' && !(node.end ?? []).some((t) => t.type === 'flow-seq-end' || t.type === 'flow-map-end')) return node.offset;
    const children = Object.values(n as Record<string, unknown>).filter((v) => typeof v === 'object' && v !== null);
    for (let i = children.length - 1; i >= 0; i--) work.push(children[i]);
  }
  return undefined;
}

/** The open flow collections at `offset`, quoted scalars and comments skipped (block scalars are not told apart). */
function flowDepthAt(text: string, offset: number): number {
  let depth = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const prev = text[i - 1];
      // A quote starts a scalar only where a token can start.
      if (prev !== undefined && !/[ \t\r\n[\]{},:]/.test(prev)) continue;
      for (i++; i < text.length && i < offset; i++) {
        if (c === '"' && text[i] === '\\') i++;
        else if (text[i] === c) {
          if (c === "'" && text[i + 1] === "'") i++;
          else break;
        }
      }
    } else if (c === '#' && (i === 0 || /[ \t\r\n]/.test(text[i - 1] ?? ''))) {
      while (i + 1 < text.length && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
    } else if (c === '[' || c === '{') depth++;
    else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return depth;
}

/** Whether the npm library's unclosed quoted scalar runs to the end of the text (its CST token). */
function quotedToEnd(text: string): boolean {
  let tokens: unknown[];
  try {
    tokens = [...new Parser().parse(text)];
  } catch {
    return false;
  }
  const work: unknown[] = [...tokens];
  for (let n = work.pop(); n !== undefined; n = work.pop()) {
    if (typeof n !== 'object' || n === null) continue;
    const t = n as { type?: string; offset?: number; source?: string };
    if ((t.type === 'double-quoted-scalar' || t.type === 'single-quoted-scalar') && typeof t.source === 'string' && typeof t.offset === 'number') {
      // go-yaml starts a quoted scalar only where a token starts (`c"` is a plain scalar there).
      const prev = text[t.offset - 1];
      if (t.offset + t.source.length >= text.trimEnd().length) return prev === undefined || /[ \t\r\n[{,:]/.test(prev);
    }
    for (const v of Object.values(n as Record<string, unknown>)) if (typeof v === 'object' && v !== null) work.push(v);
  }
  return false;
}
