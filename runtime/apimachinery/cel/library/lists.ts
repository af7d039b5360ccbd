import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type { Environment } from '@marcbachmann/cel-js';
import { celEquals, compareValues } from '../equality.js';
import { celError, checkInt64, define } from './define.js';

/**
 * Kubernetes' lists library (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted, min and max
 * for lists of comparable types, sum for int, uint, double and duration lists, indexOf and
 * lastIndexOf by CEL equality for any list.
 */
const TS = 'google.protobuf.Timestamp';
const DURATION = 'google.protobuf.Duration';
const COMPARABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', DURATION, TS];
const SUMMABLE: ReadonlyArray<readonly [string, () => unknown]> = [
  ['int', () => 0n],
  ['uint', () => new UnsignedInt(0n)],
  ['double', () => 0],
  [DURATION, () => new Duration(0n, 0)],
];

export function registerLists(env: Environment): void {
  for (const t of COMPARABLE) {
    define(env, `list<${t}>.isSorted(): bool`, isSorted);
    define(env, `list<${t}>.min(): ${t}`, (list: Iterable<unknown>) => extreme(list, 'min', 1));
    define(env, `list<${t}>.max(): ${t}`, (list: Iterable<unknown>) => extreme(list, 'max', -1));
  }
  for (const [t, zero] of SUMMABLE) define(env, `list<${t}>.sum(): ${t}`, (list: Iterable<unknown>) => sum(list, zero()));
  define(env, 'list<A>.indexOf(A): int', (list: Iterable<unknown>, item: unknown) => BigInt([...list].findIndex((v) => celEquals(v, item))));
  define(env, 'list<A>.lastIndexOf(A): int', (list: Iterable<unknown>, item: unknown) => BigInt([...list].findLastIndex((v) => celEquals(v, item))));
}

function isSorted(list: Iterable<unknown>): boolean {
  let previous: unknown;
  let first = true;
  for (const v of list) {
    if (!first && compareValues(previous, v) > 0) return false;
    previous = v;
    first = false;
  }
  return true;
}

/** min keeps the first element nothing is less than; max the first nothing is greater than. */
function extreme(list: Iterable<unknown>, name: string, replaceWhen: number): unknown {
  let result: unknown;
  let empty = true;
  for (const v of list) {
    if (empty || compareValues(result, v) === replaceWhen) result = v;
    empty = false;
  }
  if (empty) throw celError(`${name} called on empty list`);
  return result;
}

function sum(list: Iterable<unknown>, zero: unknown): unknown {
  let acc = zero;
  for (const v of list) acc = add(acc, v);
  return acc;
}

function add(a: unknown, b: unknown): unknown {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkInt64(a + b);
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (a instanceof UnsignedInt && b instanceof UnsignedInt) return new UnsignedInt(a.valueOf() + b.valueOf());
  if (a instanceof Duration && b instanceof Duration) return a.addDuration(b);
  throw celError('no such overload');
}
