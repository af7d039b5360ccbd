// Request builders shared by the generators: one request of any verb against any target, so a
// generator only decides what it corrupts (body, Content-Type, query, path) and what kube answers.
import type { RawRequest } from '../integration/https.js';
import type { FuzzCase, Sent } from './cases.js';
import { Model } from './model.js';
import type { Rand } from './prng.js';
import { PATCH_CONTENT_TYPE, itemPath, targets, type Obj, type PatchType, type Target, type Verb } from './targets.js';

export interface FuzzContext {
  /** Namespace of the namespaced targets' objects. */
  ns: string;
  /** Objects made before the fuzz that bad inputs aim at; no case deletes them. */
  keep: Readonly<Record<Target['id'], readonly string[]>>;
  /** Names valid writes create, change and delete, in turn. */
  slots: Readonly<Record<Target['id'], readonly string[]>>;
}

export const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };
/** Key of the canary a prototype-pollution payload tries to plant on Object.prototype. */
export const CANARY = 'fuzzPolluted';

export const fzName = (r: Rand): string => `fz-${r.str(10)}`;
export const keyOf = (t: Target, c: FuzzContext, name: string): string => Model.key(t.id, t.namespaced ? c.ns : '', name);

export interface Aim {
  t: Target;
  /** The object (update, patch, delete, get); a fresh name for create. */
  name: string;
  /** The object's key in the model when the request names an existing object. */
  object?: string;
}

/** A random target and one of its objects that bad inputs may aim at. */
export function aimKeep(r: Rand, c: FuzzContext, only: readonly Target[] = targets): Aim {
  const t = r.pick(only);
  const name = r.pick(c.keep[t.id]);
  return { t, name, object: keyOf(t, c, name) };
}

export interface RequestParts {
  body?: string | Buffer;
  contentType?: string;
  /** Query string without `?`. */
  query?: string;
  patchType?: PatchType;
  subresource?: 'status' | 'scale';
  accept?: string;
}

/** One request of `verb` on the aimed object or its collection. */
export function verbRequest(verb: Verb, a: Aim, c: FuzzContext, p: RequestParts = {}): RawRequest {
  const ns = c.ns;
  const q = (extra?: string): string => {
    const parts = [extra, p.query].filter((s): s is string => s !== undefined && s !== '');
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  };
  const headers: Record<string, string> = { Accept: p.accept ?? 'application/json' };
  const withBody = (method: string, path: string, defaultType: string): RawRequest => {
    if (p.contentType !== undefined || p.body !== undefined) headers['Content-Type'] = p.contentType ?? defaultType;
    return { method, path, headers, ...(p.body !== undefined ? { body: p.body } : {}) };
  };
  switch (verb) {
    case 'get':
      return { path: `${itemPath(a.t, ns, a.name, p.subresource)}${q()}`, headers };
    case 'list':
      return { path: `${a.t.collection(ns)}${q()}`, headers };
    case 'watch':
      // A watch always ends by itself: a wrongly accepted one cannot stall the fuzz.
      return { path: `${a.t.collection(ns)}${q('watch=true')}${/timeoutSeconds=/.test(p.query ?? '') ? '' : '&timeoutSeconds=1'}`, headers };
    case 'create':
      return withBody('POST', `${a.t.collection(ns)}${q()}`, 'application/json');
    case 'update':
      return withBody('PUT', `${itemPath(a.t, ns, a.name, p.subresource)}${q()}`, 'application/json');
    case 'patch':
      return withBody('PATCH', `${itemPath(a.t, ns, a.name, p.subresource)}${q()}`, PATCH_CONTENT_TYPE[p.patchType ?? 'merge']);
    case 'delete':
      return withBody('DELETE', `${itemPath(a.t, ns, a.name)}${q()}`, 'application/json');
    case 'deletecollection':
      return withBody('DELETE', `${a.t.collection(ns)}${q()}`, 'application/json');
  }
}

/** A deep copy of a JSON value (keys such as `__proto__` stay own data properties). */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** An object with one own property, whatever its name (`__proto__` included). */
export function own(key: string, value: unknown): Obj {
  const o: Obj = {};
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  return o;
}

/** Sets a value at a path of own properties, creating objects on the way. */
export function setPath(o: Obj, path: readonly string[], value: unknown): Obj {
  let cur = o;
  for (const [i, k] of path.entries()) {
    if (i === path.length - 1) {
      Object.defineProperty(cur, k, { value, enumerable: true, writable: true, configurable: true });
      break;
    }
    const next = Object.prototype.hasOwnProperty.call(cur, k) ? cur[k] : undefined;
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      const fresh: Obj = {};
      Object.defineProperty(cur, k, { value: fresh, enumerable: true, writable: true, configurable: true });
      cur = fresh;
    } else cur = next as Obj;
  }
  return o;
}

/** Reads a path of own properties (undefined when a step is missing). */
export function getPath(o: unknown, path: readonly string[]): unknown {
  let cur = o;
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, k)) return undefined;
    cur = (cur as Obj)[k];
  }
  return cur;
}

/** A JSON Pointer for a path (RFC 6901 escaping). */
export const pointer = (path: readonly string[]): string => path.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The object as last acknowledged, ready to PUT back (throws when the model lacks it: a bug in a generator). */
export function current(m: Model, key: string): Obj {
  const o = m.get(key);
  if (!o) throw new Error(`fuzz: ${key} is not in the model`);
  return clone(o);
}

/** A case on the aimed object whose request is built, when sent, from the object as last acknowledged (a copy). */
export function onObject(category: string, a: Aim, verb: FuzzCase['verb'], build: (o: Obj) => Sent): FuzzCase {
  const key = a.object as string;
  return { category, target: a.t.id, verb, answer: 'status', object: key, build: (m) => build(current(m, key)) };
}
