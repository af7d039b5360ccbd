import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenSuccessCache } from '../../runtime/authentication/serviceaccount/cache.js';

describe('TokenSuccessCache (the service-account authenticator cache)', () => {
  it('is bounded: past maxEntries the oldest entry goes first', () => {
    const c = new TokenSuccessCache<string>(10_000, 2);
    c.set('a', 'A', 0);
    c.set('b', 'B', 0);
    c.set('c', 'C', 0);
    assert.equal(c.get('a', 1), undefined);
    assert.equal(c.get('b', 1), 'B');
    assert.equal(c.get('c', 1), 'C');
    // Setting a key again refreshes it rather than taking a second slot.
    c.set('b', 'B2', 2);
    c.set('d', 'D', 2);
    assert.equal(c.get('c', 3), undefined);
    assert.equal(c.get('b', 3), 'B2');
    assert.equal(c.get('d', 3), 'D');
  });

  it("keeps a success until the TTL or the token's expiry, whichever is sooner; a TTL of 0 keeps nothing", () => {
    const c = new TokenSuccessCache<string>(10_000);
    c.set('long', 'L', 0);
    c.set('short', 'S', 0, 5_000);
    assert.equal(c.get('short', 4_999), 'S');
    assert.equal(c.get('short', 5_000), undefined);
    assert.equal(c.get('long', 9_999), 'L');
    assert.equal(c.get('long', 10_000), undefined);
    const none = new TokenSuccessCache<string>(0);
    none.set('k', 'V', 0);
    assert.equal(none.get('k', 0), undefined);
  });

  it('keys by a hash: the token is not in the key, and audience lists that concatenate alike differ', () => {
    const token = 'x'.repeat(1 << 20);
    const key = TokenSuccessCache.key(token, ['api']);
    assert.ok(key.length < 100 && !key.includes('xxxx'), key.slice(0, 100));
    assert.notEqual(TokenSuccessCache.key('t', ['a', 'b']), TokenSuccessCache.key('t', ['ab']));
    assert.notEqual(TokenSuccessCache.key('t', ['a']), TokenSuccessCache.key('t', []));
    assert.equal(TokenSuccessCache.key('t', ['a']), TokenSuccessCache.key('t', ['a']));
  });
});
