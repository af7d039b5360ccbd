import type { ListMeta } from '../../../apis/meta/v1/types.js';
import { newBadRequest, toStatusError } from '../../apimachinery/errors/index.js';
import type { KubeObject } from '../../registry/rest.js';
import { decodeContinue, encodeContinue, InvalidContinueError } from '../../storage/continue.js';
import { ExpiredError, expiredMessages, TooLargeResourceVersionError } from '../../storage/errors.js';
import { apiObjectVersioner } from '../../storage/versioner.js';
import type { History } from './history.js';
import { type FakeResource, gvrString } from './resources.js';
import { matches, parseSelection, selectsEverything } from './selection.js';

export interface TrackerListOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly limit?: number;
  readonly continue?: string;
}

export interface ListedObjects {
  readonly items: KubeObject[];
  readonly metadata: ListMeta & { resourceVersion: string };
}

/** What a list reads: the tracker's objects now, its resourceVersion, its history. */
export interface ListSource {
  readonly currentRV: number;
  readonly history: History;
  objects(resource: FakeResource): ReadonlyMap<string, KubeObject>;
}

/** Continue tokens name keys under this prefix: `/namespace/name` or `/name`. */
const KEY_PREFIX = '/';

const statusOf = (err: unknown): Error => toStatusError(err);

/** A client's resourceVersion as a number ("" is 0); 400 with the storage layer's message when it is not one. */
export function parseRV(rv: string | undefined): number {
  try {
    return apiObjectVersioner.parseResourceVersion(rv);
  } catch (err) {
    throw statusOf(err);
  }
}

/**
 * Which state a list reads, as the storage layer decides: the latest, or a
 * snapshot at an exact resourceVersion (resourceVersionMatch=Exact, a
 * continue token, or a legacy resourceVersion with a limit). 410 when the
 * snapshot is older than the history, 504 for a future resourceVersion.
 */
function readState(source: ListSource, resource: FakeResource, opts: TrackerListOptions): { rv: number; state: ReadonlyMap<string, KubeObject>; fromKey: string } {
  const current = source.objects(resource);
  const snapshot = (rv: number, expired: string): ReadonlyMap<string, KubeObject> => {
    const state = source.history.stateAt(gvrString(resource.descriptor), rv, current);
    if (state === undefined) throw statusOf(new ExpiredError(expired));
    return state;
  };
  if (opts.continue !== undefined && opts.continue !== '') {
    if (opts.resourceVersion !== undefined && opts.resourceVersion !== '' && opts.resourceVersion !== '0') {
      throw newBadRequest('specifying resource version is not allowed when using continue');
    }
    let decoded: { fromKey: string; rv: number };
    try {
      decoded = decodeContinue(opts.continue, KEY_PREFIX);
    } catch (e) {
      if (e instanceof InvalidContinueError) throw newBadRequest(`invalid continue token: ${e.message}`);
      throw e;
    }
    const rv = decoded.rv > 0 ? decoded.rv : source.currentRV;
    return { rv, state: rv >= source.currentRV ? current : snapshot(rv, expiredMessages.continue), fromKey: decoded.fromKey };
  }
  const requested = parseRV(opts.resourceVersion);
  const match = opts.resourceVersionMatch ?? '';
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') throw newBadRequest(`unknown ResourceVersionMatch value: ${match}`);
  if (requested > source.currentRV) throw statusOf(new TooLargeResourceVersionError(requested, source.currentRV));
  const exact = match === 'Exact' || (match === '' && (opts.limit ?? 0) > 0 && requested > 0);
  if (!exact || requested === source.currentRV) return { rv: source.currentRV, state: current, fromKey: '' };
  return { rv: requested, state: snapshot(requested, expiredMessages.list), fromKey: '' };
}

/**
 * One page of a list: objects of the namespace ('' for all) in key order,
 * filtered by the selectors, at most `limit` of them with a continue token
 * (and, unfiltered, remainingItemCount) when more follow.
 */
export function listObjects(source: ListSource, resource: FakeResource, namespace: string, opts: TrackerListOptions): ListedObjects {
  const selection = parseSelection(resource, opts.labelSelector, opts.fieldSelector);
  const { rv, state, fromKey } = readState(source, resource, opts);
  const nsPrefix = resource.descriptor.namespaced && namespace !== '' ? `${KEY_PREFIX}${namespace}/` : KEY_PREFIX;
  const keys = [...state.keys()]
    .map((k) => KEY_PREFIX + k)
    .filter((k) => k.startsWith(nsPrefix) && k >= fromKey)
    .sort(compareKeys);
  const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : Infinity;
  const items: KubeObject[] = [];
  let i = 0;
  for (; i < keys.length && items.length < limit; i++) {
    const obj = state.get((keys[i] as string).slice(KEY_PREFIX.length)) as KubeObject;
    if (matches(resource, selection, obj)) items.push(structuredClone(obj));
  }
  const metadata: ListedObjects['metadata'] = { resourceVersion: String(rv) };
  if (i < keys.length) {
    metadata.continue = encodeContinue(`${keys[i - 1] as string}\0`, KEY_PREFIX, rv);
    // Counts would include objects the selectors drop, so they are only given unfiltered.
    if (selectsEverything(selection)) metadata.remainingItemCount = keys.length - i;
  }
  return { items, metadata };
}

/** Byte order of keys, as etcd and SQLite order them. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
