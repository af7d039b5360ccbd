/**
 * The subset of kube's JSONPath (k8s.io/client-go/util/jsonpath) that printer columns use:
 * `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[*]`, `.*`, `..name` and filters
 * `[?(@.type=="Ready")]` (==, !=, <, <=, >, >= against a string or number literal, or bare
 * existence `[?(@.x)]`). Evaluation follows AllowMissingKeys(true): a missing key yields no
 * result instead of an error.
 */

type Step =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'recursive'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'filter'; readonly path: readonly Step[]; readonly op: FilterOp | undefined; readonly literal: string | number | undefined };

type FilterOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export class JSONPathParseError extends Error {
  override readonly name = 'JSONPathParseError';
}

export interface JSONPath {
  /** Every value the path selects, in document order; [] when nothing matches. */
  find(obj: unknown): unknown[];
}

/** Parses `.spec.x`, `{.spec.x}` or `$.spec.x`; throws JSONPathParseError for anything outside the subset. */
export function parseJSONPath(expr: string): JSONPath {
  let src = expr.trim();
  if (src.startsWith('{') && src.endsWith('}')) src = src.slice(1, -1).trim();
  if (src.startsWith('$')) src = src.slice(1);
  const steps = parseSteps(src, expr);
  return { find: (obj) => evaluate(steps, [obj]) };
}

const NAME = /^[^.[\]\s()=!<>]+/;

function parseSteps(src: string, expr: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const fail = (): never => {
    throw new JSONPathParseError(`unrecognized JSONPath ${JSON.stringify(expr)}`);
  };
  while (i < src.length) {
    const rest = src.slice(i);
    if (rest.startsWith('..')) {
      const m = NAME.exec(rest.slice(2)) ?? fail();
      steps.push({ kind: 'recursive', name: m[0] });
      i += 2 + m[0].length;
    } else if (rest.startsWith('.*')) {
      steps.push({ kind: 'wildcard' });
      i += 2;
    } else if (rest.startsWith('.')) {
      if (rest.length === 1) break;
      const m = NAME.exec(rest.slice(1)) ?? fail();
      steps.push({ kind: 'field', name: m[0] });
      i += 1 + m[0].length;
    } else if (rest.startsWith('[')) {
      const close = findClose(rest);
      if (close < 0) fail();
      steps.push(parseBracket(rest.slice(1, close).trim(), fail));
      i += close + 1;
    } else {
      fail();
    }
  }
  return steps;
}

/** Index of the `]` closing the bracket at 0, skipping quoted strings and parentheses. */
function findClose(s: string): number {
  let depth = 0;
  let quote = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ']' && depth === 0) return i;
  }
  return -1;
}

function parseBracket(inner: string, fail: () => never): Step {
  if (inner === '*') return { kind: 'wildcard' };
  if (/^-?\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  const quoted = /^(['"])(.*)\1$/.exec(inner);
  if (quoted) return { kind: 'field', name: quoted[2] ?? '' };
  const filter = /^\?\(\s*@(.*?)\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?\s*\)$/.exec(inner);
  if (!filter) return fail();
  const path = parseSteps(filter[1] ?? '', inner);
  const op = filter[2] as FilterOp | undefined;
  let literal: string | number | undefined;
  if (op !== undefined) {
    const raw = (filter[3] ?? '').trim();
    const str = /^(['"])(.*)\1$/.exec(raw);
    if (str) literal = str[2] ?? '';
    else if (raw !== '' && Number.isFinite(Number(raw))) literal = Number(raw);
    else fail();
  }
  return { kind: 'filter', path, op, literal };
}

function evaluate(steps: readonly Step[], start: unknown[]): unknown[] {
  let current = start;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) applyStep(step, value, next);
    current = next;
  }
  return current;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function applyStep(step: Step, value: unknown, out: unknown[]): void {
  switch (step.kind) {
    case 'field':
      if (isObject(value) && Object.hasOwn(value, step.name)) out.push(value[step.name]);
      return;
    case 'index':
      if (Array.isArray(value)) {
        const i = step.index < 0 ? value.length + step.index : step.index;
        if (i >= 0 && i < value.length) out.push(value[i]);
      }
      return;
    case 'wildcard':
      if (Array.isArray(value)) out.push(...value);
      else if (isObject(value)) for (const k of Object.keys(value).sort()) out.push(value[k]);
      return;
    case 'recursive':
      collectRecursive(step.name, value, out);
      return;
    case 'filter':
      if (Array.isArray(value)) for (const item of value) if (matchesFilter(step, item)) out.push(item);
      return;
  }
}

function collectRecursive(name: string, value: unknown, out: unknown[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRecursive(name, item, out);
  } else if (isObject(value)) {
    if (Object.hasOwn(value, name)) out.push(value[name]);
    for (const k of Object.keys(value).sort()) collectRecursive(name, value[k], out);
  }
}

function matchesFilter(step: Extract<Step, { kind: 'filter' }>, item: unknown): boolean {
  const found = evaluate(step.path, [item]);
  if (step.op === undefined) return found.length > 0;
  return found.some((v) => compare(v, step.op as FilterOp, step.literal));
}

function compare(left: unknown, op: FilterOp, right: string | number | undefined): boolean {
  if (typeof right === 'number' && typeof left === 'number') {
    switch (op) {
      case '==':
        return left === right;
      case '!=':
        return left !== right;
      case '<':
        return left < right;
      case '<=':
        return left <= right;
      case '>':
        return left > right;
      case '>=':
        return left >= right;
    }
  }
  const l = typeof left === 'string' || typeof left === 'number' || typeof left === 'boolean' ? String(left) : undefined;
  if (l === undefined) return op === '!=';
  const r = String(right);
  switch (op) {
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    case '<':
      return l < r;
    case '<=':
      return l <= r;
    case '>':
      return l > r;
    case '>=':
      return l >= r;
  }
}
