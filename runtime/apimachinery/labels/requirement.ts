import type { Labels } from './labels.js';
import { quote } from '../util/strconv.js';
import { isQualifiedName, isValidLabelValue } from './validation.js';

/** Selector operators, spelled as k8s.io/apimachinery/pkg/selection. */
export type Operator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** Thrown for selectors that do not parse or validate; the REST layer maps it to 400. */
export class InvalidSelectorError extends Error {
  override readonly name = 'InvalidSelectorError';
}

const integerRe = /^[+-]?\d+$/;

function parseInteger(v: string): bigint | undefined {
  if (!integerRe.test(v)) return undefined;
  const n = BigInt(v);
  // ParseInt(…, 10, 64): out-of-range values are errors, not clamps.
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return n;
}

/**
 * One `key op values` term of a label selector. Values are kept sorted and de-duplicated for
 * the set operators, as the Go parser (which collects them in a string set) does.
 */
export class Requirement {
  private constructor(
    readonly key: string,
    readonly operator: Operator,
    readonly values: readonly string[],
  ) {}

  /**
   * NewRequirement: validates key, operator arity and values. Throws InvalidSelectorError
   * listing every problem found.
   */
  static create(key: string, operator: Operator, values: readonly string[]): Requirement {
    const errs: string[] = [];
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length > 0) errs.push(`key: Invalid value: ${quote(key)}: ${keyErrs.join('; ')}`);
    switch (operator) {
      case 'in':
      case 'notin':
        if (values.length === 0) errs.push(`values: Invalid value: ${goStrings(values)}: for 'in', 'notin' operators, values set can't be empty`);
        break;
      case '=':
      case '==':
      case '!=':
        if (values.length !== 1) errs.push(`values: Invalid value: ${goStrings(values)}: exact-match compatibility requires one single value`);
        break;
      case 'exists':
      case '!':
        if (values.length !== 0) errs.push(`values: Invalid value: ${goStrings(values)}: values set must be empty for exists and does not exist`);
        break;
      case 'gt':
      case 'lt':
        if (values.length !== 1) errs.push(`values: Invalid value: ${goStrings(values)}: for 'Gt', 'Lt' operators, exactly one value is required`);
        values.forEach((v, i) => {
          if (parseInteger(v) === undefined) errs.push(`values[${i}]: Invalid value: ${quote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
        });
        break;
      default:
        errs.push(`operator: Unsupported value: ${quote(operator)}`);
    }
    values.forEach((v, i) => {
      const valErrs = isValidLabelValue(v);
      if (valErrs.length > 0) errs.push(`values[${i}][${key}]: Invalid value: ${quote(v)}: ${valErrs.join('; ')}`);
    });
    if (errs.length === 1) throw new InvalidSelectorError(errs[0]);
    if (errs.length > 1) throw new InvalidSelectorError(`[${errs.join(', ')}]`);
    return new Requirement(key, operator, values);
  }

  /** For sets already known to be valid (SelectorFromValidatedSet): no checks. */
  static unchecked(key: string, operator: Operator, values: readonly string[]): Requirement {
    return new Requirement(key, operator, values);
  }

  /** Matches: `!=` and `notin` match objects lacking the key; `gt`/`lt` need an integer label. */
  matches(ls: Labels): boolean {
    switch (this.operator) {
      case 'in':
      case '=':
      case '==': {
        const v = ls.get(this.key);
        return v !== undefined && this.values.includes(v);
      }
      case 'notin':
      case '!=': {
        const v = ls.get(this.key);
        return v === undefined || !this.values.includes(v);
      }
      case 'exists':
        return ls.has(this.key);
      case '!':
        return !ls.has(this.key);
      case 'gt':
      case 'lt': {
        const v = ls.get(this.key);
        if (v === undefined || this.values.length !== 1) return false;
        const have = parseInteger(v);
        const want = parseInteger(this.values[0] ?? '');
        if (have === undefined || want === undefined) return false;
        return this.operator === 'gt' ? have > want : have < want;
      }
    }
  }

  /** Canonical text, e.g. `x in (a,b)`, `!x`, `x>3`; multi-values printed sorted. */
  toString(): string {
    const prefix = this.operator === '!' ? '!' : '';
    let op: string;
    switch (this.operator) {
      case 'exists':
      case '!':
        return `${prefix}${this.key}`;
      case 'in':
        op = ' in ';
        break;
      case 'notin':
        op = ' notin ';
        break;
      case 'gt':
        op = '>';
        break;
      case 'lt':
        op = '<';
        break;
      default:
        op = this.operator;
    }
    const vals = this.values.length === 1 ? (this.values[0] ?? '') : [...this.values].sort().join(',');
    const body = this.operator === 'in' || this.operator === 'notin' ? `(${vals})` : vals;
    return `${this.key}${op}${body}`;
  }

  equals(other: Requirement): boolean {
    return this.key === other.key && this.operator === other.operator && this.values.length === other.values.length && this.values.every((v, i) => v === other.values[i]);
  }
}

/** A []string bad value as field.Error prints it (%#v): `[]string{"a", "b"}`. */
function goStrings(values: readonly string[]): string {
  return `[]string{${values.map(quote).join(', ')}}`;
}
