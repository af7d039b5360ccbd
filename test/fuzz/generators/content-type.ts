// Content-Type oddities on every request with a body. kube parses a body's media type with Go's
// mime.ParseMediaType: case-insensitive, parameters ignored, one trailing `;` tolerated, an empty
// header means JSON; no slash, `;;`, a parameter without value, unknown types and +suffixes are
// 415. A patch's type is the text before the first `;`, trimmed and compared exactly: parameters
// (even `;;;`) are ignored, anything else is 415. Valid bodies change one annotation, which must
// land; protobuf is decoded only by the kinds that declare field numbers (JSON sent as protobuf
// is 400 there, 415 elsewhere).
import { BAD_REQUEST, UNSUPPORTED, fixed, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, fzName, getPath, onObject, verbRequest, type FuzzContext } from '../requests.js';
import { PATCH_CONTENT_TYPE, type Obj, type PatchType } from '../targets.js';

const VALID_BODY_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json; foo=bar',
  'Application/JSON',
  'application/json;',
  'application/json ; charset=utf-8',
  '',
  'application/yaml',
  'application/yaml; charset=utf-8',
  'APPLICATION/YAML',
];
const BAD_BODY_TYPES = [
  'json',
  'application/json;;;',
  'application/json;;',
  'application/foo+json',
  'application/json+yaml',
  '*/*',
  'application/*',
  'text/plain',
  'application/json, application/yaml',
  'application/json; charset',
  'application/json; =x',
  'application/x-www-form-urlencoded',
  '/',
  'application/',
  'multipart/form-data; boundary=x',
  'application/cbor',
  'application/octet-stream',
];
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

const annotated =
  (value: string) =>
  (body: unknown): string | undefined => {
    const got = getPath(body, ['metadata', 'annotations', 'fz-ct']);
    return got === value ? undefined : `annotation fz-ct is ${JSON.stringify(got)}, sent ${JSON.stringify(value)}`;
  };

export const contentTypes = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const value = r.str(12);
  const category = 'Content-Type oddities';
  const verb = r.pick(['create', 'update', 'patch', 'patch'] as const);
  if (verb === 'patch') {
    const pt = r.pick(['merge', 'json', 'strategic', 'apply'] as const satisfies readonly PatchType[]);
    const base = PATCH_CONTENT_TYPE[pt];
    const valid = r.chance(0.5);
    const ct = valid
      ? r.pick([`${base}; charset=utf-8`, `${base};;;`, `${base};`, `${base}; foo=bar`])
      : r.pick(['', 'application/json', base.toUpperCase(), `${base}x`, 'merge-patch', 'application/merge-patch', '*/*', `x${base}`]);
    const kube: Expect[] = !valid || (pt === 'strategic' && !a.t.strategic) ? [UNSUPPORTED] : [{ code: 'success', check: annotated(value) }];
    return onObject(category, a, verb, (o) => {
      const doc =
        pt === 'json'
          ? [
              getPath(o, ['metadata', 'annotations']) === undefined
                ? { op: 'add', path: '/metadata/annotations', value: { 'fz-ct': value } }
                : { op: 'add', path: '/metadata/annotations/fz-ct', value },
            ]
          : pt === 'apply'
            ? { apiVersion: a.t.apiVersion, kind: a.t.kind, metadata: { name: a.name, annotations: { 'fz-ct': value } } }
            : { metadata: { annotations: { 'fz-ct': value } } };
      return { req: verbRequest('patch', a, c, { body: JSON.stringify(doc), contentType: ct, ...(pt === 'apply' ? { query: 'fieldManager=fuzz&force=true' } : {}) }), expect: kube };
    });
  }
  const which = r.int(5);
  const ct = which < 2 ? r.pick(VALID_BODY_TYPES) : which < 4 ? r.pick(BAD_BODY_TYPES) : PROTOBUF;
  const expect: Expect[] = which < 2 ? [{ code: 'success', check: annotated(value) }] : which < 4 ? [UNSUPPORTED] : a.t.protobuf ? [BAD_REQUEST] : [UNSUPPORTED];
  const absent = ct === '' && r.chance(0.5);
  const body = (o: Obj): string => {
    const meta = (o['metadata'] ?? {}) as Obj;
    o['metadata'] = { ...meta, annotations: { ...((meta['annotations'] as Obj | undefined) ?? {}), 'fz-ct': value } };
    return JSON.stringify(o);
  };
  if (verb === 'create') {
    const b = body(a.t.manifest(fzName(r), c.ns));
    const req = verbRequest('create', a, c, { body: b, ...(absent ? {} : { contentType: ct }) });
    if (absent) delete req.headers?.['Content-Type'];
    return fixed(category, a.t.id, verb, req, expect);
  }
  return onObject(category, a, verb, (o) => {
    const req = verbRequest('update', a, c, { body: body(o), ...(absent ? {} : { contentType: ct }) });
    if (absent) delete req.headers?.['Content-Type'];
    return { req, expect };
  });
};
