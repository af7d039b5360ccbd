import type { Environment } from '@marcbachmann/cel-js';

/**
 * cel-js (8.0) type-checks `has(e.f)` only when `e` is a chain of field selections from a
 * variable (`has(self.spec.x)`); CEL allows any operand, and CRDs people run use that: Gateway
 * API's HTTPRoute has `has(self.matches[0].path)`, which cel-js refuses with `has() invalid
 * argument`, so the CRD could not be created. Such a has() is given to cel-js in two other forms:
 *
 * - to type-check, `has` is renamed CHECKED_HAS, a function of one argument (registered in every
 *   rule environment): its argument, `e.f`, is then checked as any selection is (an undefined field
 *   is still an error), at the same columns as written, since the name has the same length;
 * - to evaluate, `(e).?f.hasValue()`: an optional field selection, present exactly when has() is
 *   true, for maps and objects alike.
 *
 * Every other character of the expression stays as written. Expressions that do not parse are
 * returned as they are, for the compiler to report.
 */
export function celCompatibleForm(env: Environment, expression: string, purpose: 'check' | 'evaluate'): string {
  if (!expression.includes('has(')) return expression;
  let ast: unknown;
  try {
    ast = env.parse(expression).ast;
  } catch {
    return expression;
  }
  const rewrites: Array<{ start: number; end: number; text: string }> = [];
  for (const call of outermostUnsupportedHas(ast)) {
    const select = (call.args as [string, [Node]])[1][0];
    const [operand, field] = select.args as [Node, string];
    const inner = celCompatibleForm(env, expression.slice(operand.start, operand.end), purpose);
    const text = purpose === 'check' ? `${CHECKED_HAS}${expression.slice(call.start + 3, operand.start)}${inner}${expression.slice(operand.end, call.end)}` : `(${inner}).?${field}.hasValue()`;
    rewrites.push({ start: call.start, end: call.end, text });
  }
  let out = expression;
  for (const r of rewrites.sort((a, b) => b.start - a.start)) out = out.slice(0, r.start) + r.text + out.slice(r.end);
  return out;
}

/** The stand-in for has() when type-checking (celCompatibleForm): as long as `has`, so columns stay. */
export const CHECKED_HAS = 'h_s';

/** Registers CHECKED_HAS in an environment (only type-checked, never evaluated). */
export function registerCheckedHas(env: Environment): void {
  env.registerFunction(`${CHECKED_HAS}(dyn): bool`, () => {
    throw new Error(`${CHECKED_HAS}() is only type-checked`);
  });
}

interface Node {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly end: number;
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as Partial<Node>).op === 'string' && 'args' in v && typeof (v as Partial<Node>).start === 'number';
}

/** has() calls cel-js refuses, outermost first (one inside another's operand is the recursion's). */
function* outermostUnsupportedHas(v: unknown): Generator<Node> {
  if (Array.isArray(v)) {
    for (const item of v) yield* outermostUnsupportedHas(item);
    return;
  }
  if (!isNode(v)) return;
  if (isUnsupportedHas(v)) {
    yield v;
    return;
  }
  yield* outermostUnsupportedHas(v.args);
}

/** `has(<e>.f)` where following `.` selections down from the argument does not end at a variable. */
function isUnsupportedHas(n: Node): boolean {
  if (n.op !== 'call' || !Array.isArray(n.args) || n.args[0] !== 'has') return false;
  const params: unknown = n.args[1];
  if (!Array.isArray(params) || params.length !== 1 || !isNode(params[0]) || params[0].op !== '.') return false;
  let node: Node = params[0];
  while ((node.op === '.' || node.op === '.?') && Array.isArray(node.args) && isNode(node.args[0])) node = node.args[0];
  return node.op !== 'id';
}
