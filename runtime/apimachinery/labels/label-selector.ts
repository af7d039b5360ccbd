import type { LabelSelector } from '../../../apis/meta/v1/types.js';
import { quote } from '../util/strconv.js';
import { InvalidSelectorError, Requirement, type Operator } from './requirement.js';
import { everything, nothing, selectorFromRequirements, type Selector } from './selector.js';

const OPERATORS: ReadonlyMap<string, Operator> = new Map([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

/**
 * metav1.LabelSelectorAsSelector: an absent selector selects nothing, an empty one everything;
 * matchLabels are `key = value` requirements and matchExpressions their operators. Throws
 * InvalidSelectorError for an unknown operator or an invalid key or value.
 */
export function labelSelectorAsSelector(ls: LabelSelector | undefined | null): Selector {
  if (ls === undefined || ls === null) return nothing();
  const matchLabels = Object.entries(ls.matchLabels ?? {});
  const expressions = ls.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return everything();
  const requirements: Requirement[] = matchLabels.map(([k, v]) => Requirement.create(k, '=', [v]));
  for (const expr of expressions) {
    const op = OPERATORS.get(expr.operator);
    if (op === undefined) throw new InvalidSelectorError(`${quote(expr.operator)} is not a valid label selector operator`);
    requirements.push(Requirement.create(expr.key, op, [...(expr.values ?? [])]));
  }
  return selectorFromRequirements(requirements);
}
