import type { Environment } from '@marcbachmann/cel-js';
import { chargeActive } from '../engine.js';
import { celEquals } from '../equality.js';
import { define } from './define.js';

/**
 * cel-go's sets extension, enabled in Kubernetes since 1.29: sets.contains(a, b) (every
 * element of b is in a), sets.equivalent(a, b) (each contains the other) and
 * sets.intersects(a, b), by CEL equality. Each pair of elements compared costs a tenth.
 */
class SetsNamespace {}

function contains(a: Iterable<unknown>, b: Iterable<unknown>): boolean {
  const left = [...a];
  const right = [...b];
  chargeActive(Math.ceil((left.length * right.length) / 10));
  return right.every((y) => left.some((x) => celEquals(x, y)));
}

export function registerSets(env: Environment): void {
  env.registerType('kubernetes.SetsNamespace', SetsNamespace);
  env.registerConstant('sets', 'kubernetes.SetsNamespace', new SetsNamespace());
  define(env, 'kubernetes.SetsNamespace.contains(list<A>, list<A>): bool', (_: SetsNamespace, a: Iterable<unknown>, b: Iterable<unknown>) => contains(a, b));
  define(env, 'kubernetes.SetsNamespace.equivalent(list<A>, list<A>): bool', (_: SetsNamespace, a: Iterable<unknown>, b: Iterable<unknown>) => contains(a, b) && contains(b, a));
  define(env, 'kubernetes.SetsNamespace.intersects(list<A>, list<A>): bool', (_: SetsNamespace, a: Iterable<unknown>, b: Iterable<unknown>) => {
    const left = [...a];
    const right = [...b];
    chargeActive(Math.ceil((left.length * right.length) / 10));
    return right.some((y) => left.some((x) => celEquals(x, y)));
  });
}
