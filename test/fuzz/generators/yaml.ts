// YAML bodies (create, update, apply): alias bombs (billion laughs, 400: kube's YAML decoder caps
// alias expansion), invalid YAML (400), aliases and merge keys (YAML 1.1, as kube's decoder reads
// them: valid, must land), and tags. `!!str` is a plain string; for `!!binary`, `!!timestamp`,
// `!!set`, custom and language tags kube's answer follows its YAML library's resolution, so a 2xx
// or a 400/422 are both kube-like there: what is asserted is no 5xx and an exact model.
import { APPLY_REFUSALS, BAD_REQUEST, INVALID, SUCCESS, fixed, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, fzName, getPath, onObject, verbRequest, type Aim, type FuzzContext } from '../requests.js';
import type { Obj } from '../targets.js';

const YAML = 'application/yaml';
/**
 * The `metadata` member (and any extra top-level members) of a YAML document in flow style (JSON
 * is YAML); `m` is the object's metadata as JSON without its closing brace, so a fragment can add
 * fields to it. What kube answers to it.
 */
interface Fragment {
  category: string;
  members: (m: string) => string;
  expect: Expect[];
}

const bomb = (): string => {
  let s = '{"a0": &a0 ["lol" , "lol" , "lol" , "lol" , "lol" , "lol" , "lol" , "lol" , "lol"]';
  let prev = 'a0';
  for (const l of 'abcdefghi') {
    s += `, "${l}": &${l} [${Array(9).fill(`*${prev}`).join(' , ')}]`;
    prev = l;
  }
  return `${s}}`;
};

function fragments(r: Rand): Fragment[] {
  const v = r.str(8);
  const has =
    (path: string[], want: unknown) =>
    (body: unknown): string | undefined => {
      const got = getPath(body, path);
      return JSON.stringify(got) === JSON.stringify(want) ? undefined : `${path.join('.')} is ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
    };
  const tagged: Expect[] = [SUCCESS, BAD_REQUEST, INVALID];
  // Drawn now, not when a fragment is rendered: the sequence of draws is the seed's alone.
  const broken = r.int(5);
  const tag = r.pick([
    '!!binary aGVsbG8=',
    '!!binary //79',
    '!!timestamp 2001-12-14t21:59:43.10-05:00',
    '!fuzz x',
    '!<tag:fuzz.example.com,2026:x> y',
    '!!python/object/apply:os.system ["true"]',
    '!!js/function "function(){}"',
    '!!float .nan',
    '!!null ""',
  ]);
  return [
    { category: 'YAML bomb', members: (m) => `"metadata": ${m}, "annotations": ${bomb()}}`, expect: [BAD_REQUEST] },
    {
      category: 'invalid YAML',
      members: (m) =>
        [`"metadata": ${m}, "a": b: c}`, `"metadata": ${m}, "k": [unclosed}`, `"metadata": ${m}, "x": *nope}`, `"metadata": ${m}}\t- x`, `"metadata": ${m}, "a": &x 1, "b": *y}`][broken] as string,
      expect: [BAD_REQUEST],
    },
    {
      category: 'YAML aliases (valid)',
      members: (m) => `"metadata": ${m}, "labels": &l {"fz-alias": "${v}"}, "annotations": *l}`,
      expect: [{ code: 'success', check: has(['metadata', 'annotations', 'fz-alias'], v) }],
    },
    {
      category: 'YAML merge keys (valid)',
      members: (m) => `"fz-base": &base {"fz-merge": "${v}"}, "metadata": ${m}, "annotations": {<<: *base, "fz-own": "${v}"}}`,
      expect: [{ code: 'success', check: has(['metadata', 'annotations', 'fz-merge'], v) }],
    },
    { category: 'YAML tags', members: (m) => `"metadata": ${m}, "annotations": {"fz-tag": !!str 123}}`, expect: [{ code: 'success', check: has(['metadata', 'annotations', 'fz-tag'], '123') }] },
    {
      category: 'YAML tags',
      members: (m) => `"metadata": ${m}, "annotations": {"fz-tag": ${tag}}}`,
      expect: tagged,
    },
    { category: 'YAML tags', members: (m) => `"metadata": ${m}, "labels": !!set {fz-a, fz-b}}`, expect: tagged },
    { category: 'YAML tags', members: (m) => `"metadata": !!map ${m}, "annotations": !!omap [{"fz-a": "b"}]}`, expect: tagged },
  ];
}

/** The object as a YAML document whose metadata is the fragment's. */
function render(o: Obj, f: Fragment): string {
  const rest = Object.entries(o)
    .filter(([k]) => k !== 'metadata')
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const meta = JSON.stringify(o['metadata'] ?? {});
  return `{${[...rest, f.members(meta.slice(0, -1))].join(', ')}}`;
}

export const yamlBodies = (r: Rand, c: FuzzContext): FuzzCase => {
  const a: Aim = aimKeep(r, c);
  const f = r.pick(fragments(r));
  const verb = r.pick(['create', 'create', 'update', 'patch'] as const);
  if (verb === 'create') {
    const body = render(a.t.manifest(fzName(r), c.ns), f);
    return fixed(f.category, a.t.id, verb, verbRequest('create', a, c, { body, contentType: YAML }), f.expect);
  }
  return onObject(f.category, a, verb, (o) => {
    if (verb === 'update') return { req: verbRequest('update', a, c, { body: render(o, f), contentType: YAML }), expect: f.expect };
    const applied = render({ apiVersion: a.t.apiVersion, kind: a.t.kind, metadata: { name: a.name } }, f);
    return { req: verbRequest('patch', a, c, { body: applied, patchType: 'apply', query: 'fieldManager=fuzz' }), expect: [...f.expect, ...APPLY_REFUSALS] };
  });
};
