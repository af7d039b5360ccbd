// APIObjectVersioner: resourceVersions parse as Go's strconv.ParseUint(rv, 10, 64) does, and
// the stored encoding keeps every metadata key as data.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestError } from '../../runtime/storage/errors.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { apiObjectVersioner as v } from '../../runtime/storage/versioner.js';

describe('apiObjectVersioner', () => {
  it('parses decimal revisions, leading zeros included, and "" as 0', () => {
    assert.equal(v.parseResourceVersion(''), 0);
    assert.equal(v.parseResourceVersion('0'), 0);
    assert.equal(v.parseResourceVersion('0042'), 42);
    assert.ok(v.parseResourceVersion('18446744073709551615') > Number.MAX_SAFE_INTEGER);
    assert.ok(v.parseResourceVersion('000018446744073709551615') > Number.MAX_SAFE_INTEGER);
  });

  it('refuses what ParseUint refuses, with its words: syntax, then range beyond uint64', () => {
    const refused = (rv: string, why: string) =>
      assert.throws(
        () => v.parseResourceVersion(rv),
        (e: unknown) => e instanceof BadRequestError && e.message === `invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${why}`,
      );
    refused('abc', 'invalid syntax');
    refused('-1', 'invalid syntax');
    refused('1e3', 'invalid syntax');
    refused('18446744073709551616', 'value out of range');
    refused('99999999999999999999999', 'value out of range');
  });

  it('encodes metadata without resourceVersion and keeps a __proto__ key as an own field', () => {
    const meta = JSON.parse('{"name":"a","resourceVersion":"7","__proto__":{"x":1}}') as Record<string, unknown>;
    const text = v.encodeForStorage({ apiVersion: 'v1', kind: 'X', metadata: meta } as unknown as StoredObject);
    assert.equal(text, '{"apiVersion":"v1","kind":"X","metadata":{"name":"a","__proto__":{"x":1}}}');
  });
});
