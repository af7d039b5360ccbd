import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StatusError } from '../../apimachinery/errors/index.js';
import { decodeListOptions, setListOptionsDefaults, validateListOptions } from './listoptions.js';
import { parseCreateOptions, parsePatchOptions } from './writeoptions.js';

const fails = (code: number, message: string) => (e: unknown) => e instanceof StatusError && e.code === code && e.message === message;

describe('ListOptions', () => {
  const cases: { query: string; watch: boolean; error?: [number, string] }[] = [
    { query: '', watch: false },
    { query: 'resourceVersion=5&resourceVersionMatch=Exact', watch: false },
    {
      query: 'resourceVersion=5&resourceVersionMatch=Sometimes',
      watch: false,
      error: [422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Sometimes": supported values: "Exact", "NotOlderThan", ""'],
    },
    {
      query: 'resourceVersion=5&resourceVersionMatch=Exact&continue=x',
      watch: false,
      error: [422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'],
    },
    {
      query: 'resourceVersionMatch=NotOlderThan&resourceVersion=3',
      watch: true,
      error: [422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    },
    { query: 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan', watch: true },
    { query: 'limit=1.5', watch: false, error: [400, 'strconv.ParseInt: parsing "1.5": invalid syntax'] },
    { query: 'limit=99999999999999999999', watch: false, error: [400, 'strconv.ParseInt: parsing "99999999999999999999": value out of range'] },
  ];
  for (const c of cases) {
    test(`${c.watch ? 'watch' : 'list'} ?${c.query}`, () => {
      const run = (): void => validateListOptions(setListOptionsDefaults(decodeListOptions(new URLSearchParams(c.query), c.watch)));
      if (c.error) assert.throws(run, fails(c.error[0], c.error[1]));
      else assert.doesNotThrow(run);
    });
  }
  test('a watch from "" or "0" defaults to a watch-list (WatchList on)', () => {
    const o = setListOptionsDefaults(decodeListOptions(new URLSearchParams('resourceVersion=0'), true));
    assert.equal(o.sendInitialEvents, true);
    assert.equal(o.resourceVersionMatch, 'NotOlderThan');
    const n = setListOptionsDefaults(decodeListOptions(new URLSearchParams('resourceVersion=7'), true));
    assert.equal(n.sendInitialEvents, undefined);
  });
  test('booleans as kube converts them', () => {
    assert.equal(decodeListOptions(new URLSearchParams('allowWatchBookmarks='), true).allowWatchBookmarks, true);
    assert.equal(decodeListOptions(new URLSearchParams('allowWatchBookmarks=FALSE'), true).allowWatchBookmarks, false);
    assert.equal(decodeListOptions(new URLSearchParams('allowWatchBookmarks=0'), true).allowWatchBookmarks, false);
  });
});

describe('write options', () => {
  test('defaults: Warn, no dry run', () => {
    const o = parseCreateOptions(new URLSearchParams());
    assert.equal(o.fieldValidation, 'Warn');
    assert.equal(o.dryRun, false);
  });
  test('errors aggregate in kube order', () => {
    assert.throws(
      () => parseCreateOptions(new URLSearchParams('dryRun=All&dryRun=x&fieldValidation=x')),
      fails(
        422,
        'CreateOptions.meta.k8s.io "" is invalid: [dryRun: Unsupported value: []string{"All", "x"}: supported values: "All", fieldValidation: Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"]',
      ),
    );
  });
  test('dryRun values and fieldValidation print with Go %q (a control character as a \\x escape)', () => {
    assert.throws(
      () => parseCreateOptions(new URLSearchParams('dryRun=a%01b&fieldValidation=c%00')),
      fails(
        422,
        'CreateOptions.meta.k8s.io "" is invalid: [dryRun: Unsupported value: []string{"a\\x01b"}: supported values: "All", fieldValidation: Unsupported value: "c\\x00": supported values: "", "Ignore", "Strict", "Warn"]',
      ),
    );
  });
  test('apply patches need a fieldManager; others may not force', () => {
    assert.throws(() => parsePatchOptions(new URLSearchParams(), true), fails(422, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch'));
    assert.equal(parsePatchOptions(new URLSearchParams('force=true&fieldManager=m'), true).force, true);
    assert.throws(() => parsePatchOptions(new URLSearchParams('force=true'), false), fails(422, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch'));
  });
});
