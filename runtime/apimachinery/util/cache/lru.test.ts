// The least-recently-used cache (k8s.io/utils/lru) and the expiring cache built on it
// (cache.LRUExpireCache, the webhook authorizer's): recency from get and add, eviction of the
// oldest, hostile keys as data, expiry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LRUExpireCache } from '../../../authorization/webhook-cache.js';
import { LRU } from './lru.js';

test('get and add make an entry the newest; adding past the limit evicts the oldest', () => {
  const lru = new LRU<number>(3);
  lru.add('a', 1);
  lru.add('b', 2);
  lru.add('c', 3);
  assert.equal(lru.get('a'), 1); // order now b, c, a
  lru.add('d', 4); // evicts b
  assert.equal(lru.get('b'), undefined);
  lru.add('c', 30); // an update is a use: order a, d, c
  lru.add('e', 5); // evicts a
  assert.equal(lru.get('a'), undefined);
  assert.deepEqual(
    ['c', 'd', 'e'].map((k) => lru.get(k)),
    [30, 4, 5],
  );
  assert.equal(lru.size, 3);
  lru.remove('d');
  lru.remove('missing');
  assert.equal(lru.size, 2);
  lru.add('f', 6);
  lru.add('g', 7); // evicts c (used before e)
  assert.equal(lru.get('c'), undefined);
  assert.equal(lru.get('e'), 5);
});

test('a cache of one keeps the last entry; maxEntries must be positive', () => {
  const lru = new LRU<string>(1);
  lru.add('x', 'x');
  lru.add('y', 'y');
  assert.equal(lru.get('x'), undefined);
  assert.equal(lru.get('y'), 'y');
  lru.remove('y');
  lru.add('z', 'z');
  assert.equal(lru.get('z'), 'z');
  assert.throws(() => new LRU(0), RangeError);
  assert.throws(() => new LRU(Number.NaN), RangeError);
});

test('keys named __proto__ and constructor are entries like any other', () => {
  const lru = new LRU<string>(4);
  lru.add('__proto__', 'p');
  lru.add('constructor', 'c');
  assert.equal(lru.get('__proto__'), 'p');
  assert.equal(lru.get('constructor'), 'c');
  assert.equal(lru.get('toString'), undefined);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});

test('an expiring entry is served until its deadline, then gone; full, the least recently used goes', () => {
  let now = 0;
  const cache = new LRUExpireCache<string>(2, () => now);
  cache.add('a', 'A', 100);
  cache.add('b', 'B', 1000);
  now = 99;
  assert.equal(cache.get('a'), 'A'); // order b, a
  now = 100;
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.size, 1);
  cache.add('c', 'C', 1000);
  assert.equal(cache.get('b'), 'B'); // order c, b
  cache.add('d', 'D', 1000); // evicts c
  assert.equal(cache.get('c'), undefined);
  assert.equal(cache.get('b'), 'B');
});
