// Decodable objects that kube refuses: invalid names, generateNames and labels (422), a wrong
// apiVersion (400) or kind (422 when it names another kind of the group-version, 400 when no
// such kind exists), unknown and duplicate fields under fieldValidation=Strict (400).
import { BAD_REQUEST, INVALID, fixed, type FuzzCase, type StatusExpect } from '../cases.js';
import type { Rand } from '../prng.js';
import { JSON_HEADERS, aimKeep, fzName, onObject, setPath, verbRequest, type FuzzContext } from '../requests.js';
import { targets, type Obj, type Target } from '../targets.js';

const INVALID_NAMES = ['Bad_Name', '-lead', 'trail-', 'UPPER', 'a'.repeat(254), 'dots..x', 'sp ace', 'ünï', '.', '..', 'a/b', 'a%b', 'x...'];
/** Keys invalid for labels and annotations alike (qualified names). */
const INVALID_KEYS: readonly Obj[] = [{ 'bad key!': 'v' }, { [`${'a'.repeat(64)}`]: 'v' }, { '/x': 'v' }, { _k: 'v' }, { 'a/b/c': 'v' }];
/** Values invalid for labels (annotation values are free text). */
const INVALID_LABEL_VALUES: readonly Obj[] = [{ k: 'bad value!' }, { k: 'v'.repeat(64) }, { k: '-v' }];

/** A create (fresh name) or an update of a kept object (its acknowledged state) whose body `edit` spoils. */
function objectCase(category: string, r: Rand, c: FuzzContext, edit: (o: Obj, t: Target) => void, expect: (t: Target) => StatusExpect[], query = '', only?: Target): FuzzCase {
  const a = aimKeep(r, c, only ? [only] : targets);
  if (r.chance(0.6)) {
    const o = a.t.manifest(fzName(r), c.ns);
    edit(o, a.t);
    return fixed(category, a.t.id, 'create', verbRequest('create', a, c, { body: JSON.stringify(o), contentType: 'application/json', query }), expect(a.t));
  }
  return onObject(category, a, 'update', (o) => {
    edit(o, a.t);
    return { req: verbRequest('update', a, c, { body: JSON.stringify(o), contentType: 'application/json', query }), expect: expect(a.t) };
  });
}

export const invalidName = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const which = r.int(4);
  const meta: Obj =
    which === 0
      ? { name: r.pick(INVALID_NAMES) }
      : which === 1
        ? { generateName: r.pick(['Bad_', 'UP-', '-x', 'a'.repeat(300)]) }
        : which === 2
          ? { name: fzName(r), generateName: r.pick(['Bad_', 'UP-', '-x']) }
          : {};
  const body = { ...a.t.manifest('x', c.ns), metadata: meta };
  return fixed('invalid name', a.t.id, 'create', { method: 'POST', path: a.t.collection(c.ns), headers: JSON_HEADERS, body: JSON.stringify(body) }, [INVALID]);
};

export const invalidLabels = (r: Rand, c: FuzzContext): FuzzCase => {
  const field = r.pick(['labels', 'annotations']);
  const value = r.pick(field === 'labels' ? [...INVALID_KEYS, ...INVALID_LABEL_VALUES] : INVALID_KEYS);
  return objectCase(
    'invalid labels',
    r,
    c,
    (o) => setPath(o, ['metadata', field], value),
    () => [INVALID],
  );
};

export const wrongGVK = (r: Rand, c: FuzzContext): FuzzCase => {
  const t0 = r.pick(targets);
  if (r.chance(0.5)) {
    const apiVersion = r.pick(['wardle.example.com/v9', 'v1', 'apps/v1', 'nonsense', 'wardle.example.com/v1alpha1', 'a/b/c', 42, 'fuzz.example.com/v2'].filter((v) => v !== t0.apiVersion));
    return objectCase(
      'wrong apiVersion',
      r,
      c,
      (o) => void (o['apiVersion'] = apiVersion),
      () => [BAD_REQUEST],
      '',
      t0,
    );
  }
  const kind = r.pick(wrongKinds(t0));
  return objectCase(
    'wrong kind',
    r,
    c,
    (o) => void (o['kind'] = kind),
    (t) => [kindExpect(t, kind)],
    '',
    t0,
  );
};

/** Kinds that are not `t`'s: other kinds of its group-version, unknown ones, and non-strings. */
function wrongKinds(t: Target): unknown[] {
  const siblings = targets.filter((o) => o.apiVersion === t.apiVersion && o.kind !== t.kind).map((o) => o.kind);
  return [...siblings, `${t.kind.toLowerCase()}`, `${t.kind}s`, 'Nope', 42, [t.kind]];
}

/**
 * kube decodes a built-in kind's body into its type: another kind, even one of the same
 * group-version, cannot be converted (400 `… cannot be handled as a Service`). Custom resources
 * are decoded unstructured and their validator refuses any other string kind as 422 on `kind`.
 */
function kindExpect(t: Target, kind: unknown): StatusExpect {
  return typeof kind === 'string' && t.id === 'crontab' ? INVALID : BAD_REQUEST;
}

export const strictUnknown = (r: Rand, c: FuzzContext): FuzzCase => {
  if (r.chance(0.3)) {
    const a = aimKeep(r, c);
    const m = JSON.stringify(a.t.manifest(fzName(r), c.ns));
    const body = `${m.slice(0, -1)},"metadata":{"name":"${fzName(r)}"}}`;
    return fixed('duplicate field (Strict)', a.t.id, 'create', verbRequest('create', a, c, { body, contentType: 'application/json', query: 'fieldValidation=Strict' }), [BAD_REQUEST]);
  }
  const where = r.int(3);
  const n = r.int(100);
  return objectCase(
    'unknown field (Strict)',
    r,
    c,
    (o, t) => {
      if (where === 0) o['bogus'] = n;
      else if (where === 1) setPath(o, t.unknownSpecField, 'x');
      else setPath(o, ['metadata', 'bogus'], true);
    },
    () => [BAD_REQUEST],
    'fieldValidation=Strict',
  );
};
