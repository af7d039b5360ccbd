// Fields of the wrong JSON type (a string for a map or an object, an array for a string, a
// number for a label value) in creates, updates and every patch type. kube decodes into typed
// fields or checks the schema: 400 or 422, never a value coerced into another shape (a string
// spread into a map) and never a 5xx.
import { BAD_REQUEST, INVALID, fixed, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, fzName, getPath, onObject, pointer, setPath, verbRequest, type FuzzContext } from '../requests.js';
import { bodyRefusal } from './verbs.js';

const SHAPES: ReadonlyArray<[path: string[], value: unknown]> = [
  [['metadata', 'labels'], 'x'],
  [
    ['metadata', 'labels'],
    ['a', 'b'],
  ],
  [['metadata', 'labels', 'a'], 1],
  [['metadata', 'annotations'], 'abc'],
  [['metadata', 'annotations', 'a'], { b: 'c' }],
  [['metadata', 'finalizers'], 'x'],
  [['metadata'], 'x'],
  [['spec'], 'str'],
  [['spec'], [1, 2]],
  [['status'], 'x'],
];

export const wrongTypes = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const [path, value] = r.pick(SHAPES);
  const category = 'fields of the wrong type';
  const verb = r.pick(['create', 'update', 'patch', 'patch', 'patch'] as const);
  // A custom resource with /status takes no status through its main resource (kube drops it on
  // create and keeps the stored one on update): a status of any type is ignored there.
  const ignored = a.t.subresources.includes('status') && a.t.id === 'crontab' && path[0] === 'status';
  const why = [BAD_REQUEST, INVALID];
  const expect: Expect[] = ignored ? [{ code: 'success', check: (b) => (getPath(b, ['status']) === value ? 'status taken through the main resource' : undefined) }] : why;
  if (verb === 'create') {
    const body = JSON.stringify(setPath(a.t.manifest(fzName(r), c.ns), path, value));
    return fixed(category, a.t.id, verb, verbRequest('create', a, c, { body, contentType: 'application/json' }), expect);
  }
  if (verb === 'update') return onObject(category, a, verb, (o) => ({ req: verbRequest('update', a, c, { body: JSON.stringify(setPath(o, path, value)), contentType: 'application/json' }), expect }));
  const patchType = r.pick(['merge', 'strategic', 'json'] as const);
  const doc = patchType === 'json' ? [{ op: 'add', path: pointer(path), value }] : setPath({}, path, value);
  const req = verbRequest('patch', a, c, { body: JSON.stringify(doc), patchType });
  return fixed(category, a.t.id, verb, req, ignored && patchType !== 'strategic' ? expect : bodyRefusal(a.t, { verb, patchType }, why), a.object);
};
