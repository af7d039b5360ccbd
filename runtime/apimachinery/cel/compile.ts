import type { Environment } from '@marcbachmann/cel-js';
import type { JSONSchemaProps, ValidationRule } from '../../../apis/apiextensions/v1/schema.js';
import { evaluableForm } from './engine.js';
import { environmentFor, ruleEnvironment } from './environment.js';
import { goCompileErrors, goInvalidMatchesArgument } from './errors.js';
import { celCompatibleForm } from './has.js';
import { normalizeFieldPath } from './fieldpath.js';
import { regexError } from './library/regex.js';
import type { DeclType } from './model.js';

export interface RuleProblem {
  /** Which part of the rule failed: the rule itself or its messageExpression. */
  readonly field: 'rule' | 'messageExpression';
  readonly message: string;
}

/**
 * Compiles (parses and type-checks) one validation rule against the schema it is declared
 * on, as the apiserver does when a CRD is written. Returns the problems; an empty list means
 * the rule compiles. A rule must yield bool and a messageExpression string. isResourceRoot for
 * the root of a kind (apiVersion, kind, metadata.name and generateName are then readable).
 */
export function compileRule(rule: ValidationRule, schema: JSONSchemaProps, opts: { isResourceRoot?: boolean } = {}): RuleProblem[] {
  const isResourceRoot = opts.isResourceRoot === true || schema['x-kubernetes-embedded-resource'] === true;
  const env = environmentFor(schema, { isResourceRoot, optionalOldSelf: rule.optionalOldSelf === true });
  if (env === undefined) return [{ field: 'rule', message: 'failed to convert to declType for CEL validation rules' }];
  const problems: RuleProblem[] = [];
  const ruleProblem = checkExpression(env, rule.rule, 'bool');
  if (ruleProblem !== undefined) problems.push({ field: 'rule', message: ruleProblem });
  if (rule.messageExpression !== undefined) {
    const messageProblem = checkExpression(env, rule.messageExpression, 'string');
    if (messageProblem !== undefined) problems.push({ field: 'messageExpression', message: messageProblem });
  }
  return problems;
}

/**
 * The problem with an expression in env, or undefined: syntax and types (cel-go's issues text,
 * errors.ts), the result type, regex literals.
 */
function checkExpression(env: Environment, expression: string, want: 'bool' | 'string'): string | undefined {
  let result = env.check(expression);
  // A has() of any operand, as CEL allows, is checked in the form cel-js reads (has.ts); the
  // errors of an expression wrong in another way are reported on its text as written.
  if (!result.valid) {
    const form = celCompatibleForm(env, expression, 'check');
    if (form === expression) return goCompileErrors(env, expression, result.error);
    result = env.check(form);
    if (!result.valid) return goCompileErrors(env, expression, result.error);
  }
  if (result.type !== want && result.type !== 'dyn') return `must evaluate to ${want}, not ${result.type}`;
  const parsed = env.parse(expression);
  for (const { name, pattern, node } of regexLiterals(parsed.ast)) {
    const err = regexError(pattern);
    if (err === undefined) continue;
    // matches() is checked by cel.ValidateRegexLiterals, a compile-time issue; find and findAll
    // compile their constant patterns when the program is made.
    return name === 'matches' ? goInvalidMatchesArgument(expression, node) : `invalid regular expression ${JSON.stringify(pattern)}: ${err}`;
  }
  return undefined;
}

/** What a compiled expression is evaluated with. */
export interface Activation {
  readonly self: unknown;
  readonly oldSelf?: unknown;
}

export type Program = (activation: Activation) => unknown;

/** One rule ready for evaluation (CompilationResult). */
export interface CompiledRule {
  readonly rule: ValidationRule;
  /** Set when the rule does not compile: `rule compile error: <error>` at request time. */
  readonly error?: string;
  /** Undefined for an empty rule, which is skipped. */
  readonly program?: Program;
  readonly usesOldSelf: boolean;
  readonly optionalOldSelf: boolean;
  /** Undefined without a messageExpression or when it does not compile (message is used). */
  readonly messageExpression?: Program;
  /** The rule's fieldPath normalized against the schema (`reference`, `a.b`); undefined when absent or invalid. */
  readonly fieldPath?: string;
}

/** Compiles the rules declared on a node whose values have type decl (Compile). */
export function compileRules(rules: readonly ValidationRule[], schema: JSONSchemaProps, decl: DeclType): CompiledRule[] {
  return rules.map((rule) => compileOne(rule, schema, decl));
}

function compileOne(rule: ValidationRule, schema: JSONSchemaProps, decl: DeclType): CompiledRule {
  const optionalOldSelf = rule.optionalOldSelf === true;
  const base = { rule, usesOldSelf: false, optionalOldSelf };
  if (rule.rule.trim() === '') return base;
  const env = ruleEnvironment(decl, optionalOldSelf);
  const problem = checkExpression(env, rule.rule, 'bool');
  if (problem !== undefined) {
    return { ...base, error: problem.startsWith('must evaluate') ? 'cel expression must evaluate to a bool' : `compilation failed: ${problem}` };
  }
  const usesOldSelf = referencesOldSelf(env.parse(rule.rule).ast);
  let messageExpression: Program | undefined;
  if (rule.messageExpression !== undefined && rule.messageExpression !== '' && checkExpression(env, rule.messageExpression, 'string') === undefined) {
    messageExpression = program(env, rule.messageExpression);
  }
  const fieldPath = rule.fieldPath === undefined || rule.fieldPath === '' ? undefined : normalizeFieldPath(rule.fieldPath, schema);
  return {
    ...base,
    usesOldSelf,
    program: program(env, rule.rule),
    ...(messageExpression !== undefined ? { messageExpression } : {}),
    ...(fieldPath !== undefined ? { fieldPath } : {}),
  };
}

/** An expression that compiles in env, ready to evaluate with the engine's hooks on every node. */
export function program(env: Environment, expression: string): Program {
  const parsed = env.parse(evaluableForm(celCompatibleForm(env, expression, 'evaluate')));
  const checked = parsed.check();
  if (!checked.valid) throw checked.error ?? new Error(`CEL expression does not compile: ${expression}`);
  return (activation) => parsed({ ...activation }) as unknown;
}

interface AstLike {
  readonly op: string;
  readonly args: unknown;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
}

function isAst(v: unknown): v is AstLike {
  return typeof v === 'object' && v !== null && typeof (v as Partial<AstLike>).op === 'string' && 'args' in v;
}

/** Every node of a parsed expression (its written form, before macro expansion). */
function* walk(v: unknown): Generator<AstLike> {
  if (Array.isArray(v)) {
    for (const item of v) yield* walk(item);
  } else if (isAst(v)) {
    yield v;
    yield* walk(v.args);
  }
}

function referencesOldSelf(ast: unknown): boolean {
  for (const node of walk(ast)) if (node.op === 'id' && node.args === 'oldSelf') return true;
  return false;
}

/** Constant patterns given to matches, find and findAll: checked at compile time (ValidateRegexLiterals). */
function regexLiterals(ast: unknown): { name: string; pattern: string; node: AstLike }[] {
  const out: { name: string; pattern: string; node: AstLike }[] = [];
  for (const node of walk(ast)) {
    if (node.op !== 'rcall') continue;
    const [name, , args] = node.args as [string, unknown, unknown[]];
    const pattern = args[0];
    if ((name === 'matches' || name === 'find' || name === 'findAll') && isAst(pattern) && pattern.op === 'value' && typeof pattern.args === 'string') {
      out.push({ name, pattern: pattern.args, node: pattern });
    }
  }
  return out;
}
