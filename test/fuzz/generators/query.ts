// Query parameters of every verb with wrong types, negative and huge values, unknown enum values
// and forbidden combinations. kube: a value that does not parse is 400; options validation
// (dryRun, fieldValidation, fieldManager, propagationPolicy, resourceVersionMatch,
// sendInitialEvents, force) is 422; unknown parameters and odd-but-legal values (`limit=-1`,
// `limit=0`, a huge limit, `pretty`, `timeout=32s`) are ignored or honoured: a success.
import { BAD_REQUEST, INVALID, METHOD_NOT_ALLOWED, SUCCESS, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, current, fzName, verbRequest, type FuzzContext } from '../requests.js';
import type { Verb } from '../targets.js';

const HUGE = '99999999999999999999999';

/** Per verb: [query, kube's answers]. Writes on kept objects are refused or dry runs: nothing changes. */
const TABLE: Readonly<Record<Verb, ReadonlyArray<readonly [string, readonly Expect[]]>>> = {
  get: [
    ['resourceVersion=abc', [BAD_REQUEST, INVALID]],
    ['resourceVersion=-1', [BAD_REQUEST, INVALID]],
    [`resourceVersion=${HUGE}`, [BAD_REQUEST, INVALID]],
    ['resourceVersion=0', [SUCCESS]],
    ['pretty=true&zz=%FF%FE', [SUCCESS]],
  ],
  list: [
    ['limit=abc', [BAD_REQUEST]],
    ['limit=1e99x', [BAD_REQUEST]],
    ['limit=0x10', [BAD_REQUEST]],
    [`limit=${HUGE}`, [BAD_REQUEST]],
    ['limit=1.5', [BAD_REQUEST]],
    ['limit=-1', [SUCCESS]],
    ['limit=0', [SUCCESS]],
    ['limit=9223372036854775807', [SUCCESS]],
    ['timeoutSeconds=abc', [BAD_REQUEST]],
    [`timeoutSeconds=${HUGE}`, [BAD_REQUEST]],
    ['timeoutSeconds=-5', [SUCCESS]],
    ['resourceVersion=abc', [BAD_REQUEST, INVALID]],
    ['resourceVersionMatch=Bogus&resourceVersion=1', [INVALID]],
    ['resourceVersionMatch=Exact', [INVALID]],
    ['resourceVersionMatch=NotOlderThan', [INVALID]],
    ['resourceVersionMatch=Exact&resourceVersion=0', [INVALID]],
    ['sendInitialEvents=true', [INVALID]],
    ['limit=1&continue=garbage', [BAD_REQUEST]],
    ['limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTF9', [BAD_REQUEST]],
    ['continue=%25%25%25', [BAD_REQUEST]],
    ['timeout=32s&pretty=1&unknown=x', [SUCCESS]],
  ],
  watch: [
    ['timeoutSeconds=abc', [BAD_REQUEST]],
    [`timeoutSeconds=${HUGE}`, [BAD_REQUEST]],
    ['timeoutSeconds=1.5', [BAD_REQUEST]],
    ['timeoutSeconds=1&resourceVersion=abc', [BAD_REQUEST, INVALID]],
    ['timeoutSeconds=1&sendInitialEvents=true', [INVALID]],
    ['timeoutSeconds=1&sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1', [INVALID]],
    ['timeoutSeconds=1&resourceVersionMatch=Bogus', [INVALID]],
    ['timeoutSeconds=1&allowWatchBookmarks=maybe&limit=-3', [SUCCESS]],
    ['timeoutSeconds=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', [SUCCESS]],
  ],
  create: [
    ['dryRun=Bogus', [INVALID]],
    ['dryRun=All&dryRun=Foo', [INVALID]],
    ['dryRun=', [INVALID]],
    ['fieldValidation=Bogus', [INVALID, BAD_REQUEST]],
    ['fieldValidation=strict', [INVALID, BAD_REQUEST]],
    [`fieldManager=${'m'.repeat(129)}`, [INVALID]],
    ['fieldManager=%01%02', [INVALID]],
    ['dryRun=All&fieldValidation=Strict&fieldManager=fuzz', [SUCCESS]],
  ],
  update: [
    ['dryRun=Bogus', [INVALID]],
    ['fieldValidation=None', [INVALID, BAD_REQUEST]],
    [`fieldManager=${'m'.repeat(200)}`, [INVALID]],
    ['dryRun=All&pretty=1', [SUCCESS]],
  ],
  patch: [
    ['dryRun=Bogus', [INVALID]],
    ['force=true', [INVALID]],
    ['force=abc', [INVALID]],
    ['fieldValidation=%00', [INVALID, BAD_REQUEST]],
    [`fieldManager=${'m'.repeat(129)}`, [INVALID]],
    ['force=false', [INVALID]],
    ['dryRun=All&pretty=true&fieldValidation=Ignore', [SUCCESS]],
  ],
  delete: [
    ['gracePeriodSeconds=abc', [BAD_REQUEST]],
    [`gracePeriodSeconds=${HUGE}`, [BAD_REQUEST]],
    ['propagationPolicy=Bogus', [INVALID]],
    ['orphanDependents=true&propagationPolicy=Background', [INVALID]],
    ['dryRun=Bogus', [INVALID]],
    ['dryRun=All&gracePeriodSeconds=abc', [BAD_REQUEST]],
    ['dryRun=All&propagationPolicy=Foreground', [SUCCESS]],
  ],
  deletecollection: [
    ['limit=abc', [BAD_REQUEST]],
    ['dryRun=Bogus', [INVALID]],
    ['propagationPolicy=Bogus', [INVALID]],
    ['labelSelector=a%20in%20(b', [BAD_REQUEST]],
    ['fieldSelector=spec.nope%3D1', [BAD_REQUEST]],
    ['resourceVersionMatch=Exact', [INVALID]],
    ['dryRun=All&labelSelector=fz-none%3D1', [SUCCESS]],
  ],
};

const VERBS = Object.keys(TABLE) as Verb[];

export const invalidQuery = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const verb = r.pick(VERBS);
  const [query, kube] = r.pick(TABLE[verb]);
  const expect = verb === 'deletecollection' && !a.t.deleteCollection ? [METHOD_NOT_ALLOWED] : kube;
  const category = 'query parameters';
  const dryRun = /dryRun=All/.test(query);
  const object = verb === 'list' || verb === 'watch' || verb === 'deletecollection' || verb === 'create' ? undefined : a.object;
  if (verb === 'create') {
    const body = JSON.stringify(a.t.manifest(fzName(r), c.ns));
    return { category, target: a.t.id, verb, answer: 'status', build: () => ({ req: verbRequest(verb, a, c, { body, contentType: 'application/json', query }), expect, dryRun }) };
  }
  return {
    category,
    target: a.t.id,
    verb,
    answer: 'status',
    ...(object ? { object } : {}),
    build: (m) => {
      const body = verb === 'update' ? JSON.stringify(current(m, object as string)) : verb === 'patch' ? (query.startsWith('force') ? '{}' : '{"metadata":{"annotations":{"fz-q":"x"}}}') : undefined;
      return { req: verbRequest(verb, a, c, { ...(body !== undefined ? { body } : {}), query }), expect, dryRun };
    },
  };
};
