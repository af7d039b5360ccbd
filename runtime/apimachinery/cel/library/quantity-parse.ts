/**
 * resource.Quantity's parsing and arithmetic (k8s.io/apimachinery/pkg/api/resource), on the
 * exact value in nano-units: a parsed quantity is rounded up to 1n precision, binary-SI values
 * are capped at the int64 maximum, as ParseQuantity does.
 */

export const ERR_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ERR_NUMERIC = "unable to parse quantity's numeric value";
export const ERR_SUFFIX = "unable to parse quantity's suffix";

const NANO = 1_000_000_000n;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** Larger decimal exponents are refused rather than expanded into enormous integers. */
const MAX_EXPONENT = 1024;

const DECIMAL_SI: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SI: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

export class QuantityError extends Error {}

/** A quantity's exact value times 10^9. */
export type Nanos = bigint;

export function parseQuantity(str: string): Nanos {
  if (str === '') throw new QuantityError(ERR_FORMAT_WRONG);
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(str)!;
  const negative = m[1] === '-';
  const whole = m[2]!;
  const fraction = m[3] ?? '';
  const suffix = m[4]!;
  if (!/^[eEinumkKMGTP]*[-+]?[0-9]*$/.test(suffix)) throw new QuantityError(ERR_FORMAT_WRONG);
  const unit = interpretSuffix(suffix);
  if (unit === undefined) throw new QuantityError(ERR_SUFFIX);
  // A number without digits ("", "-", ".", or a bare suffix like "Mi") is zero, as in Go.
  // value = digits × 10^-fraction.length × unit, in nanos, rounded up (away from zero).
  const digits = BigInt(`${whole}${fraction}` === '' ? '0' : `${whole}${fraction}`);
  if (unit.base === 10 && unit.exponent < -(whole.length + fraction.length + 10)) {
    // Below a nano-unit whatever the digits: rounds up to 1n (and spares a huge power of ten).
    return digits === 0n ? 0n : negative ? -1n : 1n;
  }
  if (unit.base === 10 && unit.exponent > MAX_EXPONENT) throw new QuantityError(ERR_NUMERIC);
  let numerator = digits * NANO;
  let denominator = 10n ** BigInt(fraction.length);
  if (unit.base === 10) {
    if (unit.exponent >= 0) numerator *= 10n ** BigInt(unit.exponent);
    else denominator *= 10n ** BigInt(-unit.exponent);
  } else {
    numerator *= 1n << BigInt(unit.exponent);
  }
  let nanos = numerator / denominator;
  if (numerator % denominator !== 0n) nanos += 1n;
  if (unit.base === 2 && nanos > INT64_MAX * NANO) nanos = INT64_MAX * NANO;
  return negative ? -nanos : nanos;
}

function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number } | undefined {
  if (Object.hasOwn(DECIMAL_SI, suffix)) return { base: 10, exponent: DECIMAL_SI[suffix]! };
  if (Object.hasOwn(BINARY_SI, suffix)) return { base: 2, exponent: BINARY_SI[suffix]! };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1));
    if (Number.isSafeInteger(exponent) && Math.abs(exponent) <= 2 ** 31) return { base: 10, exponent };
  }
  return undefined;
}

export function nanosOfInt(v: bigint): Nanos {
  return v * NANO;
}

/** AsInt64: the integer value when there is one within int64. */
export function asInt64(q: Nanos): bigint | undefined {
  if (q % NANO !== 0n) return undefined;
  const v = q / NANO;
  return v > INT64_MAX || v < INT64_MIN ? undefined : v;
}

/** AsApproximateFloat64. */
export function asFloat(q: Nanos): number {
  const whole = q / NANO;
  return Number(whole) + Number(q % NANO) / 1e9;
}

export function compareQuantities(a: Nanos, b: Nanos): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
