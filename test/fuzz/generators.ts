// Bad-request generators for the fuzz test. Each returns one request and the answers
// kube-apiserver gives to it (code + reason of the Status body). Where kube-apiserver's answer
// depends on the decoder path (typed vs unstructured), a case lists every answer it gives.
// Inputs kube-apiserver accepts are left out on purpose: an empty or null `kind` is defaulted
// from the URL; a list in a missing namespace such as `..` answers an empty list; `a in ()` is
// the selector `a in ("")`; boolean query parameters are true unless "0" or "false".
import type { RawRequest } from '../integration/https.js';
import type { Rand } from './prng.js';

export interface Expect {
  code: number;
  reason: string;
}

export interface FuzzCase {
  category: string;
  req: RawRequest;
  expect: readonly Expect[];
  /**
   * `status`: the body must be a Status with one of `expect`. `parser`: the request is refused
   * by the HTTP parser before any handler (oversized header block): 431/400 without a Status
   * body, or the connection reset while the client is still sending.
   */
  answer: 'status' | 'parser';
}

export interface FuzzContext {
  /** Namespace holding the objects that must survive the fuzz. */
  ns: string;
  /** Names of existing Flunders (patch targets; must stay unchanged). */
  keep: readonly string[];
}

const GV = 'wardle.example.com/v1beta1';
const BAD_REQUEST: Expect = { code: 400, reason: 'BadRequest' };
const INVALID: Expect = { code: 422, reason: 'Invalid' };
const NOT_FOUND: Expect = { code: 404, reason: 'NotFound' };
const TOO_LARGE: Expect = { code: 413, reason: 'RequestEntityTooLarge' };
const UNSUPPORTED: Expect = { code: 415, reason: 'UnsupportedMediaType' };
const NOT_ACCEPTABLE: Expect = { code: 406, reason: 'NotAcceptable' };
const METHOD_NOT_ALLOWED: Expect = { code: 405, reason: 'MethodNotAllowed' };

const coll = (c: FuzzContext): string => `/apis/${GV}/namespaces/${c.ns}/flunders`;
const fzName = (r: Rand): string => `fz-${r.str(10)}`;
const flunder = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion: GV, kind: 'Flunder', metadata: { name }, spec: { flunderReference: 'x' }, ...extra });
const json = { 'Content-Type': 'application/json', Accept: 'application/json' };

function post(c: FuzzContext, body: string | Buffer, headers: Record<string, string> = json, query = ''): RawRequest {
  return { method: 'POST', path: `${coll(c)}${query}`, headers, body };
}

function patch(c: FuzzContext, r: Rand, contentType: string, body: string, query = ''): RawRequest {
  return { method: 'PATCH', path: `${coll(c)}/${r.pick(c.keep)}${query}`, headers: { 'Content-Type': contentType, Accept: 'application/json' }, body };
}

const status = (category: string, req: RawRequest, ...expect: Expect[]): FuzzCase => ({ category, req, expect, answer: 'status' });

type Generator = (r: Rand, c: FuzzContext) => FuzzCase;

const malformedJSON: Generator = (r, c) => {
  const bodies = ['{', '{"apiVersion":', '{"a":1,}', '[1,2', 'nul', "{'a':1}", '{"apiVersion":"x"}}', '', '{"metadata":{"name":"a"', '\u0000\u0001', '{"a":"\\x"}', '{"a":01}', '{"a":NaN}', '{"a":1 "b":2}'];
  return status('malformed JSON', post(c, r.pick(bodies)), BAD_REQUEST);
};

const truncated: Generator = (r, c) => {
  const full = JSON.stringify(flunder(fzName(r), { metadata: { name: fzName(r), labels: { a: 'b' } } }));
  return status('truncated body', post(c, full.slice(0, 1 + r.int(full.length - 1))), BAD_REQUEST);
};

const wrongGVK: Generator = (r, c) => {
  const body = flunder(fzName(r));
  if (r.int(2) === 0) body['apiVersion'] = r.pick(['wardle.example.com/v9', 'v1', 'apps/v1', 'nonsense', 'wardle.example.com/v1alpha1', '/', 'a/b/c', 42]);
  else body['kind'] = r.pick(['Fischer', 'Namespace', 'flunder', 'Flunders', 42, ['Flunder']]);
  return status('wrong apiVersion/kind', post(c, JSON.stringify(body)), BAD_REQUEST);
};

const tooLarge: Generator = (r, c) => {
  const pad = 'x'.repeat(3 * 1024 * 1024 + 1 + r.int(512 * 1024));
  return status('body over 3 MiB', post(c, JSON.stringify(flunder(fzName(r), { pad }))), TOO_LARGE);
};

const invalidName: Generator = (r, c) => {
  const names = ['Bad_Name', '-lead', 'trail-', 'UPPER', 'a'.repeat(254), 'dots..x', 'sp ace', 'ünï', '.', '..', 'a/b', 'a%b', `x${'.'.repeat(3)}`];
  const which = r.int(4);
  if (which === 0) return status('invalid name', post(c, JSON.stringify(flunder(r.pick(names)))), INVALID);
  if (which === 1) return status('invalid name', post(c, JSON.stringify({ apiVersion: GV, kind: 'Flunder', metadata: { generateName: r.pick(['Bad_', 'UP-', '-x']) } })), INVALID);
  if (which === 2) return status('invalid name', post(c, JSON.stringify({ apiVersion: GV, kind: 'Flunder', metadata: {} })), INVALID);
  const labels = r.pick([{ 'bad key!': 'v' }, { k: 'bad value!' }, { [`${'a'.repeat(64)}`]: 'v' }, { k: 'v'.repeat(64) }, { '/x': 'v' }]);
  return status('invalid labels', post(c, JSON.stringify(flunder(fzName(r), { metadata: { name: fzName(r), labels } }))), INVALID);
};

const invalidSelector: Generator = (r, c) => {
  // A watch the server wrongly accepts ends after a second instead of hanging the fuzz.
  const watch = r.int(3) === 0 ? '&watch=true&timeoutSeconds=1' : '';
  if (r.int(2) === 0) {
    const sel = r.pick(['a in (b', 'a notin b', '=b', 'a=b=c', 'a b', '!a=b', 'a>b', `k=${'v'.repeat(64)}`, 'a,,b', 'a=(b)', 'x/y/z=1']);
    return status('invalid label selector', { path: `${coll(c)}?labelSelector=${encodeURIComponent(sel)}${watch}` }, BAD_REQUEST);
  }
  const sel = r.pick(['spec.nope=1', 'metadata.name', 'metadata.name~x', 'status.phase=Running', 'metadata.uid=1', '=x']);
  return status('invalid field selector', { path: `${coll(c)}?fieldSelector=${encodeURIComponent(sel)}${watch}` }, BAD_REQUEST);
};

const strictUnknown: Generator = (r, c) => {
  const name = fzName(r);
  if (r.int(3) === 0) {
    const body = `{"apiVersion":"${GV}","kind":"Flunder","metadata":{"name":"${name}"},"spec":{"flunderReference":"a"},"spec":{"flunderReference":"b"}}`;
    return status('duplicate field (Strict)', post(c, body, json, '?fieldValidation=Strict'), BAD_REQUEST);
  }
  const body = flunder(name);
  const where = r.int(3);
  if (where === 0) body['bogus'] = r.int(100);
  else if (where === 1) (body['spec'] as Record<string, unknown>)['bogus'] = 'x';
  else (body['metadata'] as Record<string, unknown>)['bogus'] = true;
  return status('unknown field (Strict)', post(c, JSON.stringify(body), json, '?fieldValidation=Strict'), BAD_REQUEST);
};

const invalidPatch: Generator = (r, c) => {
  switch (r.int(8)) {
    case 0:
      return status('invalid JSON patch', patch(c, r, 'application/json-patch+json', r.pick(['{}', '"x"', '[{"op":', '', '{"op":"add"}'])), BAD_REQUEST);
    case 1: {
      const ops = [
        [{ op: 'test', path: '/metadata/name', value: 'nope' }],
        [{ op: 'remove', path: '/spec/nothing/here' }],
        [{ op: 'bogus', path: '/spec' }],
        [{ op: 'replace', path: '/metadata/labels/absent/deeper', value: 1 }],
        [{ op: 'move', from: '/nowhere', path: '/spec/x' }],
        [{ op: 'add', path: 'no-slash', value: 1 }],
      ];
      return status('failing JSON patch', patch(c, r, 'application/json-patch+json', JSON.stringify(r.pick(ops))), INVALID);
    }
    case 2:
      return status('invalid merge patch', patch(c, r, 'application/merge-patch+json', r.pick(['{', '{"spec":', 'nul', '{"a":1,}'])), BAD_REQUEST);
    case 3:
      return status('invalid strategic merge patch', patch(c, r, 'application/strategic-merge-patch+json', r.pick(['{', '{"metadata":', '[1,'])), BAD_REQUEST);
    case 4:
      return status('patch to an invalid object', patch(c, r, 'application/merge-patch+json', r.pick(['{"metadata":{"labels":{"bad key!":"x"}}}', '{"metadata":{"labels":{"k":"bad value!"}}}', '{"spec":{"flunderReference":"Not_A_Name"}}'])), INVALID);
    case 5:
      return status('patch with a wrong type', patch(c, r, 'application/merge-patch+json', r.pick(['{"spec":{"flunderReference":123}}', '{"spec":"str"}', '{"metadata":{"labels":"x"}}', '{"metadata":{"labels":{"a":1}}}'])), BAD_REQUEST, INVALID);
    case 6:
      return status('unsupported patch type', patch(c, r, r.pick(['application/apply-patch+cbor', 'application/json', 'text/plain', 'application/x-yaml']), '{}'), UNSUPPORTED);
    default:
      return status('force on a non-apply patch', patch(c, r, 'application/merge-patch+json', '{}', '?force=true'), INVALID);
  }
};

const deepNesting: Generator = (r, c) => {
  const depth = 100_000;
  const nested = r.int(2) === 0 ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  if (r.int(3) === 0) return status('deep nesting (merge patch)', patch(c, r, 'application/merge-patch+json', `{"spec":{"x":${nested}}}`), BAD_REQUEST, INVALID);
  const body = `{"apiVersion":"${GV}","kind":"Flunder","metadata":{"name":"${fzName(r)}"},"spec":{"flunderReference":${nested}}}`;
  return status('deep nesting', post(c, body), BAD_REQUEST, INVALID);
};

const yamlBomb: Generator = (r, c) => {
  const yaml = { 'Content-Type': 'application/yaml', Accept: 'application/json' };
  if (r.int(4) === 0) return status('invalid YAML', post(c, r.pick(['a: b: c', 'key: [unclosed', '- a\nb: c', '\t- x', 'a: &x\nb: *y']), yaml), BAD_REQUEST);
  const levels = 'abcdefghi';
  let doc = `apiVersion: ${GV}\nkind: Flunder\nmetadata:\n  name: ${fzName(r)}\nspec:\n  a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n`;
  let prev = 'a0';
  for (const l of levels) {
    doc += `  ${l}: &${l} [${Array(9).fill(`*${prev}`).join(',')}]\n`;
    prev = l;
  }
  return status('YAML bomb', post(c, doc, yaml), BAD_REQUEST);
};

const wrongContentType: Generator = (r, c) => {
  if (r.int(3) === 0) {
    return status('unacceptable Accept', { path: coll(c), headers: { Accept: r.pick(['text/html', 'image/png', 'application/xml', 'application/vnd.kubernetes.protobuf;q=1,text/plain']) } }, NOT_ACCEPTABLE);
  }
  const ct = r.pick(['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'image/png', 'application/vnd.kubernetes.protobuf', 'application/cbor', 'application/octet-stream']);
  const method = r.pick(['POST', 'PUT']);
  const path = method === 'POST' ? coll(c) : `${coll(c)}/${r.pick(c.keep)}`;
  return status('unsupported Content-Type', { method, path, headers: { 'Content-Type': ct, Accept: 'application/json' }, body: JSON.stringify(flunder(fzName(r))) }, UNSUPPORTED);
};

const hugeHeaders: Generator = (r, c) => {
  const which = r.int(3);
  if (which === 0) return { category: 'huge header', req: { path: coll(c), headers: { 'X-Fuzz': 'h'.repeat(1024 * 1024 + r.int(65536)) } }, expect: [], answer: 'parser' };
  if (which === 1) return { category: 'huge URL', req: { path: `${coll(c)}?labelSelector=${'a'.repeat(2 * 1024 * 1024)}` }, expect: [], answer: 'parser' };
  return status('long name in URL', { path: `${coll(c)}/${'n'.repeat(2000 + r.int(4000))}`, headers: { Accept: 'application/json' } }, NOT_FOUND);
};

const randomBytes: Generator = (r, c) => {
  const ct = r.pick(['application/json', 'application/yaml']);
  // A leading '{' keeps JSON from being a bare scalar; random bytes after it never close it.
  const body = Buffer.concat([Buffer.from('{'), r.bytes(1 + r.int(4096)).map((b) => (b === 0x7d ? 0x20 : b))]);
  return status('random bytes', post(c, body, { 'Content-Type': ct, Accept: 'application/json' }), BAD_REQUEST);
};

const randomMethodPath: Generator = (r, c) => {
  const seg = (): string => `zz${r.str(1 + r.int(12))}`;
  const which = r.int(3);
  if (which === 0) {
    const path = r.pick([`/apis/${seg()}`, `/apis/wardle.example.com/${seg()}`, `/apis/${GV}/${seg()}`, `/api/v1/${seg()}/${seg()}`, `/${seg()}`, `/${seg()}/${seg()}/${seg()}`, `/apis/${GV}/namespaces/${c.ns}/${seg()}`, `/api/${seg()}`]);
    const method = r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']);
    const req: RawRequest = { method, path, headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }) };
    return status('random path', req, NOT_FOUND, METHOD_NOT_ALLOWED);
  }
  if (which === 1) {
    const [method, path] = r.pick([
      ['POST', `${coll(c)}/${r.pick(c.keep)}`],
      ['PUT', coll(c)],
      ['PATCH', coll(c)],
      ['POST', `/apis/${GV}/flunders`],
      ['PUT', `/apis/${GV}/flunders`],
    ] as const);
    return status('method not allowed', { method, path, headers: json, body: '{}' }, METHOD_NOT_ALLOWED);
  }
  const path = r.pick([`${coll(c)}/..`, `${coll(c)}/.`, `/apis/%ZZ`, `${coll(c)}/a%2Fb`]);
  return status('odd path', { path, headers: { Accept: 'application/json' } }, BAD_REQUEST, NOT_FOUND);
};

const invalidQuery: Generator = (r, c) => {
  switch (r.int(7)) {
    case 0:
      return status('invalid query value', { path: `${coll(c)}?${r.pick(['limit=abc', 'timeoutSeconds=abc', 'limit=1e99x', 'timeoutSeconds=1.5', 'limit=0x10'])}` }, BAD_REQUEST);
    case 1:
      return status('invalid continue token', { path: `${coll(c)}?limit=1&continue=${encodeURIComponent(r.pick(['garbage', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTF9', '%%%', '.']))}` }, BAD_REQUEST);
    case 2:
      return status('invalid dryRun', post(c, JSON.stringify(flunder(fzName(r))), json, `?dryRun=${r.pick(['Bogus', 'all', 'true'])}`), INVALID);
    case 3:
      return status('invalid fieldValidation', post(c, JSON.stringify(flunder(fzName(r))), json, `?fieldValidation=${r.pick(['Bogus', 'strict', 'None'])}`), INVALID, BAD_REQUEST);
    case 4:
      return status('invalid resourceVersionMatch', { path: `${coll(c)}?${r.pick(['resourceVersionMatch=Bogus&resourceVersion=1', 'resourceVersionMatch=Exact', 'resourceVersionMatch=Exact&resourceVersion=0', 'sendInitialEvents=true'])}` }, INVALID);
    case 5:
      return status('invalid includeObject', { path: `${coll(c)}?includeObject=${r.pick(['Bogus', 'all'])}`, headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }, BAD_REQUEST);
    default:
      return status('invalid fieldManager', post(c, JSON.stringify(flunder(fzName(r))), json, `?fieldManager=${'m'.repeat(129)}`), INVALID);
  }
};

/** Generators with relative weights: heavy ones (3 MiB, 100k-deep) are rare. */
export const generators: ReadonlyArray<[weight: number, gen: Generator]> = [
  [10, malformedJSON],
  [8, truncated],
  [8, wrongGVK],
  [1, tooLarge],
  [10, invalidName],
  [10, invalidSelector],
  [8, strictUnknown],
  [12, invalidPatch],
  [1, deepNesting],
  [2, yamlBomb],
  [8, wrongContentType],
  [2, hugeHeaders],
  [6, randomBytes],
  [8, randomMethodPath],
  [8, invalidQuery],
];

/** Draws one case by weight. */
export function nextCase(r: Rand, c: FuzzContext): FuzzCase {
  const total = generators.reduce((n, [w]) => n + w, 0);
  let x = r.int(total);
  for (const [w, g] of generators) {
    if (x < w) return g(r, c);
    x -= w;
  }
  throw new Error('unreachable');
}
