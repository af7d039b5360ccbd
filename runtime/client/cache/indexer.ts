import type { IndexFunc, Indexer } from '../cache.js';
import type { DeepReadonly } from '../types.js';
import type { KeyFunc } from './keys.js';

/** What a DeltaFIFO consults to detect deletions and to resync: the informer's store. */
export interface KnownObjects<T> {
  getByKey(key: string): DeepReadonly<T> | undefined;
  listKeys(): readonly string[];
}

type Index = Map<string, Set<string>>;

/**
 * The informer's cache (client-go's threadSafeMap behind cache.NewIndexer):
 * objects by key plus one inverted index per index function, kept in step on
 * every write. Writes come only from the informer; what readers get is the
 * stored (frozen) object itself, never a copy. Iteration follows insertion
 * order, so results are deterministic.
 */
export class StoreIndexer<T> implements Indexer<T>, KnownObjects<T> {
  private items = new Map<string, DeepReadonly<T>>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Index>();

  constructor(
    private readonly keyFunc: KeyFunc,
    indexers: Readonly<Record<string, IndexFunc<T>>> = {},
  ) {
    this.addIndexers(indexers);
  }

  /** Inserts or replaces the object under its key. */
  add(obj: DeepReadonly<T>): void {
    this.put(this.keyFunc(obj), obj);
  }

  update(obj: DeepReadonly<T>): void {
    this.put(this.keyFunc(obj), obj);
  }

  /** Removes the object stored under the key of `obj` (a tombstone's key for a tombstone). */
  delete(obj: unknown): void {
    const key = this.keyFunc(obj);
    const old = this.items.get(key);
    if (old === undefined) return;
    this.unindex(old, key);
    this.items.delete(key);
  }

  /** Swaps the whole content and rebuilds every index. */
  replace(objs: readonly DeepReadonly<T>[]): void {
    this.items = new Map();
    for (const index of this.indices.values()) index.clear();
    for (const obj of objs) this.put(this.keyFunc(obj), obj);
  }

  /** The stored object under the key of `obj`. */
  get(obj: unknown): DeepReadonly<T> | undefined {
    return this.items.get(this.keyFunc(obj));
  }

  getByKey(key: string): DeepReadonly<T> | undefined {
    return this.items.get(key);
  }

  list(): readonly DeepReadonly<T>[] {
    return [...this.items.values()];
  }

  listKeys(): readonly string[] {
    return [...this.items.keys()];
  }

  byIndex(indexName: string, indexedValue: string): readonly DeepReadonly<T>[] {
    const out: DeepReadonly<T>[] = [];
    for (const key of this.indexFor(indexName).get(indexedValue) ?? []) {
      const obj = this.items.get(key);
      if (obj !== undefined) out.push(obj);
    }
    return out;
  }

  indexKeys(indexName: string, indexedValue: string): readonly string[] {
    return [...(this.indexFor(indexName).get(indexedValue) ?? [])];
  }

  listIndexFuncValues(indexName: string): readonly string[] {
    return [...this.indexFor(indexName).keys()];
  }

  /** Objects sharing any index value with `obj` under `indexName` (Indexer.Index). */
  index(indexName: string, obj: DeepReadonly<T>): readonly DeepReadonly<T>[] {
    const fn = this.indexers.get(indexName);
    if (fn === undefined) throw new Error(`index with name ${indexName} does not exist`);
    const keys = new Set<string>();
    for (const value of fn(obj)) for (const k of this.indexFor(indexName).get(value) ?? []) keys.add(k);
    return [...keys].flatMap((k) => {
      const o = this.items.get(k);
      return o === undefined ? [] : [o];
    });
  }

  getIndexers(): ReadonlyMap<string, IndexFunc<T>> {
    return this.indexers;
  }

  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void {
    const names = Object.keys(indexers);
    const taken = names.filter((n) => this.indexers.has(n));
    if (taken.length > 0) throw new Error(`indexer conflict: ${taken.join(', ')}`);
    for (const name of names) {
      const fn = indexers[name];
      if (fn === undefined) continue;
      const index: Index = new Map();
      for (const [key, obj] of this.items) addToIndex(index, fn(obj), key);
      this.indexers.set(name, fn);
      this.indices.set(name, index);
    }
  }

  private put(key: string, obj: DeepReadonly<T>): void {
    const old = this.items.get(key);
    // Index values are computed before anything changes, so a throwing index
    // function leaves the store as it was.
    const values = [...this.indexers].map(([name, fn]) => [name, fn(obj)] as const);
    if (old !== undefined) this.unindex(old, key);
    this.items.set(key, obj);
    for (const [name, vals] of values) addToIndex(this.indexFor(name), vals, key);
  }

  private unindex(obj: DeepReadonly<T>, key: string): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indexFor(name);
      for (const value of fn(obj)) {
        const keys = index.get(value);
        if (keys === undefined) continue;
        keys.delete(key);
        if (keys.size === 0) index.delete(value);
      }
    }
  }

  private indexFor(indexName: string): Index {
    const index = this.indices.get(indexName);
    if (index === undefined) throw new Error(`index with name ${indexName} does not exist`);
    return index;
  }
}

function addToIndex(index: Index, values: readonly string[], key: string): void {
  for (const value of values) {
    let keys = index.get(value);
    if (keys === undefined) index.set(value, (keys = new Set()));
    keys.add(key);
  }
}

/** A store keyed by `keyFunc` with the given indexes (cache.NewIndexer). */
export function newIndexer<T>(keyFunc: KeyFunc, indexers: Readonly<Record<string, IndexFunc<T>>> = {}): StoreIndexer<T> {
  return new StoreIndexer<T>(keyFunc, indexers);
}
