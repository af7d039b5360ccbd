// The machinery of the type-confusion sweeps (type-confusion-sweep.test.ts for the built-in
// kinds, cr-type-confusion-sweep.test.ts for custom resources of real CRDs): every field of a
// valid object replaced in turn by hostile values, sent as dry-run writes, each answer judged.
import assert from 'node:assert/strict';
import type { HttpsClient } from '../integration/https.js';

export type Obj = Record<string, unknown>;
type Path = ReadonlyArray<string | number>;

/** What each field is replaced by: every JSON type, the values Go's zero-value code paths meet, and prototype keys. */
export const HOSTILE: readonly unknown[] = [
  null,
  {},
  [],
  'x',
  '',
  0,
  -1,
  1.5,
  1e300,
  true,
  [null],
  [{}],
  [[]],
  JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}') as unknown,
  { toString: 'x', valueOf: 1, hasOwnProperty: null },
];

/** Every path of `value` (its containers and leaves; list items by index), `value` itself excluded. */
export function paths(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push([...at, i], ...paths(v, [...at, i])));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push([...at, k], ...paths(v, [...at, k]));
  }
  return out;
}

/** `obj` with the value at `path` replaced (containers on the path copied, the rest shared; missing ones made). */
function replaced(obj: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(obj)) return obj.map((v, i) => (i === head ? replaced(v, rest, value) : v));
  const from = (obj ?? {}) as Obj;
  const copy: Obj = { ...from };
  Object.defineProperty(copy, head as string, { value: replaced(from[head as string], rest, value), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** A JSON merge patch that sets `path` to `value`; under a list it replaces the whole list, as merge patches do. */
function mergePatch(base: Obj, path: Path, value: unknown): unknown {
  const listAt = path.findIndex((p) => typeof p === 'number');
  if (listAt < 0) return replaced({}, path, value);
  const listPath = path.slice(0, listAt);
  const list = listPath.reduce<unknown>((o, k) => (o as Obj)[k as string], replaced(base, path, value));
  return replaced({}, listPath, list);
}

/**
 * The errors kube itself answers with a 500: plain Go errors of strategicpatch (passed through by
 * the handler's interpretStrategicMergePatchError) and of structured-merge-diff's typed conversion
 * of an apply configuration (`failed to create typed patch object`), which ErrorToAPIStatus makes
 * a 500 with the error's text and no reason (kubernetes/kubernetes#122480 and #139253, open: the
 * fix to make the apply case a 400 has not merged). A 500 of ours is anything else.
 */
const KUBE_500: readonly RegExp[] = [
  /^failed to create typed patch object \(/,
  /^unknown patch type: /,
  /^expected a \S.*, but received a /,
  /^list element types are not identical: /,
  /^The order in patch list:\n/,
  /^map: .* does not contain declared merge key: /,
  /^cannot merge lists without merge key for /,
  /^merging lists cannot yet be specified in the patch$/,
  /^no elements in any of the given slices$/,
  /^value for key .* is not a map$/,
];

/** A success (with a JSON body), kube's Status with a 4xx code, or one of kube's own 500s (KUBE_500). */
export function answeredAsKube(status: number, text: string): boolean {
  let body: Obj;
  try {
    body = JSON.parse(text) as Obj;
  } catch {
    return false;
  }
  if (status < 300) return true;
  if (body['kind'] !== 'Status' || body['code'] !== status) return false;
  if (status < 500) return true;
  return status === 500 && body['reason'] === undefined && KUBE_500.some((re) => re.test(String(body['message'])));
}

export interface SweptObject {
  readonly collection: string;
  readonly name: string;
  /** The valid object, stored under `name` unless createOnly. */
  readonly valid: Obj;
  /** Only created (reviews, token requests): no dry run, no update or patch. */
  readonly createOnly?: boolean;
  /** A valid status, swept through the status subresource with merge patches. */
  readonly status?: Obj;
}

/**
 * Every field of `o.valid` but its type meta and name, replaced by every HOSTILE value, as a
 * dry-run create, update, JSON merge patch and server-side apply (and the status's fields through
 * /status); eight
 * requests at a time. Returns how many were sent and every answer answeredAsKube refuses.
 */
export async function sweepObject(c: HttpsClient, o: SweptObject): Promise<{ sent: number; failures: string[] }> {
  const failures: string[] = [];
  const jobs: Array<() => Promise<void>> = [];
  const send = (what: string, method: string, path: string, body: unknown, contentType = 'application/json'): void => {
    jobs.push(async () => {
      const r = await c.request({ method, path, headers: { Accept: 'application/json', 'Content-Type': contentType }, body: JSON.stringify(body) });
      if (!answeredAsKube(r.status, r.text)) failures.push(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
    });
  };
  const item = `${o.collection}/${o.name}`;
  const kind = String(o.valid['kind']);
  const cases = paths(o.valid).filter((p) => !(p[0] === 'apiVersion' || p[0] === 'kind' || (p[0] === 'metadata' && p[1] === 'name')));
  for (const path of cases) {
    for (const value of HOSTILE) {
      const label = `${kind} ${path.join('.')} = ${JSON.stringify(value)}`;
      send(`create ${label}`, 'POST', o.createOnly === true ? o.collection : `${o.collection}?dryRun=All`, replaced(o.valid, path, value));
      if (o.createOnly === true) continue;
      send(`update ${label}`, 'PUT', `${item}?dryRun=All`, replaced(o.valid, path, value));
      send(`merge patch ${label}`, 'PATCH', `${item}?dryRun=All`, mergePatch(o.valid, path, value), 'application/merge-patch+json');
      // JSON is YAML: the object as a server-side apply configuration, through the typed converter.
      send(`apply ${label}`, 'PATCH', `${item}?dryRun=All&fieldManager=sweep&force=true`, replaced(o.valid, path, value), 'application/apply-patch+yaml');
    }
  }
  for (const path of paths(o.status ?? {})) {
    for (const value of HOSTILE) {
      send(
        `status merge patch ${kind} status.${path.join('.')} = ${JSON.stringify(value)}`,
        'PATCH',
        `${item}/status?dryRun=All`,
        { status: mergePatch(o.status ?? {}, path, value) },
        'application/merge-patch+json',
      );
    }
  }
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((j) => j()));
  return { sent: jobs.length, failures };
}

/**
 * After a sweep: the server is the same process, ready, and a fresh object carries nothing the
 * sweep's prototype keys (`{"__proto__": {"polluted": …}}`) could have planted in its
 * Object.prototype.
 */
export async function assertStillServing(c: HttpsClient, exited: () => unknown): Promise<void> {
  const ready = await c.request({ path: '/readyz' });
  assert.equal(ready.status, 200, ready.text);
  assert.equal(exited(), undefined, 'the server exited during the sweep');
  const name = `after-sweep-${Date.now()}`;
  const created = await c.json('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const got = await c.request({ path: `/api/v1/namespaces/default/configmaps/${name}` });
  assert.equal(got.status, 200, got.text);
  assert.doesNotMatch(got.text + JSON.stringify(created.body), /polluted/);
}
