import type { Environment } from '@marcbachmann/cel-js';
import { kubeTypeNames } from './environment.js';
import { codePointOffset, displayErrors, type GoError } from './issues.js';

export { displayErrors, type GoError } from './issues.js';

/**
 * Compile errors in cel-go's words (v0.22.0, the version Kubernetes 1.32 builds with): what
 * kube puts after "compilation failed: " is cel-go's Issues.String(), each error as
 * common.Error.ToDisplayString prints it:
 *
 *   ERROR: <input>:LINE:COL: <message>
 *    | <the source line, tabs as spaces>
 *    | <one '.' per code point before the column (U+FF0E for a multi-byte one)>^
 *
 * several joined by newlines, sorted by position. cel-js stops at its first error and words it
 * its own way; this maps the classes whose cel-go text is known (checker/errors.go, the parser's
 * own errors, the ANTLR errors whose text is certain) and places them where cel-go does: at the
 * token a node's id is created from (parser/parser.go: an operator, the '.' of a selection, the
 * '(' of a call, the '[' of an index). Other errors keep cel-js's message in the same frame.
 */

interface Node {
  readonly op: string;
  readonly args: unknown;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
  readonly checkedType?: { readonly name: string };
}

interface CelJsError {
  readonly name?: string;
  readonly code?: string;
  readonly summary?: string;
  readonly message?: string;
  readonly node?: Node;
  readonly range?: { readonly start: number; readonly end: number };
}

/** cel-go's function names of operators (common/operators). */
const OPERATOR_FUNCTIONS: Readonly<Record<string, string>> = {
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  in: '@in',
  '!_': '!_',
  '-_': '-_',
  '[]': '_[_]',
  '[?]': '_[?_]',
  '?:': '_?_:_',
};

/** The rule's compile errors as cel-go's Issues.String() would print them. */
export function goCompileErrors(env: Environment, source: string, error: unknown): string {
  return displayErrors(source, goErrors(env, source, error as CelJsError));
}

/** A regex literal given to matches() that does not compile (cel.ValidateRegexLiterals). */
export function goInvalidMatchesArgument(source: string, literal: Node): string {
  return displayErrors(source, [{ offset: codePointOffset(source, literal.start), message: 'invalid matches argument' }]);
}

function goErrors(env: Environment, src: string, err: CelJsError): GoError[] {
  const summary = err.summary ?? err.message ?? String(err);
  const node = err.node;
  const at = (index: number): number => codePointOffset(src, index);
  if (err.name === 'ParseError') {
    const syntax = syntaxErrors(env, src, err);
    if (syntax !== undefined) return syntax;
    const pos = node?.pos ?? err.range?.start;
    return [{ offset: pos === undefined ? undefined : at(pos), message: summary }];
  }
  if (node === undefined) return [{ offset: undefined, message: summary }];
  const root = parseRoot(env, src);
  const typeName = (n: unknown): string => goTypeName(env, (n as Node | undefined)?.checkedType?.name ?? 'dyn');
  const args = node.args as unknown[];
  switch (err.code) {
    case 'no_such_key':
      if (node.op === '.' || node.op === '.?') return [{ offset: at(goPosition(src, node)), message: `undefined field '${String(args[1])}'` }];
      if (node.op === '[]' || node.op === '[?]') return [overload(src, node, OPERATOR_FUNCTIONS[node.op]!, [typeName(args[0]), typeName(args[1])])];
      break;
    case 'unknown_variable':
      return [{ offset: at(goPosition(src, node)), message: `undeclared reference to '${String(node.args)}' (in container '')` }];
    case 'cannot_index_type':
      if (node.op === '.' || node.op === '.?') return [{ offset: at(goPosition(src, node)), message: `type '${typeName(args[0])}' does not support field selection` }];
      if (node.op === '[]' || node.op === '[?]') return [overload(src, node, OPERATOR_FUNCTIONS[node.op]!, [typeName(args[0]), typeName(args[1])])];
      break;
    case 'invalid_index_type':
      if (node.op === '[]' || node.op === '[?]') return [overload(src, node, OPERATOR_FUNCTIONS[node.op]!, [typeName(args[0]), typeName(args[1])])];
      break;
    case 'no_such_overload': {
      const fn = OPERATOR_FUNCTIONS[node.op];
      if (fn === undefined) break;
      const operands = node.op === '!_' || node.op === '-_' ? [typeName(node.args)] : [typeName(args[0]), typeName(args[1])];
      return [overload(src, node, fn, operands)];
    }
    case 'no_matching_overload': {
      if (node.op === 'call') {
        const [name, callArgs] = node.args as [string, unknown[]];
        if (!declaresFunction(env, name)) return [{ offset: at(goPosition(src, node)), message: `undeclared reference to '${name}' (in container '')` }];
        return [overload(src, node, name, callArgs.map(typeName))];
      }
      if (node.op === 'rcall') {
        const [name, receiver, callArgs] = node.args as [string, unknown, unknown[]];
        if (!declaresFunction(env, name)) return [{ offset: at(goPosition(src, node)), message: `undeclared reference to '${name}' (in container '')` }];
        return [{ offset: at(goPosition(src, node)), message: `found no matching overload for '${name}' applied to '${typeName(receiver)}.(${callArgs.map(typeName).join(', ')})'` }];
      }
      break;
    }
    case 'invalid_logical_operand':
      if (node.op === '&&' || node.op === '||') {
        // cel-go checks every operand (checker.go resolveOverload): each non-bool one is reported.
        const out: GoError[] = [];
        for (const operand of args as Node[]) {
          const t = operand.checkedType?.name ?? 'dyn';
          if (t !== 'bool' && t !== 'dyn') out.push({ offset: at(goPosition(src, operand)), message: `expected type 'bool' but found '${goTypeName(env, t)}'` });
        }
        if (out.length > 0) return out;
      }
      break;
    case 'incompatible_ternary_branches':
      if (node.op === '?:') return [overload(src, node, '_?_:_', (args as Node[]).map(typeName))];
      break;
    case 'invalid_condition_type': {
      const parent = root === undefined ? undefined : parentOf(root, node);
      if (parent?.op === '?:' && sameNode((parent.args as unknown[])[0], node)) {
        // cel-js stops at the condition; cel-go types the branches too (checked here on their own).
        const [, ...branches] = parent.args as Node[];
        const branchTypes = branches.map((b) => standaloneType(env, src.slice(b.start, b.end)));
        if (branchTypes.every((t) => t !== undefined)) return [overload(src, parent, '_?_:_', [typeName(node), ...branchTypes.map((t) => goTypeName(env, t!))])];
      }
      break;
    }
    case 'invalid_comprehension_range':
      return [{ offset: at(goPosition(src, node)), message: `expression of type '${typeName(node)}' cannot be range of a comprehension (must be list, map, or dynamic)` }];
    case 'invalid_macro_argument': {
      // has(x) whose argument is not a selection (parser/macro.go MakeHas): a parse error at the argument.
      const parent = root === undefined ? undefined : parentOf(root, node);
      if (parent?.op === 'call' && (parent.args as [string, unknown[]])[0] === 'has' && sameNode((parent.args as [string, unknown[]])[1][0], node)) {
        return [{ offset: at(goPosition(src, node)), message: 'invalid argument to has() macro' }];
      }
      break;
    }
  }
  return [{ offset: at(goPosition(src, node)), message: summary }];
}

function overload(src: string, node: Node, fn: string, types: readonly string[]): GoError {
  return { offset: codePointOffset(src, goPosition(src, node)), message: `found no matching overload for '${fn}' applied to '(${types.join(', ')})'` };
}

/** The syntax errors cel-go reports, for the classes whose ANTLR text is certain; undefined otherwise. */
function syntaxErrors(env: Environment, src: string, err: CelJsError): GoError[] | undefined {
  const summary = err.summary ?? '';
  const lexed = lex(src);
  // Characters no token starts with: the lexer reports each (token recognition error) and skips it.
  if (lexed.invalid.length > 0) {
    let blanked = src;
    for (const i of lexed.invalid) blanked = `${blanked.slice(0, i)} ${blanked.slice(i + src[i]!.length)}`;
    if (parses(env, blanked)) {
      return lexed.invalid.map((i) => ({ offset: codePointOffset(src, i), message: `Syntax error: token recognition error at: '${src[i]!}'` }));
    }
    return undefined;
  }
  if (err.code === 'reserved_identifier') {
    const pos = err.node?.pos ?? err.range?.start;
    const name = summary.replace(/^Reserved identifier: /, '');
    if (pos !== undefined) return [{ offset: codePointOffset(src, pos), message: `reserved identifier: ${name}` }];
  }
  if (err.code === 'invalid_macro_argument' && err.node !== undefined) {
    // all/exists/exists_one(x, p) and map/filter(x, …) with x not a simple name (parser/macro.go).
    const message = /^(all|exists|exists_one)\(/.test(summary) ? 'argument must be a simple name' : /^(map|filter)\(/.test(summary) ? 'argument is not an identifier' : undefined;
    if (message !== undefined) return [{ offset: codePointOffset(src, goPosition(src, err.node)), message }];
  }
  // The input ends where an operand is wanted, right after a binary operator or the '?'/':' of a
  // conditional, outside any bracket: ANTLR's DefaultErrorStrategy.Sync in the unary rule finds
  // '<EOF>' where the tokens that start an operand were expected (reportInputMismatch).
  if (summary === 'Unexpected token: EOF' && lexed.depth === 0 && lexed.last !== undefined && OPERAND_EXPECTED_AFTER.has(lexed.last)) {
    return [{ offset: codePointOffset(src, lexed.eof), message: `Syntax error: mismatched input '<EOF>' expecting ${OPERAND_START}` }];
  }
  return undefined;
}

const OPERAND_EXPECTED_AFTER = new Set(['||', '&&', '==', '!=', '<', '<=', '>', '>=', 'in', '+', '-', '*', '/', '%', '?', ':']);
/** The tokens that start an operand, in CEL.g4's token order (as IntervalSet.StringVerbose lists them). */
const OPERAND_START = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

/** The type of a sub-expression that type-checks on its own, or undefined. */
function standaloneType(env: Environment, expression: string): string | undefined {
  try {
    const result = env.check(expression);
    return result.valid ? result.type : undefined;
  } catch {
    return undefined;
  }
}

function parses(env: Environment, src: string): boolean {
  try {
    env.parse(src);
    return true;
  } catch {
    return false;
  }
}

function parseRoot(env: Environment, src: string): Node | undefined {
  try {
    return env.parse(src).ast as Node;
  } catch {
    return undefined;
  }
}

interface Lexed {
  /** Indexes of characters no CEL token starts with, outside strings and comments. */
  readonly invalid: number[];
  /** The last token's text (operators) or kind. */
  readonly last: string | undefined;
  /** Open brackets at the end. */
  readonly depth: number;
  /** Where the end-of-input token is: after the last character. */
  readonly eof: number;
}

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '[', ']', '{', '}', '(', ')', '.', ',', '-', '!', '?', ':', '+', '*', '/', '%'];

/** A lexer of CEL.g4's tokens, enough to know the last token and the characters it rejects. */
function lex(src: string): Lexed {
  const invalid: number[] = [];
  let last: string | undefined;
  let depth = 0;
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\f') {
      i++;
      continue;
    }
    if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const string = /^(?:[rR][bB]?|[bB][rR]?)?("""|'''|"|')/.exec(src.slice(i, i + 5));
    if (string !== null) {
      const quote = string[1]!;
      const raw = /[rR]/.test(string[0].slice(0, -quote.length));
      let j = i + string[0].length;
      while (j < src.length && !src.startsWith(quote, j)) j += !raw && src[j] === '\\' ? 2 : 1;
      i = j + quote.length;
      last = 'STRING';
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 256));
    if (word !== null) {
      let j = i + word[0].length;
      while (j < src.length && /[A-Za-z0-9_]/.test(src[j]!)) j++;
      last = src.slice(i, j) === 'in' ? 'in' : 'IDENTIFIER';
      i = j;
      continue;
    }
    const number = /^(?:0[xX][0-9a-fA-F]+[uU]?|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?[uU]?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)/.exec(src.slice(i, i + 64));
    if (number !== null) {
      let j = i + number[0].length;
      while (j < src.length && /[0-9a-zA-Z.]/.test(src[j]!)) j++;
      last = 'NUMBER';
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op !== undefined) {
      if (op === '(' || op === '[' || op === '{') depth++;
      else if (op === ')' || op === ']' || op === '}') depth--;
      last = op;
      i += op.length;
      continue;
    }
    // A character no token starts with ('=', '&' and '|' start tokens: their errors are not this class).
    if (c === '=' || c === '&' || c === '|') {
      last = c;
      i++;
      continue;
    }
    invalid.push(i);
    i += c.length;
  }
  return { invalid, last, depth, eof: src.length };
}

/** Skips whitespace and comments (and closing parentheses, with parens) from i. */
function skipTrivia(src: string, i: number, parens: boolean): number {
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\f' || (parens && c === ')')) i++;
    else if (src.startsWith('//', i)) while (i < src.length && src[i] !== '\n') i++;
    else break;
  }
  return i;
}

function sameNode(v: unknown, n: Node): boolean {
  return isNode(v) && v.op === n.op && v.start === n.start && v.end === n.end;
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as Partial<Node>).op === 'string' && typeof (v as Partial<Node>).start === 'number';
}

/**
 * Where cel-go places a node (the start of the token its id is made from): the operator of a
 * binary or conditional expression, the '.' of a selection, the '[' of an index, the '(' of a
 * call; a node's own start otherwise.
 */
export function goPosition(src: string, node: Node): number {
  const args = node.args as unknown[];
  const after = (left: unknown, want: string): number | undefined => {
    if (!isNode(left)) return undefined;
    const i = skipTrivia(src, left.end, true);
    return src.startsWith(want, i) ? i : undefined;
  };
  switch (node.op) {
    case '.':
    case '.?':
      return after(args[0], '.') ?? node.pos;
    case '[]':
    case '[?]':
      return after(args[0], '[') ?? node.pos;
    case '?:':
      return after(args[0], '?') ?? node.pos;
    case 'call': {
      const name = String(args[0]);
      const i = skipTrivia(src, node.start + name.length, false);
      return src[i] === '(' && src.startsWith(name, node.start) ? i : node.pos;
    }
    case 'rcall': {
      const [name, receiver] = args as [string, unknown];
      const dot = after(receiver, '.');
      if (dot === undefined) return node.pos;
      const id = skipTrivia(src, dot + 1, false);
      if (!src.startsWith(name, id)) return node.pos;
      const open = skipTrivia(src, id + name.length, false);
      return src[open] === '(' ? open : node.pos;
    }
    case '&&':
    case '||':
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case 'in':
      return after(args[0], node.op) ?? node.pos;
    default:
      return node.pos;
  }
}

/** The parent of a node (the same written node: op and extent) in a fresh parse of the expression. */
function parentOf(root: Node, target: Node): Node | undefined {
  const visit = (v: unknown, parent: Node | undefined): Node | undefined => {
    if (sameNode(v, target)) return parent;
    if (Array.isArray(v)) {
      for (const item of v) {
        const found = visit(item, parent);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (isNode(v)) return visit(v.args, v);
    return undefined;
  };
  return visit(root, undefined);
}

const functionNames = new WeakMap<Environment, ReadonlySet<string>>();

/** Whether env declares a function of this name in any style or arity (cel-go's LookupFunction). */
function declaresFunction(env: Environment, name: string): boolean {
  let names = functionNames.get(env);
  if (names === undefined) {
    names = new Set(env.getDefinitions().functions.map((f) => f.name));
    functionNames.set(env, names);
  }
  return names.has(name);
}

/**
 * A cel-js type name as cel-go's FormatCELType prints the type: list(T), map(K, V),
 * optional_type(T), timestamp, duration, null; the object types of a schema as kube names them
 * (selfType<nanoseconds>.spec…, compilation.go generateUniqueSelfTypeName and
 * DeclType.MaybeAssignTypeName); unbound type parameters as dyn.
 */
export function goTypeName(env: Environment, name: string): string {
  const generic = /^([\w.]+)<(.*)>$/.exec(name);
  if (generic !== null) {
    const params = splitTopLevel(generic[2]!).map((p) => goTypeName(env, p));
    const base = generic[1] === 'optional' ? 'optional_type' : generic[1]!;
    return `${base}(${params.join(', ')})`;
  }
  switch (name) {
    case 'google.protobuf.Timestamp':
      return 'timestamp';
    case 'google.protobuf.Duration':
      return 'duration';
    case 'null':
    case 'null_type':
      return 'null';
    case 'T':
    case 'A':
    case 'K':
    case 'V':
      return 'dyn';
  }
  const kube = kubeTypeNames(env)?.get(name);
  return kube === undefined ? name : kube.replace(/^selfType/, `selfType${selfTypeSuffix()}`);
}

/** kube names the root type selfType%d with time.Now().Nanosecond() at each compilation. */
function selfTypeSuffix(): number {
  return (Date.now() % 1000) * 1_000_000 + Number(process.hrtime.bigint() % 1_000_000n);
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '<') depth++;
    else if (s[i] === '>') depth--;
    else if (s[i] === ',' && depth === 0) {
      out.push(s.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(s.slice(from).trim());
  return out;
}
