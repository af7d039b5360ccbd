import type { JSONSchemaProps, ValidationRule } from '../../../apis/apiextensions/v1/schema.js';
import { environmentFor } from './environment.js';

export interface RuleProblem {
  /** Which part of the rule failed: the rule itself or its messageExpression. */
  readonly field: 'rule' | 'messageExpression';
  readonly message: string;
}

/**
 * Compiles (parses and type-checks) one validation rule against the schema
 * it is declared on. Returns the problems; an empty list means the rule
 * compiles. A rule must yield bool and a messageExpression string, as the
 * apiserver requires when a CRD is written.
 */
export function compileRule(rule: ValidationRule, schema: JSONSchemaProps): RuleProblem[] {
  const env = environmentFor(schema);
  const problems: RuleProblem[] = [];
  const check = (field: RuleProblem['field'], expression: string, want: string): void => {
    const result = env.check(expression);
    if (!result.valid) {
      problems.push({ field, message: firstLine(result.error?.message ?? 'does not compile') });
    } else if (result.type !== want && result.type !== 'dyn') {
      problems.push({ field, message: `must evaluate to ${want}, not ${result.type}` });
    }
  };
  check('rule', rule.rule, 'bool');
  if (rule.messageExpression !== undefined) check('messageExpression', rule.messageExpression, 'string');
  return problems;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
