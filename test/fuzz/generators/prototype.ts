// Keys that reach a prototype in JavaScript (`__proto__`, `constructor`, `prototype`) are plain
// data in kube: unknown fields named so are pruned (refused under Strict), a label or annotation
// key `__proto__` is invalid (it starts with `_`) while `constructor` is a valid key that must
// round-trip, and in schemaless data or a map of strings any of them is kept as sent. Sent at the
// top level, in metadata, labels, annotations, spec, schemaless subtrees, maps, status, in every
// patch type, in JSON-patch paths, in delete options and in selectors.
import { isDeepStrictEqual } from 'node:util';
import { APPLY_REFUSALS, BAD_REQUEST, INVALID, METHOD_NOT_ALLOWED, SUCCESS, UNSUPPORTED, fixed, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { CANARY, aimKeep, clone, fzName, getPath, onObject, own, pointer, setPath, verbRequest, type Aim, type FuzzContext } from '../requests.js';
import { serviceTarget, type Obj, type PatchType, type Target } from '../targets.js';

const KEYS = ['__proto__', 'constructor', 'prototype'] as const;
type Key = (typeof KEYS)[number];

/** Where the key goes, and what kube does with it there. */
interface Spot {
  path: string[];
  value: unknown;
  /** `pruned`: an unknown field, dropped (400 under Strict); `kept`: data, must round-trip; `invalid`: 422. */
  fate: 'pruned' | 'kept' | 'invalid';
}

function spots(t: Target, k: Key): Spot[] {
  const payload = own(CANARY, 'yes');
  const asKey = k === '__proto__' ? 'invalid' : 'kept';
  const out: Spot[] = [
    { path: [k], value: payload, fate: 'pruned' },
    { path: ['metadata', k], value: payload, fate: 'pruned' },
    { path: ['metadata', 'labels', k], value: 'v', fate: asKey },
    { path: ['metadata', 'annotations', k], value: 'v', fate: asKey },
    { path: [...t.unknownSpecField.slice(0, -1), k], value: payload, fate: 'pruned' },
  ];
  if (t.schemaless) out.push({ path: [...t.schemaless, k], value: payload, fate: 'kept' }, { path: [...t.schemaless, 'a', k, 'b'], value: [payload], fate: 'kept' });
  if (t.stringMap) out.push({ path: [...t.stringMap, k], value: 'v', fate: 'kept' });
  if (t === serviceTarget) out.push({ path: ['spec', 'selector', k], value: 'v', fate: asKey });
  return out;
}

/** Checks a 2xx body: a pruned key is gone, a kept one is there with the value sent. */
function landed(s: Spot): (body: unknown) => string | undefined {
  return (body) => {
    const parent = getPath(body, s.path.slice(0, -1));
    const key = s.path[s.path.length - 1] as string;
    const has = typeof parent === 'object' && parent !== null && Object.prototype.hasOwnProperty.call(parent, key);
    if (s.fate === 'pruned') return has ? `unknown field ${s.path.join('.')} was kept: ${JSON.stringify(body).slice(0, 300)}` : undefined;
    const got = has ? (parent as Obj)[key] : undefined;
    return isDeepStrictEqual(clone(got), clone(s.value)) ? undefined : `${s.path.join('.')} did not round-trip: got ${JSON.stringify(got)}, sent ${JSON.stringify(s.value)}`;
  };
}

/** kube refuses an unknown field under Strict as 400 in a body, as 422 on `patch` in a patch. */
function outcome(s: Spot, strict: boolean, patch = false): Expect[] {
  if (s.fate === 'invalid') return [INVALID];
  if (s.fate === 'pruned' && strict) return [patch ? INVALID : BAD_REQUEST];
  return [{ code: 'success', check: landed(s) }];
}

/** A JSON patch that adds the spot to the object as it is: `add` at the first missing level. */
function jsonPatchFor(o: Obj, s: Spot): unknown[] {
  for (let i = 1; i <= s.path.length; i++) {
    const prefix = s.path.slice(0, i);
    if (i === s.path.length || getPath(o, prefix) === undefined) {
      const rest = s.path.slice(i);
      const value = rest.length === 0 ? s.value : setPath({}, rest, s.value);
      return [{ op: 'add', path: pointer(prefix), value }];
    }
  }
  return [];
}

const PATCH_TYPES: readonly PatchType[] = ['merge', 'strategic', 'json', 'apply'];

export const prototypeKeys = (r: Rand, c: FuzzContext): FuzzCase => {
  const k = r.pick(KEYS);
  const a = aimKeep(r, c);
  const s = r.pick(spots(a.t, k));
  const strict = r.chance(0.25);
  const query = strict ? 'fieldValidation=Strict' : '';
  const category = 'prototype keys';
  const verb = r.pick(['create', 'update', 'patch', 'patch'] as const);
  if (verb === 'create') {
    const o = a.t.manifest(fzName(r), c.ns);
    setPath(o, s.path, s.value);
    return fixed(category, a.t.id, verb, verbRequest('create', a, c, { body: JSON.stringify(o), contentType: 'application/json', query }), outcome(s, strict));
  }
  if (verb === 'update') {
    return onObject(category, a, verb, (o) => {
      setPath(o, s.path, s.value);
      return { req: verbRequest('update', a, c, { body: JSON.stringify(o), contentType: 'application/json', query }), expect: outcome(s, strict) };
    });
  }
  const patchType = r.pick(PATCH_TYPES);
  const mf = patchType === 'apply' ? 'fieldManager=fuzz' : '';
  const q = [query, mf].filter((x) => x !== '').join('&');
  return onObject(category, a, verb, (o) => {
    let doc: unknown;
    if (patchType === 'json') doc = jsonPatchFor(o, s);
    else if (patchType === 'apply') doc = setPath({ apiVersion: a.t.apiVersion, kind: a.t.kind, metadata: { name: a.name } }, s.path, s.value);
    else doc = setPath({}, s.path, s.value);
    return { req: verbRequest('patch', a, c, { body: JSON.stringify(doc), patchType, query: q }), expect: patchOutcome(a.t, patchType, outcome(s, strict, true)) };
  });
};

function patchOutcome(t: Target, patchType: PatchType, kube: Expect[]): Expect[] {
  if (patchType === 'strategic' && !t.strategic) return [UNSUPPORTED];
  if (patchType === 'apply') return [...kube, ...APPLY_REFUSALS];
  return kube;
}

/**
 * JSON-patch paths through a prototype: in a JSON document `/__proto__` and `/constructor` are
 * missing members, so every operation that needs one to exist fails (422), and nothing is
 * planted anywhere. (A `replace` of a missing member is an add in kube's json-patch v4, so it
 * is not among them; an added `__proto__` member is pruned as any unknown field.)
 */
export const prototypePaths = (r: Rand, c: FuzzContext): FuzzCase => {
  const a: Aim = aimKeep(r, c);
  const k = r.pick(KEYS);
  const ops = [
    [{ op: 'add', path: `/${k}/${CANARY}`, value: 'yes' }],
    [{ op: 'add', path: `/constructor/prototype/${CANARY}`, value: 'yes' }],
    [{ op: 'add', path: `/metadata/${k}/${CANARY}`, value: 'yes' }],
    [{ op: 'copy', from: `/${k}`, path: '/metadata/annotations' }],
    [{ op: 'move', from: `/metadata/${k}`, path: '/metadata/annotations' }],
    [{ op: 'test', path: `/${k}`, value: {} }],
    [{ op: 'remove', path: `/metadata/${k}` }],
    [{ op: 'add', path: '/metadata/labels/__proto__', value: 'v' }],
  ];
  const body = JSON.stringify(r.pick(ops));
  return {
    category: 'prototype keys (JSON-patch paths)',
    target: a.t.id,
    verb: 'patch',
    answer: 'status',
    object: a.object as string,
    build: () => ({ req: verbRequest('patch', a, c, { body, patchType: 'json' }), expect: [INVALID] }),
  };
};

/** Delete options and selectors with prototype keys: options are data (a dry run), selectors are parsed, never looked up. */
export const prototypeOptions = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const k = r.pick(KEYS);
  const category = 'prototype keys (options, selectors)';
  switch (r.int(3)) {
    case 0: {
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'], ...own(k, own(CANARY, 'yes')) });
      return {
        category,
        target: a.t.id,
        verb: 'delete',
        answer: 'status',
        object: a.object as string,
        build: () => ({ req: verbRequest('delete', a, c, { body, contentType: 'application/json' }), expect: [SUCCESS], dryRun: true }),
      };
    }
    case 1: {
      const verb = r.pick(['list', 'watch', 'deletecollection'] as const);
      const valid = k !== '__proto__';
      const sel = r.pick([k, `${k}=v`, `!${k}`, `${k} in (a,b)`]);
      const dry = verb === 'deletecollection' ? '&dryRun=All' : '';
      const expect = verb === 'deletecollection' && !a.t.deleteCollection ? [METHOD_NOT_ALLOWED] : valid ? [SUCCESS] : [BAD_REQUEST];
      return { category, target: a.t.id, verb, answer: 'status', build: () => ({ req: verbRequest(verb, a, c, { query: `labelSelector=${encodeURIComponent(sel)}${dry}` }), expect, dryRun: true }) };
    }
    default: {
      const verb = r.pick(['get', 'list'] as const);
      return {
        category,
        target: a.t.id,
        verb,
        answer: 'status',
        build: () => ({ req: verbRequest(verb, a, c, { query: `${encodeURIComponent(k)}=1&${encodeURIComponent(`${k}[${CANARY}]`)}=1` }), expect: [SUCCESS] }),
      };
    }
  }
};
