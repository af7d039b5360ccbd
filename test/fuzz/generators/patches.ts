// Patches kube refuses, and the ones that cost: JSON patches that cannot be decoded (400) or
// applied (422), merge and strategic patches that are not JSON objects (400), patches that make
// an object invalid (422), unsupported patch types (415), `force` on a non-apply patch (422),
// copy amplification (22 `copy` ops doubling a field: kube caps the bytes a patch may copy, 422),
// more than 10,000 operations (413), and a small copy patch that is valid.
import { BAD_REQUEST, INVALID, TOO_LARGE, UNSUPPORTED, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, getPath, verbRequest, type FuzzContext } from '../requests.js';
import type { Obj, PatchType } from '../targets.js';
import { bodyRefusal } from './verbs.js';

function patchCase(category: string, r: Rand, c: FuzzContext, patchType: PatchType, body: string, kube: Expect[], opts: { query?: string; subresource?: boolean } = {}): FuzzCase {
  const a = aimKeep(r, c);
  const sub = opts.subresource && a.t.subresources.length > 0 && r.chance(0.3) ? r.pick(a.t.subresources) : undefined;
  const v = { verb: 'patch' as const, patchType, ...(sub ? { subresource: sub } : {}) };
  const expect = bodyRefusal(
    a.t,
    v,
    kube.filter((e): e is Extract<Expect, { reason: string }> => 'reason' in e),
  );
  const req = verbRequest('patch', a, c, { body, patchType, ...(opts.query ? { query: opts.query } : {}), ...(sub ? { subresource: sub } : {}) });
  return { category, target: a.t.id, verb: 'patch', answer: 'status', object: a.object as string, build: () => ({ req, expect }) };
}

export const invalidPatch = (r: Rand, c: FuzzContext): FuzzCase => {
  switch (r.int(8)) {
    case 0:
      return patchCase('invalid JSON patch', r, c, 'json', r.pick(['{}', '"x"', '[{"op":', '', '{"op":"add"}']), [BAD_REQUEST], { subresource: true });
    case 1: {
      // Not here: `replace` of a missing object member, which kube's json-patch v4 applies as an
      // add (its object get never fails), so it is a success, not a failing patch.
      const ops = [
        [{ op: 'test', path: '/metadata/name', value: 'nope' }],
        [{ op: 'remove', path: '/spec/nothing/here' }],
        [{ op: 'bogus', path: '/spec' }],
        [{ op: 'replace', path: '/metadata/labels/absent/deeper', value: 1 }],
        [{ op: 'move', from: '/nowhere', path: '/spec/x' }],
        [{ op: 'add', path: 'no-slash', value: 1 }],
        [
          { op: 'add', path: '/metadata/labels/-1', value: 'x' },
          { op: 'test', path: '/metadata/uid', value: 'other' },
        ],
      ];
      return patchCase('failing JSON patch', r, c, 'json', JSON.stringify(r.pick(ops)), [INVALID], { subresource: true });
    }
    case 2:
      return patchCase('invalid merge patch', r, c, 'merge', r.pick(['{', '{"spec":', 'nul', '{"a":1,}']), [BAD_REQUEST], { subresource: true });
    case 3:
      return patchCase('invalid strategic merge patch', r, c, 'strategic', r.pick(['{', '{"metadata":', '[1,']), [BAD_REQUEST]);
    case 4: {
      const labels = r.pick(['{"metadata":{"labels":{"bad key!":"x"}}}', '{"metadata":{"labels":{"k":"bad value!"}}}', '{"metadata":{"name":"Not_A_Name"}}']);
      return patchCase('patch to an invalid object', r, c, r.pick(['merge', 'strategic'] as const), labels, [INVALID, BAD_REQUEST].slice(0, labels.includes('"name"') ? 2 : 1));
    }
    case 5:
      return patchCase('patch with a wrong type', r, c, 'merge', r.pick(['{"spec":"str"}', '{"metadata":{"labels":"x"}}', '{"metadata":{"labels":{"a":1}}}', '{"metadata":"x"}']), [
        BAD_REQUEST,
        INVALID,
      ]);
    case 6: {
      const a = aimKeep(r, c);
      const ct = r.pick(['application/apply-patch+cbor', 'application/json', 'text/plain', 'application/x-yaml', 'APPLICATION/MERGE-PATCH+JSON', 'merge-patch', '', 'application/json-patch+json+x']);
      const req = verbRequest('patch', a, c, { body: '{}', contentType: ct });
      return { category: 'unsupported patch type', target: a.t.id, verb: 'patch', answer: 'status', object: a.object as string, build: () => ({ req, expect: [UNSUPPORTED] }) };
    }
    default:
      return patchCase('force on a non-apply patch', r, c, r.pick(['merge', 'json'] as const), r.chance(0.5) ? '{}' : '[]', [INVALID], { query: 'force=true' });
  }
};

/** 22 `copy` ops each appending an array to itself: 2^22 copies of its content unless capped. */
export const copyAmplification = (r: Rand, c: FuzzContext): FuzzCase => {
  const seed = { op: 'add', path: '/fzcopy', value: ['x'.repeat(100 + r.int(900))] };
  const copies = Array.from({ length: 22 }, () => ({ op: 'copy', from: '/fzcopy', path: '/fzcopy/-' }));
  return patchCase('JSON patch copy amplification', r, c, 'json', JSON.stringify([seed, ...copies]), [INVALID], { subresource: true });
};

/** More operations than kube's 10,000 per JSON patch: 413 before any is applied. */
export const manyOperations = (r: Rand, c: FuzzContext): FuzzCase => {
  const n = 10_001 + r.int(5000);
  const ops = Array.from({ length: n }, () => ({ op: 'test', path: '/kind', value: 'x' }));
  return patchCase('JSON patch over 10,000 operations', r, c, 'json', JSON.stringify(ops), [TOO_LARGE]);
};

/** A copy patch well under the cap is valid: every copy lands. */
export const smallCopies = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const value = r.str(20 + r.int(200));
  const n = 1 + r.int(6);
  const ops = [
    { op: 'add', path: '/metadata/annotations', value: { 'fz-src': value } },
    ...Array.from({ length: n }, (_, i) => ({ op: 'copy', from: '/metadata/annotations/fz-src', path: `/metadata/annotations/fz-copy-${i}` })),
  ];
  const check = (body: unknown): string | undefined => {
    const ann = getPath(body, ['metadata', 'annotations']) as Obj | undefined;
    for (let i = 0; i < n; i++) if (ann?.[`fz-copy-${i}`] !== value) return `copy ${i} did not land: ${JSON.stringify(ann).slice(0, 300)}`;
    return undefined;
  };
  const req = verbRequest('patch', a, c, { body: JSON.stringify(ops), patchType: 'json' });
  return { category: 'JSON patch small copies (valid)', target: a.t.id, verb: 'patch', answer: 'status', object: a.object as string, build: () => ({ req, expect: [{ code: 'success', check }] }) };
};
