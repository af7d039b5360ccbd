import type { JSONSchemaProps, ValidationRule } from '../../apis/apiextensions/v1/schema.js';
import { CELValidator, type CELValidateOptions } from '../../runtime/apimachinery/cel/index.js';
import { program } from '../../runtime/apimachinery/cel/compile.js';
import { CostMeter, metered } from '../../runtime/apimachinery/cel/engine.js';
import { environmentFor } from '../../runtime/apimachinery/cel/environment.js';
import { PER_CALL_LIMIT } from '../../runtime/apimachinery/cel/cost.js';
import { declTypeOf } from '../../runtime/apimachinery/cel/model.js';
import { ValueConverter } from '../../runtime/apimachinery/cel/values.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';

export const validator = new CELValidator();

/** The errors of validating obj (against old) as kubectl prints causes: `spec.x: Invalid value: …`. */
export function messages(schema: JSONSchemaProps, obj: unknown, old?: unknown, options: CELValidateOptions = {}): string[] {
  return validator.validate(schema, obj, old, { isResourceRoot: false, ...options }).map(formatFieldError);
}

/** An object schema with the given properties and rules. */
export function object(properties: Record<string, JSONSchemaProps>, rules: ValidationRule[] = [], extra: JSONSchemaProps = {}): JSONSchemaProps {
  return { type: 'object', properties, ...(rules.length > 0 ? { 'x-kubernetes-validations': rules } : {}), ...extra };
}

export const str: JSONSchemaProps = { type: 'string' };
export const int: JSONSchemaProps = { type: 'integer' };

const EMPTY: JSONSchemaProps = { type: 'object', properties: { s: str } };

/**
 * Evaluates an expression in a rule environment through the engine, as request-time validation
 * does, with `self` the decoded JSON value converted by the schema. Throws the evaluation error.
 */
export function evaluate(expression: string, opts: { schema?: JSONSchemaProps; self?: unknown; limit?: number } = {}): unknown {
  const schema = opts.schema ?? EMPTY;
  const env = environmentFor(schema);
  const decl = declTypeOf(schema);
  if (env === undefined || decl === undefined) throw new Error('schema has no CEL type');
  const run = program(env, expression);
  const self = new ValueConverter().convert(opts.self ?? {}, decl);
  return metered(new CostMeter(opts.limit ?? PER_CALL_LIMIT), () => run({ self }));
}

/** The problem text of an expression that fails to evaluate. */
export function evaluationError(expression: string, opts: { schema?: JSONSchemaProps; self?: unknown } = {}): string {
  try {
    evaluate(expression, opts);
  } catch (e) {
    return e instanceof Error ? ('summary' in e ? String(e.summary) : e.message) : String(e);
  }
  throw new Error(`expected ${expression} to fail`);
}
