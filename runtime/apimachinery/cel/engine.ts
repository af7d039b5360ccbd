import type { Environment } from '@marcbachmann/cel-js';
import { callCost, operatorCost } from './cost.js';

/**
 * What the apiserver's CEL runtime does beyond cel-js, hooked into cel-js 8.0.0's evaluator:
 *
 * - Cost tracking. cel-js evaluates every sub-expression through `evaluator.run(node, ctx)`;
 *   an environment's evaluator gets its own `run` that charges one unit per step to the
 *   active {@link CostMeter} and throws once the meter's limit is passed, so a rule stops
 *   within its budget however much work it asks for.
 * - Calls and operators. On a node's first evaluation its checked handle (the resolved
 *   overload, set by the type checker) is wrapped: the call's cost by size is charged, and a
 *   few methods cel-js implements with JavaScript semantics run the apiserver's instead
 *   (`matches` on RE2, ASCII-only case mapping, code-point indexes, list-type=map and set
 *   lists compared and concatenated by key and by value): {@link Overrides}.
 *
 * The evaluator is reached through `this` of a registered function (cel-js calls handlers with
 * the evaluator as receiver); the root expression is not evaluated through `run`, so compiled
 * expressions are wrapped (`[(expr)][0]`) to put every real node below it. The hooks are
 * checked by test/cel: a cel-js upgrade that moves them fails there.
 */

/** Counts cost units; `limit` is what one evaluation may spend. */
export class CostMeter {
  cost = 0;
  exceeded = false;
  constructor(readonly limit: number) {}

  charge(units: number): void {
    this.cost += units;
    if (this.cost > this.limit) {
      this.exceeded = true;
      throw COST_LIMIT_EXCEEDED;
    }
  }
}

/** cel-go's text for an evaluation stopped by its cost limit. */
export const COST_LIMIT_EXCEEDED_MESSAGE = 'operation cancelled: actual cost limit exceeded';

/** Thrown (one shared instance, no stack to capture) when a meter's limit is passed. */
export class CostLimitExceededError extends Error {
  constructor() {
    super(COST_LIMIT_EXCEEDED_MESSAGE);
  }
}
const COST_LIMIT_EXCEEDED = new CostLimitExceededError();

let active: CostMeter | undefined;

/** Runs fn (a synchronous evaluation) with meter charged for every step. */
export function metered<T>(meter: CostMeter, fn: () => T): T {
  const previous = active;
  active = meter;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

/** Charges the active meter, if any: for work a library function does beyond its step. */
export function chargeActive(units: number): void {
  if (units > 0) active?.charge(units);
}

/**
 * Method and operator implementations that replace cel-js's for some operand shapes: return
 * NOT_HANDLED to let cel-js's overload run (and raise its own overload errors).
 */
export type MethodOverride = (args: readonly unknown[]) => unknown;
export type OperatorOverride = (left: unknown, right: unknown) => unknown;
export interface Overrides {
  /** By method name; args start with the receiver. */
  readonly methods: ReadonlyMap<string, MethodOverride>;
  /** By binary operator (`==`, `+`…). */
  readonly operators: ReadonlyMap<string, OperatorOverride>;
}
export const NOT_HANDLED: unique symbol = Symbol('not handled');

interface EngineNode {
  readonly op: string;
  readonly args: unknown;
  handle?: (...args: unknown[]) => unknown;
  evaluate(ev: unknown, ast: EngineNode, ctx: unknown): unknown;
  [INSTRUMENTED]?: true;
}
interface EngineEvaluator {
  run(ast: EngineNode, ctx: unknown): unknown;
}

const INSTRUMENTED = Symbol('kube.cel.instrumented');
const BINARY = new Set(['+', '==', '!=', '<', '<=', '>', '>=', 'in']);

let capture: ((ev: object) => void) | undefined;

/**
 * Wraps a library function so that, while an environment is being hooked, the evaluator
 * calling it is captured. Every function the Kubernetes libraries register goes through it.
 */
export function capturingHandler<A extends unknown[], R>(fn: (...args: A) => R): (this: unknown, ...args: A) => R {
  return function (this: unknown, ...args: A): R {
    if (capture !== undefined && typeof this === 'object' && this !== null) capture(this);
    return fn(...args);
  };
}

/** The expression that calls a capturing handler: the environments are built with the lists library. */
const PROBE = '[0].isSorted()';

/**
 * Hooks the evaluator of a finished environment (nothing is registered on it afterwards).
 * Call once per environment, before it evaluates anything else.
 */
export function instrumentEnvironment(env: Environment, overrides: Overrides): void {
  let evaluator: object | undefined;
  capture = (ev) => {
    evaluator = ev;
  };
  try {
    env.evaluate(PROBE);
  } finally {
    capture = undefined;
  }
  if (evaluator === undefined || typeof (evaluator as Partial<EngineEvaluator>).run !== 'function') {
    throw new Error('cel-js evaluator could not be instrumented: the library no longer calls handlers with the evaluator as this');
  }
  (evaluator as EngineEvaluator).run = function run(this: EngineEvaluator, ast: EngineNode, ctx: unknown): unknown {
    if (active !== undefined) active.charge(1);
    if (ast[INSTRUMENTED] !== true) instrument(ast, overrides);
    return ast.evaluate(this, ast, ctx);
  };
}

function instrument(ast: EngineNode, overrides: Overrides): void {
  ast[INSTRUMENTED] = true;
  const original = ast.handle;
  if (typeof original !== 'function') return;
  if (ast.op === 'rcall') {
    const name = (ast.args as readonly unknown[])[0] as string;
    const override = overrides.methods.get(name);
    ast.handle = (args, ...rest) => {
      const list = args as unknown[];
      let result = override === undefined ? NOT_HANDLED : override(list);
      if (result === NOT_HANDLED) result = original(args, ...rest);
      chargeActive(callCost(name, list, result));
      return result;
    };
  } else if (ast.op === 'call') {
    const name = (ast.args as readonly unknown[])[0] as string;
    ast.handle = (args, ...rest) => {
      const result = original(args, ...rest);
      chargeActive(callCost(name, args as unknown[], result));
      return result;
    };
  } else if (BINARY.has(ast.op)) {
    const op = ast.op;
    const override = overrides.operators.get(op);
    ast.handle = (left, right, ...rest) => {
      let result = override === undefined ? NOT_HANDLED : override(left, right);
      if (result === NOT_HANDLED) result = original(left, right, ...rest);
      chargeActive(operatorCost(op, left, right, result));
      return result;
    };
  }
}

/** The form an expression is compiled in so that its root, too, is evaluated through `run`. */
export function evaluableForm(expression: string): string {
  return `[(${expression}\n)][0]`;
}
