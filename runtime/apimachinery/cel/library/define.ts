import { EvaluationError, type Environment } from '@marcbachmann/cel-js';
import { capturingHandler } from '../engine.js';

/**
 * Registers one overload of a library function. Handlers are synchronous (cel-js would
 * otherwise treat them as possibly async) and capture the evaluator for the engine hooks.
 * Arguments arrive as CEL values: bigint for int, number for double, string, Uint8Array…
 */
export function define(env: Environment, signature: string, handler: (...args: never[]) => unknown): void {
  env.registerFunction(signature, capturingHandler(handler as (...args: unknown[]) => unknown), { async: false });
}

/** An evaluation error with the apiserver's wording, e.g. `index out of range: 5`. */
export function celError(message: string): EvaluationError {
  return new EvaluationError(message);
}

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

export function checkInt64(v: bigint): bigint {
  if (v > INT64_MAX || v < INT64_MIN) throw celError('integer overflow');
  return v;
}
