// The watch cache's ordered store: against a plain sorted array under thousands of random steps
// (size, get, range and count of random [start, end), after each step), keys that are words of
// Object.prototype or empty or hold NUL and astral characters, the order of keys (UTF-16 code
// units, as `<` compares JS strings), and an update of a present key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SortedStore } from './sortedStore.js';

/** mulberry32: a small seeded PRNG, so a failure replays. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The model: entries sorted by key, found by a linear scan. */
class Model {
  entries: [string, number][] = [];
  get(key: string): number | undefined {
    return this.entries.find(([k]) => k === key)?.[1];
  }
  set(key: string, value: number): void {
    const e = this.entries.find(([k]) => k === key);
    if (e) e[1] = value;
    else this.entries = [...this.entries, [key, value] as [string, number]].sort(([a], [b]) => byCodeUnits(a, b));
  }
  delete(key: string): void {
    this.entries = this.entries.filter(([k]) => k !== key);
  }
  replace(entries: [string, number][]): void {
    this.entries = [...new Map(entries)].sort(([a], [b]) => byCodeUnits(a, b));
  }
  range(start: string, end: string): [string, number][] {
    return this.entries.filter(([k]) => k >= start && k < end);
  }
}

const hostile = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '', '\0', '\0\0', 'a\0', '😀', '\u{10ffff}', '\ue000', '\uffff', 'é'];
// Short words over a small alphabet, so keys share prefixes, and one key is often another's prefix.
const alphabet = ['a', 'b', '/', '\0', 'é', '😀', '\ue000', '\uffff'];
// Above every key: keys are at most 4 letters (8 code units) long.
const top = '\uffff'.repeat(9);

function randomKey(rnd: () => number): string {
  if (rnd() < 0.2) return hostile[Math.floor(rnd() * hostile.length)] as string;
  let k = '';
  for (let n = Math.floor(rnd() * 5); n > 0; n--) k += alphabet[Math.floor(rnd() * alphabet.length)];
  return k;
}

test('random set, delete, replace and clear agree with a sorted array after every step', () => {
  for (const seed of [1, 2, 3]) {
    const rnd = prng(seed);
    const store = new SortedStore<number>();
    const model = new Model();
    for (let step = 0; step < 4000; step++) {
      const op = rnd();
      const key = randomKey(rnd);
      let what: string;
      if (op < 0.6) {
        what = `set ${JSON.stringify(key)}`;
        store.set(key, step);
        model.set(key, step);
      } else if (op < 0.94) {
        // Mostly a present key, sometimes one that is not.
        const present = model.entries[Math.floor(rnd() * model.entries.length)]?.[0];
        const k = present !== undefined && rnd() < 0.8 ? present : key;
        what = `delete ${JSON.stringify(k)}`;
        store.delete(k);
        model.delete(k);
      } else if (op < 0.99) {
        const entries = Array.from({ length: Math.floor(rnd() * rnd() * 1000) }, (_, i): [string, number] => [randomKey(rnd), step * 100 + i]);
        // Half the time in key order, as a relist comes.
        if (rnd() < 0.5) entries.sort(([a], [b]) => byCodeUnits(a, b));
        what = `replace ${entries.length}`;
        store.replace(entries);
        model.replace(entries);
      } else {
        what = 'clear';
        store.clear();
        model.entries = [];
      }
      const at = `seed ${seed}, step ${step} (${what})`;
      assert.equal(store.size, model.entries.length, at);
      for (const [k, v] of model.entries) assert.equal(store.get(k), v, `${at}: get ${JSON.stringify(k)}`);
      assert.equal(store.get(randomKey(rnd) + '\u0001'), undefined, at);
      assert.deepEqual([...store.range('', top)], model.entries, `${at}: whole range`);
      for (let r = 0; r < 4; r++) {
        // Bounds from present keys (and their continue keys) and random ones: empty and
        // reversed ranges included.
        const bound = (): string => {
          const present = model.entries[Math.floor(rnd() * model.entries.length)]?.[0];
          if (present !== undefined && rnd() < 0.5) return rnd() < 0.5 ? present : `${present}\0`;
          return randomKey(rnd);
        };
        const start = bound();
        const end = rnd() < 0.2 ? start : bound();
        const want = model.range(start, end);
        const where = `${at}: [${JSON.stringify(start)}, ${JSON.stringify(end)})`;
        assert.deepEqual([...store.range(start, end)], want, where);
        assert.equal(store.count(start, end), want.length, where);
      }
    }
  }
});

test('keys are data: words of Object.prototype, empty, NUL and astral keys sort by UTF-16 code units', () => {
  const store = new SortedStore<string>();
  const keys = ['\ue000', '😀', 'constructor', '__proto__', '', '\0', 'a\0', 'a', 'é', 'toString'];
  for (const k of keys) store.set(k, `v${k}`);
  // U+1F600 is the surrogates D83D DE00, before U+E000 in code units (after it in UTF-8 bytes).
  const order = ['', '\0', '__proto__', 'a', 'a\0', 'constructor', 'toString', 'é', '😀', '\ue000'];
  assert.deepEqual(
    [...store.range('', '\uffff\uffff')].map(([k]) => k),
    order,
  );
  for (const k of keys) assert.equal(store.get(k), `v${k}`);
  assert.equal(store.get('hasOwnProperty'), undefined);
  assert.equal(store.size, keys.length);
  assert.equal(store.count('', '\uffff\uffff'), keys.length);
  // A continue key (`${lastKey}\0`) is the first key after lastKey.
  assert.deepEqual(
    [...store.range('a\0', 'b')].map(([k]) => k),
    ['a\0'],
  );
  assert.equal(store.count('a\0', 'b'), 1);
  assert.equal(store.count('a\0\0', 'b'), 0);
  assert.equal(store.count('', '\0'), 1);
  // Before the first key, after the last, and reversed.
  assert.equal(store.count('\uffff', '\uffff\uffff'), 0);
  assert.equal(store.count('é', '\uffff'), 3);
  assert.equal(store.count('z', 'a'), 0);
  assert.deepEqual([...store.range('z', 'a')], []);
  store.delete('__proto__');
  store.delete('');
  store.delete('');
  assert.equal(store.get('__proto__'), undefined);
  assert.equal(store.size, keys.length - 2);
  assert.deepEqual(
    [...store.range('', '\uffff\uffff')].map(([k]) => k),
    order.filter((k) => k !== '__proto__' && k !== ''),
  );
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});

test('an update of a present key keeps its place and the counts', () => {
  const store = new SortedStore<number>();
  store.replace([
    ['/registry/pods/ns/b', 2],
    ['/registry/pods/ns/a', 1],
    ['/registry/pods/ns/c', 3],
    ['/registry/pods/ns/a', 10],
  ]);
  assert.deepEqual(
    [...store.range('/registry/pods/', '/registry/pods0')],
    [
      ['/registry/pods/ns/a', 10],
      ['/registry/pods/ns/b', 2],
      ['/registry/pods/ns/c', 3],
    ],
  );
  store.set('/registry/pods/ns/b', 20);
  assert.equal(store.size, 3);
  assert.equal(store.get('/registry/pods/ns/b'), 20);
  assert.equal(store.count('/registry/pods/ns/a\0', '/registry/pods0'), 2);
  assert.deepEqual(
    [...store.range('/registry/pods/ns/a\0', '/registry/pods0')],
    [
      ['/registry/pods/ns/b', 20],
      ['/registry/pods/ns/c', 3],
    ],
  );
  store.clear();
  assert.equal(store.size, 0);
  assert.deepEqual([...store.range('', '\uffff')], []);
  assert.equal(store.count('', '\uffff'), 0);
  store.set('/registry/pods/ns/d', 4);
  assert.deepEqual([...store.range('', '\uffff')], [['/registry/pods/ns/d', 4]]);
});
