// Paths and methods: paths no server owns (kube's mux: a plain `404 page not found`), paths
// below a group of the core server or /api that no route matches (go-restful's 404 Status),
// unknown resources and subresources under a served group-version (a 404 Status), methods a resource
// does not serve (405), dot segments and bad escapes, names of thousands of characters, and
// header blocks and request lines over the HTTP parser's limit.
import { BAD_REQUEST, METHOD_NOT_ALLOWED, NOT_FOUND, PLAIN_404, UNSUPPORTED, fixed, type FuzzCase, type StatusExpect } from '../cases.js';
import type { Rand } from '../prng.js';
import { JSON_HEADERS, aimKeep, type FuzzContext } from '../requests.js';
import { allPath, itemPath, targets } from '../targets.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const unknownPaths = (r: Rand, c: FuzzContext): FuzzCase => {
  const seg = (): string => `zz${r.str(1 + r.int(12))}`;
  const method = r.pick(METHODS);
  const req = (path: string) => ({ method, path, headers: JSON_HEADERS, ...(method === 'GET' ? {} : { body: '{}' }) });
  if (r.chance(0.25)) {
    // No server owns these: unknown groups, unknown versions of a custom resource group (kube's
    // CRD handler hands them on), unknown roots.
    const path = r.pick([`/apis/${seg()}`, `/apis/${seg()}/v1`, `/apis/fuzz.example.com/${seg()}/crontabs`, `/apis/fuzz.example.com/${seg()}`, `/${seg()}`, `/${seg()}/${seg()}/${seg()}`]);
    return fixed('paths no server owns', 'discovery', 'discovery', req(path), [PLAIN_404]);
  }
  if (r.chance(0.2)) {
    // Below /api or a group the core server serves, go-restful owns the path: its 404 is a Status.
    const path = r.pick([`/apis/wardle.example.com/${seg()}`, `/apis/wardle.example.com/${seg()}/flunders`, `/api/${seg()}`, `/api/${seg()}/namespaces`]);
    return fixed('paths below a served group', 'discovery', 'discovery', req(path), method === 'GET' ? [NOT_FOUND] : [NOT_FOUND, METHOD_NOT_ALLOWED]);
  }
  const t = r.pick(targets);
  const gv = t.apiVersion.includes('/') ? `/apis/${t.apiVersion}` : `/api/${t.apiVersion}`;
  const item = itemPath(t, c.ns, r.pick(c.keep[t.id]));
  const sub = r.chance(0.4);
  // An unknown subresource of an existing object is a 404 Status everywhere. Segments after
  // /status are no route of a built-in kind; kube's CRD handler ignores them (not sent there).
  if (sub) {
    const path = t.id === 'crontab' ? `${item}/${seg()}` : r.pick([`${item}/${seg()}`, `${item}/status/${seg()}`]);
    return fixed('unknown resources and subresources', t.id, 'get', req(path), method === 'GET' ? [NOT_FOUND] : [NOT_FOUND, METHOD_NOT_ALLOWED]);
  }
  // An unknown resource: a built-in group-version answers a 404 Status; kube's CRD handler hands
  // a resource no CRD defines to the mux (plain 404).
  const path = r.pick([`${gv}/${seg()}`, `${gv}/namespaces/${c.ns}/${seg()}`, `${gv}/${seg()}/${seg()}`]);
  if (t.id === 'crontab') return fixed('unknown resources and subresources', t.id, 'get', req(path), [PLAIN_404]);
  return fixed('unknown resources and subresources', t.id, 'get', req(path), method === 'GET' ? [NOT_FOUND] : [NOT_FOUND, METHOD_NOT_ALLOWED]);
};

export const methodNotAllowed = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const [method, path] = r.pick([
    ['POST', itemPath(a.t, c.ns, a.name)],
    ['PUT', a.t.collection(c.ns)],
    ['PATCH', a.t.collection(c.ns)],
    ['POST', `${itemPath(a.t, c.ns, a.name)}/status`],
    ['DELETE', `${itemPath(a.t, c.ns, a.name)}/status`],
    ...(a.t.namespaced
      ? [
          ['POST', allPath(a.t)],
          ['PUT', allPath(a.t)],
          ['DELETE', allPath(a.t)],
        ]
      : []),
  ] as Array<[string, string]>);
  // kube's CRD handler serves only list and watch across namespaces; it hands the rest to the mux (plain 404).
  const acrossNamespaces = a.t.namespaced && path === allPath(a.t);
  return fixed('method not allowed', a.t.id, 'get', { method, path, headers: JSON_HEADERS, body: '{}' }, [
    acrossNamespaces && a.t.id === 'crontab' ? PLAIN_404 : a.t.id === 'crontab' ? customResourceVerbAnswer(method, path, a.t.collection(c.ns)) : METHOD_NOT_ALLOWED,
  ]);
};

/**
 * kube's CRD handler serves a custom resource by the RequestInfo verb alone (crdHandler.serveResource),
 * not by route: a POST naming an object is the collection's create (this `{}` body: no kind, 400),
 * a PUT of the collection is an update without a name (400), a PATCH of it checks the patch type
 * first (application/json is none: 415). Subresources keep their 405s.
 */
function customResourceVerbAnswer(method: string, path: string, collection: string): StatusExpect {
  if (path.endsWith('/status')) return METHOD_NOT_ALLOWED;
  if (method === 'PATCH' && path === collection) return UNSUPPORTED;
  return BAD_REQUEST;
}

export const oddPaths = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const coll = a.t.collection(c.ns);
  if (r.chance(0.3)) return fixed('long name in URL', a.t.id, 'get', { path: `${coll}/${'n'.repeat(2000 + r.int(4000))}`, headers: { Accept: 'application/json' } }, [NOT_FOUND]);
  const path = r.pick([`${coll}/..`, `${coll}/.`, `/apis/%ZZ`, `${coll}/a%2Fb`, `${coll}/%00`, `${coll}/%2e%2e`, `${coll}/a/b/c/d/e`]);
  return fixed('odd path', a.t.id, 'get', { path, headers: { Accept: 'application/json' } }, [BAD_REQUEST, NOT_FOUND, PLAIN_404]);
};

export const hugeHeaders = (r: Rand, c: FuzzContext): FuzzCase => {
  const coll = aimKeep(r, c).t.collection(c.ns);
  const req = r.chance(0.5) ? { path: coll, headers: { 'X-Fuzz': 'h'.repeat(1024 * 1024 + r.int(65536)) } } : { path: `${coll}?labelSelector=${'a'.repeat(2 * 1024 * 1024)}` };
  return { category: 'header block over the limit', target: 'discovery', verb: 'discovery', answer: 'parser', build: () => ({ req, expect: [] }) };
};
