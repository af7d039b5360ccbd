// The watch cache's ordered store (runtime/storage/cacher/sortedStore.ts) at 1,000 to 300,000
// keys, as the registry names a CRD's objects (/registry/<group>/<resource>/<namespace>/<name>),
// in random order: µs per insert of a new key and per delete (2,000 of each, the store at that
// size), ms to range over every key (a list), µs per count (a list page's remainingItemCount, from
// a continue key), ms to replace the whole content (a relist) with the keys in the backend's order
// and shuffled. Median of the rounds, after one round of warm-up. BENCH_QUICK=1 shrinks the sizes
// and rounds. Run: npm run bench -- sorted-store
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SortedStore } from '../../runtime/storage/cacher/sortedStore.js';
import { runBench } from './lib/process.js';
import { Rand } from '../fuzz/prng.js';

const quick = process.env['BENCH_QUICK'] === '1';
const SIZES = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 300_000];
const ROUNDS = quick ? 3 : 5;
const CHANGES = 2_000;
const COUNTS = 10_000;
const PREFIX = '/registry/stable.example.com/crontabs/';
const END = '/registry/stable.example.com/crontabs0';

/** Seeded: every run (and the tree it is compared with) sees the same keys. */
function prng(seed: number): () => number {
  const r = new Rand(seed);
  return () => r.next();
}

/** n distinct keys, in random order. */
function newKeys(rnd: () => number, n: number, taken: Set<string>): string[] {
  const out: string[] = [];
  while (out.length < n) {
    const k = `${PREFIX}ns-${Math.floor(rnd() * 100)}/ct-${Math.floor(rnd() * 2 ** 40).toString(36)}`;
    if (taken.has(k)) continue;
    taken.add(k);
    out.push(k);
  }
  return out;
}

interface Value {
  readonly key: string;
  readonly rv: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Median ms of fn over ROUNDS rounds, after one of warm-up. */
function rounds(fn: () => void): number {
  const ms: number[] = [];
  for (let r = 0; r <= ROUNDS; r++) {
    const t0 = performance.now();
    fn();
    if (r > 0) ms.push(performance.now() - t0);
  }
  return median(ms);
}

const fmt = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(1));

runBench(async () => {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; node ${process.version}; ${ROUNDS} rounds, median`,
  );
  console.log('| keys | insert µs | delete µs | range of all ms | count µs | replace, key order ms | replace, shuffled ms |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const n of SIZES) {
    const rnd = prng(n);
    const taken = new Set<string>();
    const keys = newKeys(rnd, n, taken);
    const store = new SortedStore<Value>();
    keys.forEach((key, rv) => store.set(key, { key, rv }));

    // Each round adds CHANGES keys the store lacks and then deletes them, so it stays at n. The
    // keys are made just before, as a watch event's key is new when the cache stores it: for the
    // sorted array this store replaced that mattered (at 100,000 keys 9 µs per insert with keys
    // made before the fill, 360–530 µs with new ones; presumably the GC's write barrier, which a
    // splice pays for each pointer to a new object it moves within an array of the old generation).
    const inserts: number[] = [];
    const deletes: number[] = [];
    for (let r = 0; r <= ROUNDS; r++) {
      const batch = newKeys(rnd, CHANGES, taken);
      const t0 = performance.now();
      for (const key of batch) store.set(key, { key, rv: 0 });
      const t1 = performance.now();
      for (const key of batch) store.delete(key);
      if (r > 0) inserts.push(t1 - t0);
      if (r > 0) deletes.push(performance.now() - t1);
    }
    const insertUs = (median(inserts) * 1000) / CHANGES;
    const deleteUs = (median(deletes) * 1000) / CHANGES;

    let seen = 0;
    const range = rounds(() => {
      seen = 0;
      for (const [, v] of store.range(PREFIX, END)) seen += v.rv >= 0 ? 1 : 0;
    });
    if (seen !== n) throw new Error(`range saw ${seen} of ${n} keys`);

    const from = Array.from({ length: COUNTS }, (_, i) => `${keys[(i * 7919) % n] as string}\0`);
    let counted = 0;
    const count = rounds(() => {
      for (const k of from) counted += store.count(k, END);
    });
    if (!(counted > 0)) throw new Error('count found nothing');

    const inOrder = [...keys].sort().map((key, rv): [string, Value] => [key, { key, rv }]);
    const shuffled = keys.map((key, rv): [string, Value] => [key, { key, rv }]);
    const replaceInOrder = rounds(() => store.replace(inOrder));
    const replaceShuffled = rounds(() => store.replace(shuffled));
    if (store.size !== n || store.count(PREFIX, END) !== n) throw new Error(`replace left ${store.size} keys of ${n}`);

    console.log(`| ${n.toLocaleString('en-US')} | ${fmt(insertUs)} | ${fmt(deleteUs)} | ${fmt(range)} | ${fmt((count * 1000) / COUNTS)} | ${fmt(replaceInOrder)} | ${fmt(replaceShuffled)} |`);
  }
});
