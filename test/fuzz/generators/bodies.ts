// Bodies that cannot be decoded: random bytes, truncated and malformed JSON, 100,000-deep
// nesting, bodies over the 3 MiB limit; sent as every request that carries a body (create,
// update, the four patch types, delete and deletecollection options), on objects and subresources.
import { BAD_REQUEST, INVALID, TOO_LARGE, fixed, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, fzName, verbRequest, type Aim, type FuzzContext } from '../requests.js';
import { bodyRefusal, jsonContentType, pickBodyVerb, type BodyVerb } from './verbs.js';

/** A valid JSON body of this request (what truncation and padding start from). */
function validBody(a: Aim, v: BodyVerb, r: Rand): string {
  if (v.verb === 'delete' || v.verb === 'deletecollection') return JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'], gracePeriodSeconds: 0 });
  if (v.verb === 'patch')
    return v.patchType === 'json' ? JSON.stringify([{ op: 'add', path: '/metadata/annotations', value: { a: r.str(8) } }]) : JSON.stringify({ metadata: { annotations: { a: r.str(8) } } });
  return JSON.stringify(a.t.manifest(v.verb === 'create' ? fzName(r) : a.name, ''));
}

function bodyCase(category: string, r: Rand, c: FuzzContext, body: (a: Aim, v: BodyVerb) => string | Buffer, why = [BAD_REQUEST]): FuzzCase {
  const a = aimKeep(r, c);
  const v = pickBodyVerb(r, a.t);
  const ct = jsonContentType(v);
  const req = verbRequest(v.verb, a, c, {
    body: body(a, v),
    ...(ct ? { contentType: ct } : {}),
    ...(v.patchType ? { patchType: v.patchType } : {}),
    ...(v.subresource ? { subresource: v.subresource } : {}),
  });
  const touches = v.verb === 'create' || v.verb === 'deletecollection' ? undefined : a.object;
  return fixed(category, a.t.id, v.verb, req, bodyRefusal(a.t, v, why), touches);
}

export const malformedJSON = (r: Rand, c: FuzzContext): FuzzCase => {
  const bodies = [
    '{',
    '{"apiVersion":',
    '{"a":1,}',
    '[1,2',
    'nul',
    "{'a':1}",
    '{"apiVersion":"x"}}',
    '{"metadata":{"name":"a"',
    '\u0000\u0001',
    '{"a":"\\x"}',
    '{"a":01}',
    '{"a":NaN}',
    '{"a":1 "b":2}',
    '\ufeff{}',
    '{"a":"\\ud800\\u"}',
  ];
  return bodyCase('malformed JSON', r, c, () => r.pick(bodies));
};

export const truncated = (r: Rand, c: FuzzContext): FuzzCase =>
  bodyCase('truncated JSON', r, c, (a, v) => {
    const full = validBody(a, v, r);
    return full.slice(0, 1 + r.int(full.length - 1));
  });

export const randomBytes = (r: Rand, c: FuzzContext): FuzzCase =>
  // A leading '{' keeps JSON from being a bare scalar; random bytes after it never close it.
  bodyCase('random bytes', r, c, () => Buffer.concat([Buffer.from('{'), r.bytes(1 + r.int(4096)).map((b) => (b === 0x7d ? 0x20 : b))]));

export const deepNesting = (r: Rand, c: FuzzContext): FuzzCase => {
  const depth = 100_000;
  const nested = r.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return bodyCase(
    'deep nesting',
    r,
    c,
    (a, v) => {
      if (v.verb === 'patch' && v.patchType === 'json') return `[{"op":"add","path":"/metadata/annotations","value":${nested}}]`;
      if (v.verb === 'patch') return `{"metadata":{"annotations":${nested}}}`;
      if (v.verb === 'delete' || v.verb === 'deletecollection') return `{"apiVersion":"v1","kind":"DeleteOptions","dryRun":${nested}}`;
      return `{"apiVersion":"${a.t.apiVersion}","kind":"${a.t.kind}","metadata":{"name":"${fzName(r)}","annotations":${nested}}}`;
    },
    [BAD_REQUEST, INVALID],
  );
};

export const tooLarge = (r: Rand, c: FuzzContext): FuzzCase =>
  bodyCase(
    'body over 3 MiB',
    r,
    c,
    (a, v) => {
      const pad = 'x'.repeat(3 * 1024 * 1024 + 1 + r.int(512 * 1024));
      const o = JSON.parse(validBody(a, v, r)) as unknown;
      return JSON.stringify(Array.isArray(o) ? [...o, { op: 'test', path: '/metadata/name', value: pad }] : { ...(o as object), pad });
    },
    [TOO_LARGE],
  );
