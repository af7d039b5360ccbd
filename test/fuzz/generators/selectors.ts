// Label and field selectors of 10,000 terms and of pathological shapes, on list, watch and
// deletecollection (a dry run, or a selector nothing matches). kube parses any number of terms
// (its request line may be up to 1 MiB): a valid one is a success, a malformed one 400.
import { BAD_REQUEST, METHOD_NOT_ALLOWED, SUCCESS, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, verbRequest, type FuzzContext } from '../requests.js';

const many = (n: number, term: (i: number) => string): string => Array.from({ length: n }, (_, i) => term(i)).join(',');

function labelSelector(r: Rand): [string, boolean] {
  const n = 1000 + r.int(9001);
  const shapes: Array<[() => string, boolean]> = [
    [() => many(n, (i) => `fz${i}=v`), true],
    [() => many(n, (i) => `!fz${i}`), true],
    [() => many(n, (i) => `fz${i}!=v${i}`), true],
    [() => `fz in (${many(n, (i) => `v${i}`)})`, true],
    [() => `fz notin (${many(n, (i) => `v${i}`)}),fz`, true],
    [() => many(n, (i) => `example.com/fz-${i}>${i}`), true],
    [() => `${many(n, (i) => `fz${i}=v`)},=bad`, false],
    [() => `fz in (${'('.repeat(n)}v${')'.repeat(n)})`, false],
    [() => `${'fz'.repeat(n)}=v`, false],
    [() => `fz=${'v'.repeat(n)}`, false],
    [() => many(n, () => 'fz in (a'), false],
    [() => 'a in (b', false],
    [() => 'a notin b', false],
    [() => 'a=b=c', false],
    [() => 'x/y/z=1', false],
    [() => 'a,,b', false],
    [() => 'a>b', false],
    [() => 'fz=\u202ertl', false],
    [() => 'fz=zero\u200bwidth', false],
  ];
  const [gen, valid] = r.pick(shapes);
  return [gen(), valid];
}

function fieldSelector(r: Rand): [string, boolean] {
  const n = 1000 + r.int(9001);
  const shapes: Array<[() => string, boolean]> = [
    [() => many(n, (i) => `metadata.name=fz-${i}`), true],
    [() => many(n, (i) => `metadata.name!=fz-${i}`), true],
    [() => many(n, () => 'metadata.name=a\\,b\\=c\\\\d'), true],
    [() => `${many(n, (i) => `metadata.name=fz-${i}`)},spec.nope=1`, false],
    [() => many(n, () => 'metadata.name'), false],
    [() => 'metadata.name~x', false],
    [() => 'metadata.uid=1', false],
    [() => '=x', false],
    [() => 'metadata.name=\\q', false],
  ];
  const [gen, valid] = r.pick(shapes);
  return [gen(), valid];
}

export const selectors = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const label = r.chance(0.6);
  const [sel, valid] = label ? labelSelector(r) : fieldSelector(r);
  const verb = r.pick(['list', 'list', 'watch', 'deletecollection'] as const);
  const dry = verb === 'deletecollection' ? '&dryRun=All' : '';
  const query = `${label ? 'labelSelector' : 'fieldSelector'}=${encodeURIComponent(sel)}${dry}`;
  const expect: Expect[] = verb === 'deletecollection' && !a.t.deleteCollection ? [METHOD_NOT_ALLOWED] : valid ? [SUCCESS] : [BAD_REQUEST];
  const req = verbRequest(verb, a, c, { query });
  return { category: `${label ? 'label' : 'field'} selectors (huge, pathological)`, target: a.t.id, verb, answer: 'status', build: () => ({ req, expect, dryRun: true }) };
};
