import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { chargeActive } from './engine.js';
import { escapeProperty } from './escaping.js';
import { isMapList, mapListEquals } from './listtypes.js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { CelObject, INVALID_DATA } from './model.js';

/** Values with an equality of their own (Quantity, URL). */
export interface CelEquatable {
  equalsCel(other: unknown): boolean;
}

function isEquatable(v: unknown): v is CelEquatable {
  return typeof v === 'object' && v !== null && typeof (v as Partial<CelEquatable>).equalsCel === 'function';
}

/**
 * CEL equality over the values rules see: numbers across int and double, lists in order
 * (sets in any order, map lists by key), maps by key, objects by their fields with the fields rules cannot
 * see compared as decoded JSON (unstructuredMap.Equal). Each composite compared costs a unit.
 */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' || typeof a === 'number') {
    return (typeof b === 'bigint' || typeof b === 'number') && Number(a) === Number(b) && (typeof a !== typeof b || a === b);
  }
  for (const v of [a, b]) {
    if (typeof v === 'object' && v !== null && (v as { invalidData?: unknown }).invalidData === INVALID_DATA) throw new EvaluationError((v as { message: string }).message);
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  chargeActive(1);
  if (isEquatable(a)) return a.equalsCel(b);
  if (a instanceof UnsignedInt) return b instanceof UnsignedInt && a.valueOf() === b.valueOf();
  if (a instanceof Duration) return b instanceof Duration && a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof Set) return b instanceof Set && a.size === b.size && [...a].every((x) => b.has(x) || [...b].some((y) => celEquals(x, y)));
  if (isMapList(a)) return mapListEquals(a, b, celEquals);
  if (isMapList(b)) return mapListEquals(b, a, celEquals);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  if (a instanceof CelObject) return b instanceof CelObject && objectEquals(a, b);
  if (a instanceof Map) return b instanceof Map && mapEquals(a, b);
  return false;
}

function mapEquals(a: Map<unknown, unknown>, b: Map<unknown, unknown>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    if (!b.has(k) || !celEquals(v, b.get(k))) return false;
  }
  return true;
}

function objectEquals(a: CelObject, b: CelObject): boolean {
  if (a.constructor !== b.constructor) return false;
  const ra = a.raw;
  const rb = b.raw;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const k of keys) {
    const escaped = escapeProperty(k);
    if (escaped !== undefined && (a.has(escaped) || b.has(escaped))) continue;
    if (!Object.hasOwn(rb, k) || !jsonEquals(ra[k], rb[k])) return false;
  }
  return mapEquals(a, b);
}

/** Deep equality of decoded JSON. */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEquals(x, b[i]));
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  return keys.length === Object.keys(rb).length && keys.every((k) => Object.hasOwn(rb, k) && jsonEquals(ra[k], rb[k]));
}

/** Ordering of comparable CEL values: -1, 0 or 1; anything else is an overload error. */
export function compareValues(a: unknown, b: unknown): number {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if ((typeof a === 'string' && typeof b === 'string') || (typeof a === 'boolean' && typeof b === 'boolean')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (a instanceof UnsignedInt && b instanceof UnsignedInt) return compareValues(a.valueOf(), b.valueOf());
  if (a instanceof Date && b instanceof Date) return compareValues(a.getTime(), b.getTime());
  if (a instanceof Duration && b instanceof Duration) {
    return a.seconds !== b.seconds ? compareValues(a.seconds, b.seconds) : compareValues(a.nanos, b.nanos);
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return compareValues(a.length, b.length);
  }
  throw new Error('no such overload');
}
