import type { ListMeta, ObjectMeta } from '../../../apis/meta/v1/types.js';

/**
 * An object of any kind as JSON (unstructured.Unstructured): apiVersion and kind identify it,
 * everything else is data. Keys such as `__proto__` stay ordinary properties, as JSON.parse
 * makes them.
 */
export interface Unstructured {
  apiVersion: string;
  kind: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** A list of any kind (unstructured.UnstructuredList). */
export interface UnstructuredList {
  apiVersion: string;
  kind: string;
  metadata?: ListMeta;
  items: Unstructured[];
  [field: string]: unknown;
}

/**
 * The object of an answer, checked as the unstructured JSON decoder checks it: a JSON object
 * with a kind. Anything else is an error naming the bytes, as client-go's
 * "Object 'Kind' is missing in '…'".
 */
export function asUnstructured(v: unknown): Unstructured {
  if (!isObject(v)) throw new Error(`couldn't get version/kind; json parse error: expected a JSON object, got ${describe(v)}`);
  if (typeof v['kind'] !== 'string' || v['kind'] === '') throw new Error(`Object 'Kind' is missing in '${truncate(JSON.stringify(v))}'`);
  return v as Unstructured;
}

/** A list answer: the object with its items, each an Unstructured (unstructured.UnstructuredList). */
export function asUnstructuredList(v: unknown): UnstructuredList {
  const obj = asUnstructured(v);
  const items = obj['items'];
  if (items !== undefined && items !== null && !Array.isArray(items)) throw new Error(`items of ${obj.kind} is not an array`);
  return { ...obj, items: (items ?? []).map(asUnstructured) } as UnstructuredList;
}

/**
 * The value at a path of nested maps (unstructured.NestedFieldNoCopy), undefined when a step is
 * missing or not an object. Only own properties are followed.
 */
export function nestedField(obj: Readonly<Record<string, unknown>>, ...fields: string[]): unknown {
  let cur: unknown = obj;
  for (const f of fields) {
    if (!isObject(cur) || !Object.hasOwn(cur, f)) return undefined;
    cur = cur[f];
  }
  return cur;
}

/** A string at a path (unstructured.NestedString); undefined when absent or not a string. */
export function nestedString(obj: Readonly<Record<string, unknown>>, ...fields: string[]): string | undefined {
  const v = nestedField(obj, ...fields);
  return typeof v === 'string' ? v : undefined;
}

/**
 * Sets a value at a path, making the maps on the way (unstructured.SetNestedField). Intermediate
 * maps are made with defineProperty, so a `__proto__` step is a property, never the prototype.
 */
export function setNestedField(obj: Record<string, unknown>, value: unknown, ...fields: string[]): void {
  if (fields.length === 0) throw new TypeError('setNestedField: a path is required');
  let cur: Record<string, unknown> = obj;
  for (const f of fields.slice(0, -1)) {
    const next = Object.hasOwn(cur, f) ? cur[f] : undefined;
    if (isObject(next)) {
      cur = next;
      continue;
    }
    const made: Record<string, unknown> = {};
    define(cur, f, made);
    cur = made;
  }
  define(cur, fields[fields.length - 1] as string, value);
}

/** Removes the value at a path (unstructured.RemoveNestedField); missing steps are fine. */
export function removeNestedField(obj: Record<string, unknown>, ...fields: string[]): void {
  const parent = fields.length <= 1 ? obj : nestedField(obj, ...fields.slice(0, -1));
  const last = fields[fields.length - 1];
  if (last !== undefined && isObject(parent) && Object.hasOwn(parent, last)) delete parent[last];
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

/** Error texts quote at most this much of an answer. */
const MAX_QUOTED = 1024;

function truncate(s: string): string {
  return s.length <= MAX_QUOTED ? s : `${s.slice(0, MAX_QUOTED)}…`;
}
