import type { Environment } from '@marcbachmann/cel-js';
import type { CelEquatable } from '../equality.js';
import { celError, define } from './define.js';
import { asFloat, asInt64, compareQuantities, nanosOfInt, parseQuantity, type Nanos } from './quantity-parse.js';

/**
 * Kubernetes' quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go): quantity(),
 * isQuantity(), sign(), comparisons, add/sub with quantities and ints, and conversions.
 */
export class QuantityValue implements CelEquatable {
  constructor(readonly nanos: Nanos) {}

  equalsCel(other: unknown): boolean {
    return other instanceof QuantityValue && other.nanos === this.nanos;
  }
}

const Q = 'kubernetes.Quantity';

export function registerQuantity(env: Environment): void {
  env.registerType(Q, QuantityValue);
  env.registerOperator(`${Q} == ${Q}`, (a: QuantityValue, b: QuantityValue) => a.equalsCel(b));
  define(env, `quantity(string): ${Q}`, (s: string) => {
    try {
      return new QuantityValue(parseQuantity(s));
    } catch (e) {
      throw celError(e instanceof Error ? e.message : String(e));
    }
  });
  define(env, 'isQuantity(string): bool', (s: string) => {
    try {
      parseQuantity(s);
      return true;
    } catch {
      return false;
    }
  });
  define(env, `sign(${Q}): int`, (q: QuantityValue) => BigInt(compareQuantities(q.nanos, 0n)));
  define(env, `${Q}.isGreaterThan(${Q}): bool`, (a: QuantityValue, b: QuantityValue) => a.nanos > b.nanos);
  define(env, `${Q}.isLessThan(${Q}): bool`, (a: QuantityValue, b: QuantityValue) => a.nanos < b.nanos);
  define(env, `${Q}.compareTo(${Q}): int`, (a: QuantityValue, b: QuantityValue) => BigInt(compareQuantities(a.nanos, b.nanos)));
  define(env, `${Q}.asApproximateFloat(): double`, (q: QuantityValue) => asFloat(q.nanos));
  define(env, `${Q}.isInteger(): bool`, (q: QuantityValue) => asInt64(q.nanos) !== undefined);
  define(env, `${Q}.asInteger(): int`, (q: QuantityValue) => {
    const v = asInt64(q.nanos);
    if (v === undefined) throw celError('cannot convert value to integer');
    return v;
  });
  define(env, `${Q}.add(${Q}): ${Q}`, (a: QuantityValue, b: QuantityValue) => new QuantityValue(a.nanos + b.nanos));
  define(env, `${Q}.add(int): ${Q}`, (a: QuantityValue, b: bigint) => new QuantityValue(a.nanos + nanosOfInt(b)));
  define(env, `${Q}.sub(${Q}): ${Q}`, (a: QuantityValue, b: QuantityValue) => new QuantityValue(a.nanos - b.nanos));
  define(env, `${Q}.sub(int): ${Q}`, (a: QuantityValue, b: bigint) => new QuantityValue(a.nanos - nanosOfInt(b)));
}
