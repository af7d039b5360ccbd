// Unicode: invalid UTF-8 bytes, lone surrogates, overlong encodings, RTL overrides, zero-width
// characters, BOMs, NULs and astral characters. In an annotation value (free text) kube keeps
// valid text as sent and decodes each invalid byte, and each invalid \u escape, as U+FFFD; in
// names, label keys and values it is 422; in a URL name 404; in a selector 400.
import { BAD_REQUEST, INVALID, NOT_FOUND, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, fzName, getPath, onObject, verbRequest, type FuzzContext } from '../requests.js';
import type { Obj } from '../targets.js';

const TEXT = ['\u202eevil\u202c', 'zero\u200bwidth\u200d', '\ufeffbom', 'nul\u0000byte', '\u{1F600}\u{10FFFF}', 'e\u0301\u0327', '\u05e9\u05dc\u05d5\u05dd', '\u2028\u2029', '\uFFFE\uFFFF'];

/** Raw JSON string contents (between quotes) that decode to a replacement character per bad unit, and their meaning. */
const BROKEN: ReadonlyArray<[Buffer, string]> = [
  [Buffer.from([0x61, 0xff, 0x62]), 'a\ufffdb'],
  [Buffer.from([0x61, 0xfe, 0x80, 0x62]), 'a\ufffd\ufffdb'],
  [Buffer.from([0xc0, 0xaf]), '\ufffd\ufffd'],
  [Buffer.from('\\ud800', 'latin1'), '\ufffd'],
  [Buffer.from('x\\udfffy', 'latin1'), 'x\ufffdy'],
  [Buffer.from('\\udc00\\ud800', 'latin1'), '\ufffd\ufffd'],
];

/** A JSON body with `hole` standing for raw string bytes. */
function splice(o: Obj, hole: Buffer): Buffer {
  const text = JSON.stringify(o);
  const at = text.indexOf('@@fuzz@@');
  return Buffer.concat([Buffer.from(text.slice(0, at)), hole, Buffer.from(text.slice(at + 8))]);
}

const annotation =
  (want: string) =>
  (body: unknown): string | undefined => {
    const got = getPath(body, ['metadata', 'annotations', 'fz-text']);
    return got === want ? undefined : `annotation fz-text is ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
  };

export const unicode = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const category = 'unicode';
  switch (r.int(4)) {
    case 0: {
      // Free text: kept exactly (valid) or with U+FFFD for each bad unit (invalid bytes, lone surrogates).
      const valid = r.chance(0.5);
      const [raw, want] = valid ? [Buffer.from(JSON.stringify(r.pick(TEXT)).slice(1, -1)), ''] : r.pick(BROKEN);
      const expected = valid ? (JSON.parse(`"${raw.toString()}"`) as string) : want;
      const edit = (o: Obj): Buffer => {
        const meta = (o['metadata'] ?? {}) as Obj;
        o['metadata'] = { ...meta, annotations: { ...((meta['annotations'] as Obj | undefined) ?? {}), 'fz-text': '@@fuzz@@' } };
        return splice(o, raw);
      };
      const expect: Expect[] = [{ code: 'success', check: annotation(expected) }];
      if (r.chance(0.5)) {
        const body = edit(a.t.manifest(fzName(r), c.ns));
        return { category, target: a.t.id, verb: 'create', answer: 'status', build: () => ({ req: verbRequest('create', a, c, { body, contentType: 'application/json' }), expect }) };
      }
      return onObject(category, a, 'update', (o) => ({ req: verbRequest('update', a, c, { body: edit(o), contentType: 'application/json' }), expect }));
    }
    case 1: {
      // Names, label keys and values: 422.
      const bad = r.pick(TEXT);
      const o = a.t.manifest(fzName(r), c.ns);
      const meta = o['metadata'] as Obj;
      const where = r.int(3);
      if (where === 0) meta['name'] = `fz${bad}`;
      else if (where === 1) meta['labels'] = { [`fz${bad}`]: 'v' };
      else meta['labels'] = { fz: `v${bad}` };
      const body = JSON.stringify(o);
      return { category, target: a.t.id, verb: 'create', answer: 'status', build: () => ({ req: verbRequest('create', a, c, { body, contentType: 'application/json' }), expect: [INVALID] }) };
    }
    case 2: {
      // A name in the URL: nothing has it (404); invalid UTF-8 in the path too.
      const name = r.chance(0.5) ? encodeURIComponent(`fz${r.pick(TEXT)}`) : `fz%FF%FE${r.str(3)}`;
      const verb = r.pick(['get', 'delete'] as const);
      const req = verbRequest(verb, { t: a.t, name: 'X' }, c);
      req.path = req.path.replace(/\/X$/, `/${name}`);
      return { category, target: a.t.id, verb, answer: 'status', build: () => ({ req, expect: [NOT_FOUND] }) };
    }
    default: {
      const sel = r.pick([`fz=${r.pick(TEXT)}`, `${r.pick(TEXT)}=v`, 'fz=%FF']);
      const req = verbRequest(r.pick(['list', 'watch'] as const), a, c, { query: `labelSelector=${sel === 'fz=%FF' ? sel : encodeURIComponent(sel)}` });
      return { category, target: a.t.id, verb: 'list', answer: 'status', build: () => ({ req, expect: [BAD_REQUEST] }) };
    }
  }
};
