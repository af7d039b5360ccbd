import { NOT_HANDLED, type OperatorOverride } from './engine.js';
import { CelObject } from './model.js';
import { ownField } from '../serializer/jsonvalue.js';

/**
 * The list types' own semantics (unstructuredMapList, unstructuredSetList): items of a
 * list-type=map list are identified by their key fields, so two such lists are equal when they
 * hold equal items under the same keys in any order, and `a + b` merges b into a by key (a's
 * positions kept, its values replaced, new keys appended). Set lists are JS Sets (equal in any
 * order); `a + b` on a set is their union. Map lists are arrays remembered with their keys.
 */
const mapListKeys = new WeakMap<readonly unknown[], readonly string[]>();

/** Marks a converted list as list-type=map with these key properties. */
export function markMapList<T extends readonly unknown[]>(list: T, keys: readonly string[]): T {
  mapListKeys.set(list, keys);
  return list;
}

export function isMapList(v: unknown): v is readonly unknown[] {
  return Array.isArray(v) && mapListKeys.has(v);
}

function keyOf(item: unknown, keys: readonly string[]): string {
  const raw = item instanceof CelObject ? item.raw : item;
  return typeof raw === 'object' && raw !== null ? JSON.stringify(keys.map((k) => ownField(raw, k) ?? null)) : JSON.stringify(raw);
}

/** Equality of a map list with another list; `equals` compares two items. */
export function mapListEquals(a: readonly unknown[], b: unknown, equals: (x: unknown, y: unknown) => boolean): boolean {
  if (!Array.isArray(b) || a.length !== b.length) return false;
  const keys = mapListKeys.get(a) ?? [];
  const byKey = new Map(a.map((item) => [keyOf(item, keys), item] as const));
  return b.every((item) => {
    const k = keyOf(item, keys);
    return byKey.has(k) && equals(byKey.get(k), item);
  });
}

function merge(a: readonly unknown[], b: Iterable<unknown>): unknown[] {
  const keys = mapListKeys.get(a) ?? [];
  const out = [...a];
  const index = new Map(a.map((item, i) => [keyOf(item, keys), i] as const));
  for (const item of b) {
    const at = index.get(keyOf(item, keys));
    if (at === undefined) {
      index.set(keyOf(item, keys), out.length);
      out.push(item);
    } else {
      out[at] = item;
    }
  }
  return markMapList(out, keys);
}

function union(a: ReadonlySet<unknown>, b: Iterable<unknown>): Set<unknown> {
  const out = new Set(a);
  for (const item of b) out.add(item);
  return out;
}

/** Operator overrides for the engine; `equals` is CEL equality (injected to keep this module below equality.ts). */
export function listOperatorOverrides(equals: (x: unknown, y: unknown) => boolean): ReadonlyMap<string, OperatorOverride> {
  return new Map<string, OperatorOverride>([
    ['==', (l, r) => (isMapList(l) ? mapListEquals(l, r, equals) : isMapList(r) ? mapListEquals(r, l, equals) : NOT_HANDLED)],
    ['!=', (l, r) => (isMapList(l) ? !mapListEquals(l, r, equals) : isMapList(r) ? !mapListEquals(r, l, equals) : NOT_HANDLED)],
    [
      '+',
      (l, r) => {
        if (isMapList(l) && (Array.isArray(r) || r instanceof Set)) return merge(l, r);
        if (l instanceof Set && (Array.isArray(r) || r instanceof Set)) return union(l, r);
        return NOT_HANDLED;
      },
    ],
  ]);
}
