import { EvaluationError, Optional } from '@marcbachmann/cel-js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { propertySchema } from '../schema/property.js';
import { ownField } from '../serializer/jsonvalue.js';
import { formatFieldError, type FieldError } from '../validation/field.js';
import { compileRules, type Activation, type CompiledRule, type Program } from './compile.js';
import { PER_CALL_LIMIT, RUNTIME_COST_BUDGET } from './cost.js';
import { COST_LIMIT_EXCEEDED_MESSAGE, CostLimitExceededError, CostMeter, metered } from './engine.js';
import { correlatedItems, mapIsCorrelatable } from '../schema/correlation.js';
import { jsonEquals } from './equality.js';
import { child, fieldString, index, key, type FieldPath } from './fieldpath.js';
import { declTypeOf, withTypeAndObjectMeta, type DeclType } from './model.js';
import { isFloatLiteral } from '../validation/gofloat.js';
import { invalidData, isPlainObject, ValueConverter } from './values.js';

export interface CELValidateOptions {
  /** What all rules of the call may spend together; default the apiserver's 10,000,000. */
  readonly costBudget?: number;
  /** What one rule or messageExpression may spend; default 1,000,000. */
  readonly perCallLimit?: number;
  /** Whether the schema is a kind's (apiVersion, kind, metadata.name readable at the root); default true. */
  readonly isResourceRoot?: boolean;
  /**
   * CRDValidationRatcheting: on update, a failing rule that does not read oldSelf on a value
   * that did not change is a warning, not an error. Off by default.
   */
  readonly ratcheting?: boolean;
  /** Receives the ratcheted errors (`spec.x: Invalid value: …`) as warnings. */
  readonly warn?: (message: string) => void;
}

/**
 * Evaluates the `x-kubernetes-validations` rules of a structural schema against an object,
 * as apiextensions-apiserver's cel.Validator does: at every schema node that declares rules,
 * for every value there (each list item, each map value), with `self` the value typed from
 * the schema; transition rules (those reading `oldSelf`) only where an old value correlates
 * (object properties by name, map values by key, items of list-type=map lists by their keys).
 * Failures become kube's field errors; evaluation is metered, and once the budget is spent
 * no further rule runs. Rules are compiled once per schema object.
 */
export class CELValidator {
  private readonly trees = new WeakMap<JSONSchemaProps, { root?: NodeValidator | null; nested?: NodeValidator | null }>();

  /** Whether the schema declares any rule (a cheap check callers can use to skip conversions). */
  hasRules(schema: JSONSchemaProps, isResourceRoot = true): boolean {
    return this.tree(schema, isResourceRoot) !== undefined;
  }

  validate(schema: JSONSchemaProps, obj: unknown, old?: unknown, options: CELValidateOptions = {}): FieldError[] {
    return this.validateWithBudget(schema, obj, old, options).errors;
  }

  /** validate, also returning what is left of the budget (negative once it ran out). */
  validateWithBudget(schema: JSONSchemaProps, obj: unknown, old?: unknown, options: CELValidateOptions = {}): { errors: FieldError[]; remainingBudget: number } {
    const tree = this.tree(schema, options.isResourceRoot ?? true);
    const run: Run = {
      errors: [],
      remaining: options.costBudget ?? RUNTIME_COST_BUDGET,
      perCallLimit: options.perCallLimit ?? PER_CALL_LIMIT,
      converter: new ValueConverter(),
      ratcheting: options.ratcheting === true && old !== undefined && old !== null,
      warn: options.warn ?? (() => undefined),
    };
    if (tree !== undefined) validateNode(tree, undefined, obj, old ?? undefined, {}, run);
    return { errors: run.errors, remainingBudget: run.remaining };
  }

  private tree(schema: JSONSchemaProps, isResourceRoot: boolean): NodeValidator | undefined {
    let entry = this.trees.get(schema);
    if (entry === undefined) this.trees.set(schema, (entry = {}));
    const k = isResourceRoot ? 'root' : 'nested';
    let tree = entry[k];
    if (tree === undefined) {
      tree = buildValidator(schema, schema, isResourceRoot, declTypeOf(schema, isResourceRoot)) ?? null;
      entry[k] = tree;
    }
    return tree ?? undefined;
  }
}

/** The rules of one schema node and the validators of the nodes below it that have rules. */
interface NodeValidator {
  readonly schema: JSONSchemaProps;
  readonly decl: DeclType | undefined;
  readonly rules: readonly CompiledRule[];
  readonly compileError?: string;
  readonly properties: ReadonlyMap<string, NodeValidator>;
  readonly items?: NodeValidator;
  readonly additionalProperties?: NodeValidator;
  readonly allOf: readonly NodeValidator[];
}

const embedded = (s: JSONSchemaProps): boolean => s['x-kubernetes-embedded-resource'] === true;
const single = (items: JSONSchemaProps['items']): JSONSchemaProps | undefined => (Array.isArray(items) ? undefined : items);

/**
 * validator(): rules come from validationSchema (the node itself, or one of its allOf
 * branches), types from nodeSchema. Undefined when nothing at or below the node has rules.
 */
function buildValidator(validationSchema: JSONSchemaProps, nodeSchema: JSONSchemaProps, isResourceRoot: boolean, decl: DeclType | undefined): NodeValidator | undefined {
  const declared = validationSchema['x-kubernetes-validations'] ?? [];
  let rules: CompiledRule[] = [];
  let compileError: string | undefined;
  if (declared.length > 0) {
    if (decl === undefined) compileError = 'failed to convert to declType for CEL validation rules';
    else rules = compileRules(declared, isResourceRoot ? withTypeAndObjectMeta(nodeSchema) : nodeSchema, decl);
  }

  let items: NodeValidator | undefined;
  const vItems = single(validationSchema.items);
  const nItems = single(nodeSchema.items);
  if (vItems !== undefined && nItems !== undefined) {
    items = buildValidator(vItems, nItems, embedded(nItems), decl?.kind === 'list' ? decl.items : undefined);
  }

  const properties = new Map<string, NodeValidator>();
  for (const [name, vProp] of Object.entries(validationSchema.properties ?? {})) {
    const nProp = propertySchema(nodeSchema, name);
    if (nProp === undefined) continue;
    const fieldType = decl?.kind === 'object' ? decl.properties.get(name) : undefined;
    if (fieldType === undefined) continue;
    const v = buildValidator(vProp, nProp, embedded(nProp), fieldType);
    if (v !== undefined) properties.set(name, v);
  }

  let additionalProperties: NodeValidator | undefined;
  const vAdd = validationSchema.additionalProperties;
  const nAdd = nodeSchema.additionalProperties;
  if (typeof vAdd === 'object' && typeof nAdd === 'object') {
    additionalProperties = buildValidator(vAdd, nAdd, embedded(nAdd), decl?.kind === 'map' ? decl.value : undefined);
  }

  const allOf = (validationSchema.allOf ?? []).map((branch) => buildValidator(branch, nodeSchema, isResourceRoot, decl)).filter((v): v is NodeValidator => v !== undefined);

  if (rules.length === 0 && compileError === undefined && items === undefined && additionalProperties === undefined && properties.size === 0 && allOf.length === 0) {
    return undefined;
  }
  return {
    schema: nodeSchema,
    decl,
    rules,
    ...(compileError !== undefined ? { compileError } : {}),
    properties,
    ...(items !== undefined ? { items } : {}),
    ...(additionalProperties !== undefined ? { additionalProperties } : {}),
    allOf,
  };
}

/** State of one validate call. */
interface Run {
  readonly errors: FieldError[];
  remaining: number;
  readonly perCallLimit: number;
  readonly converter: ValueConverter;
  readonly ratcheting: boolean;
  readonly warn: (message: string) => void;
}

/** Ratcheting correlation: the value and its old value here, or at the nearest ancestor that had one. */
interface Correlation {
  readonly current?: { readonly value: unknown; readonly old: unknown };
  readonly nearest?: { readonly value: unknown; readonly old: unknown };
}

/** `float`: obj is a number Go's decoder made a float64 (its holder marks it, see gofloat.ts). */
function validateNode(node: NodeValidator, path: FieldPath, obj: unknown, old: unknown, corr: Correlation, run: Run, float = false): void {
  if (obj === null || obj === undefined) return;
  const correlation: Correlation =
    old === undefined ? { ...(corr.nearest !== undefined ? { nearest: corr.nearest } : {}) } : { current: { value: obj, old }, ...(corr.nearest !== undefined ? { nearest: corr.nearest } : {}) };
  validateExpressions(node, path, obj, old, correlation, run, float);
  if (run.remaining < 0) return;
  for (const branch of node.allOf) {
    validateNode(branch, path, obj, old, correlation.nearest !== undefined ? { nearest: correlation.nearest } : {}, run);
    if (run.remaining < 0) return;
  }
  const below: Correlation = correlation.current !== undefined ? { nearest: correlation.current } : correlation;
  if (Array.isArray(obj)) {
    if (node.items === undefined) return;
    const oldItems = correlatedItems(node.schema, Array.isArray(old) ? old : undefined);
    for (let i = 0; i < obj.length; i++) {
      validateNode(node.items, index(path, i), obj[i], oldItems(obj[i]), below, run, isFloatLiteral(obj, i));
      if (run.remaining < 0) return;
    }
  } else if (isPlainObject(obj)) {
    const oldMap = isPlainObject(old) && mapIsCorrelatable(node.schema) ? old : undefined;
    if (node.additionalProperties !== undefined) {
      for (const [k, v] of Object.entries(obj)) {
        validateNode(node.additionalProperties, key(path, k), v, oldMap === undefined ? undefined : (ownField(oldMap, k) ?? undefined), below, run, isFloatLiteral(obj, k));
        if (run.remaining < 0) return;
      }
    }
    if (node.properties.size > 0) {
      for (const [k, v] of Object.entries(obj)) {
        const sub = node.properties.get(k);
        if (sub === undefined) continue;
        validateNode(sub, child(path, k), v, oldMap === undefined ? undefined : (ownField(oldMap, k) ?? undefined), below, run, isFloatLiteral(obj, k));
        if (run.remaining < 0) return;
      }
    }
  }
}

const BUDGET_EXHAUSTED = 'validation failed due to running out of cost budget, no further validation rules will be run';

function validateExpressions(node: NodeValidator, path: FieldPath, obj: unknown, old: unknown, corr: Correlation, run: Run, float = false): void {
  const type = node.schema.type ?? '';
  if (node.compileError !== undefined) {
    run.errors.push(invalid(path, type, `rule compiler initialization error: ${node.compileError}`));
    return;
  }
  if (node.rules.length === 0 || node.decl === undefined) return;
  if (run.remaining <= 0) {
    run.errors.push(invalid(path, type, BUDGET_EXHAUSTED));
    run.remaining = -1;
    return;
  }
  // self that UnstructuredToVal makes an error (a float64 at an integer node) fails each rule.
  const invalidSelf = invalidData(obj, node.decl, float);
  const self = run.converter.convert(obj, node.decl, float);
  const oldSelf = old === undefined ? undefined : run.converter.convert(old, node.decl);
  const activation: Activation = oldSelf === undefined ? { self } : { self, oldSelf };
  for (const compiled of node.rules) {
    const rule = compiled.rule;
    if (compiled.error !== undefined) {
      run.errors.push(invalid(path, type, `rule compile error: ${compiled.error}`));
      continue;
    }
    if (compiled.program === undefined) continue;
    if (compiled.usesOldSelf && oldSelf === undefined && !compiled.optionalOldSelf) continue;
    const ruleActivation: Activation = compiled.optionalOldSelf ? { self, oldSelf: oldSelf === undefined ? Optional.none() : Optional.of(oldSelf) } : activation;
    if (invalidSelf !== undefined) {
      run.errors.push(invalid(path, type, `${invalidSelf.message} evaluating rule: ${ruleErrorString(rule.rule, rule.message)}`));
      continue;
    }

    const outcome = evaluate(compiled.program, ruleActivation, run);
    if (outcome.cost > run.remaining) {
      run.errors.push(invalid(path, type, BUDGET_EXHAUSTED));
      run.remaining = -1;
      return;
    }
    run.remaining -= outcome.cost;
    if (outcome.kind === 'limit') {
      run.errors.push(invalid(path, type, `'${outcome.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule.rule, rule.message)}`));
      run.remaining = -1;
      return;
    }
    if (outcome.kind === 'error') {
      run.errors.push(
        invalid(
          path,
          type,
          outcome.message.startsWith('no such overload')
            ? `'${outcome.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule.rule, rule.message)}`
            : `${outcome.message} evaluating rule: ${ruleErrorString(rule.rule, rule.message)}`,
        ),
      );
      continue;
    }
    if (outcome.value === true) continue;

    const at = compiled.fieldPath === undefined ? path : child(path, compiled.fieldPath);
    const ratchet = run.ratcheting && !compiled.usesOldSelf && unchanged(corr);
    const report = (e: FieldError): void => {
      if (ratchet) run.warn(formatFieldError(e));
      else run.errors.push(e);
    };
    let detail = ruleMessageOrDefault(rule.rule, rule.message);
    if (compiled.messageExpression !== undefined) {
      const message = evaluateMessage(compiled.messageExpression, rule.messageExpression ?? '', ruleActivation, run);
      if (message.kind === 'fatal') {
        report(invalid(at, type, message.detail));
        run.remaining = -1;
        return;
      }
      if (message.kind === 'ok') detail = message.detail;
    }
    report(errorForReason(at, type, detail, rule.reason));
  }
}

type Outcome =
  | { readonly kind: 'value'; readonly value: unknown; readonly cost: number }
  | { readonly kind: 'error'; readonly message: string; readonly cost: number }
  | { readonly kind: 'limit'; readonly message: string; readonly cost: number };

/** One metered evaluation, within the per-call limit and what is left of the budget. */
function evaluate(program: Program, activation: Activation, run: Run): Outcome {
  const meter = new CostMeter(Math.max(0, Math.min(run.perCallLimit, run.remaining)));
  try {
    const value = metered(meter, () => program(activation));
    if (meter.exceeded) return { kind: 'limit', message: COST_LIMIT_EXCEEDED_MESSAGE, cost: meter.cost };
    return { kind: 'value', value, cost: meter.cost };
  } catch (e) {
    if (meter.exceeded || e instanceof CostLimitExceededError) return { kind: 'limit', message: COST_LIMIT_EXCEEDED_MESSAGE, cost: meter.cost };
    return { kind: 'error', message: errorText(e), cost: meter.cost };
  }
}

/** MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

/** evalMessageExpression: the message, a fallback to the rule's message, or a fatal budget error. */
function evaluateMessage(program: Program, source: string, activation: Activation, run: Run): { kind: 'ok' | 'fatal'; detail: string } | { kind: 'fallback' } {
  const outcome = evaluate(program, activation, run);
  if (outcome.cost > run.remaining) {
    return { kind: 'fatal', detail: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run' };
  }
  if (outcome.kind === 'limit') {
    return { kind: 'fatal', detail: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(source)}` };
  }
  run.remaining -= outcome.cost;
  if (outcome.kind === 'error' || typeof outcome.value !== 'string') return { kind: 'fallback' };
  const message = outcome.value.trim();
  if (message === '' || /\n/.test(message) || Buffer.byteLength(message) > MAX_MESSAGE_BYTES) return { kind: 'fallback' };
  return { kind: 'ok', detail: message };
}

/** Whether the value at this node (or, without one, at the nearest correlated ancestor) is unchanged. */
function unchanged(corr: Correlation): boolean {
  const c = corr.current ?? corr.nearest;
  return c !== undefined && jsonEquals(c.value, c.old);
}

function ruleErrorString(rule: string, message: string | undefined): string {
  return message !== undefined && message.trim() !== '' ? message.trim() : rule.trim();
}

function ruleMessageOrDefault(rule: string, message: string | undefined): string {
  return message !== undefined && message.trim() !== '' ? message.trim() : `failed rule: ${rule.trim()}`;
}

function invalid(path: FieldPath, type: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: fieldString(path), badValue: type, detail };
}

/** fieldErrorForReason: the rule's reason picks the cause type; Invalid shows the schema type as the value. */
function errorForReason(path: FieldPath, type: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return { type: 'FieldValueForbidden', field: fieldString(path), detail };
    case 'FieldValueRequired':
      return { type: 'FieldValueRequired', field: fieldString(path), detail };
    case 'FieldValueDuplicate':
      return { type: 'FieldValueDuplicate', field: fieldString(path), badValue: type, detail: '' };
    default:
      return invalid(path, type, detail);
  }
}

/** An evaluation error as cel-go words it (`no such key: x`, `index out of bounds: 3`, `division by zero`). */
function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const summary = e instanceof EvaluationError ? e.summary : e.message.split('\n')[0]!;
  const code = e instanceof EvaluationError ? e.code : '';
  switch (code) {
    case 'no_matching_overload':
    case 'no_such_overload':
      return 'no such overload';
    case 'index_out_of_bounds': {
      const m = /index (-?\d+)/.exec(summary);
      return `index out of bounds: ${m?.[1] ?? summary}`;
    }
    case 'numeric_overflow':
      return 'integer overflow';
    case 'modulo_by_zero':
      return 'modulus by zero';
    default:
      return summary.length > 0 ? summary[0]!.toLowerCase() + summary.slice(1) : summary;
  }
}
