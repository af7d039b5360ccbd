import { decodeContinue, encodeContinue, InvalidContinueError } from '../continue.js';
import { BadRequestError, ExpiredError, expiredMessages, InternalError, TooLargeResourceVersionError, type StatusCause } from '../errors.js';
import type { ListOptions, ListResult } from '../interfaces.js';
import { prefixRangeEnd } from '../keys.js';
import { CompactedError, FutureRevisionError, type KeyValue, type ListResponse } from '../kv.js';
import type { StoredObject } from '../../apimachinery/object.js';
import { everything, predicateEmpty, predicateMatches, type SelectionPredicate } from '../selectionPredicate.js';
import type { Versioner } from '../versioner.js';
import { isCorrupt, type Store } from './store.js';

/** Largest page requested from the backend when filtered lists keep paging (kube's maxLimit). */
export const maxLimit = 10000;
/** Objects decoded between two event-loop turns in a large list. */
const decodeSlice = 500;
/** Corrupt objects a list reports before giving up (kube's maxCorruptObjErrsToAggregate). */
const maxCorruptObjErrs = 100;

/**
 * ValidateListOptions: the revision to read at (0 = latest) and the key to resume from.
 * Continue tokens exclude an explicit resourceVersion; Exact (or legacy RV with limit) pins the read.
 */
export function validateListOptions(keyPrefix: string, versioner: Versioner, opts: ListOptions): { withRev: number; continueKey: string } {
  const pred = opts.predicate ?? everything;
  if (opts.recursive && pred.continue) {
    let decoded: { fromKey: string; rv: number };
    try {
      decoded = decodeContinue(pred.continue, keyPrefix);
    } catch (e) {
      if (e instanceof InvalidContinueError) throw new BadRequestError(`invalid continue token: ${e.message}`);
      throw e;
    }
    if (opts.resourceVersion && opts.resourceVersion !== '0') {
      throw new BadRequestError('specifying resource version is not allowed when using continue');
    }
    // rv > 0 pins the snapshot; rv < 0 means "continue at the latest revision".
    return { withRev: decoded.rv > 0 ? decoded.rv : 0, continueKey: decoded.fromKey };
  }
  if (!opts.resourceVersion) return { withRev: 0, continueKey: '' };
  const parsed = versioner.parseResourceVersion(opts.resourceVersion);
  switch (opts.resourceVersionMatch ?? '') {
    case 'NotOlderThan':
      return { withRev: 0, continueKey: '' };
    case 'Exact':
      return { withRev: parsed, continueKey: '' };
    case '':
      return { withRev: opts.recursive && (pred.limit ?? 0) > 0 && parsed > 0 ? parsed : 0, continueKey: '' };
    default:
      throw new BadRequestError(`unknown ResourceVersionMatch value: ${opts.resourceVersionMatch}`);
  }
}

/** Collects per-item failures: abort on the first, or aggregate corrupt objects (unsafe-deletion mode). */
interface ItemErrors {
  /** Returns true when the list must stop. */
  append(key: string, err: Error): boolean;
  aggregate(): Error | undefined;
}

class AbortOnFirstError implements ItemErrors {
  private err: Error | undefined;
  append(_key: string, err: Error): boolean {
    this.err ??= err;
    return true;
  }
  aggregate(): Error | undefined {
    return this.err;
  }
}

class CorruptObjErrors implements ItemErrors {
  private readonly corrupt: Array<{ key: string; err: Error }> = [];
  private abortErr: Error | undefined;
  private tooMany = false;
  append(key: string, err: Error): boolean {
    if (this.abortErr || this.tooMany) return true;
    if (isCorrupt(err)) {
      this.corrupt.push({ key, err });
      if (this.corrupt.length >= maxCorruptObjErrs) this.tooMany = true;
      return this.tooMany;
    }
    this.abortErr = err;
    return true;
  }
  aggregate(): Error | undefined {
    if (this.corrupt.length === 0) return this.abortErr;
    const causes: StatusCause[] = this.corrupt.map(({ key, err }) => ({ reason: 'FieldValueInvalid', field: key, message: err.message }));
    if (this.tooMany) causes.push({ reason: 'TooMany', message: 'too many errors, the list is truncated' });
    else if (this.abortErr) causes.push({ reason: 'UnexpectedServerResponse', message: this.abortErr.message });
    const lines = this.corrupt.map(({ key, err }) => `\t${key}: ${err.message}`).join('\n');
    return new InternalError(`unable to transform or decode ${this.corrupt.length} objects: {\n${lines}\n}`, { causes });
  }
}

/** GetList as kube's etcd3 store: pages through the KV at one revision until `limit` items match. */
export async function getList<T extends StoredObject>(s: Store<T>, key: string, opts: ListOptions): Promise<ListResult<T>> {
  const recursive = opts.recursive ?? false;
  const keyPrefix = s.prepareKey(key, recursive);
  const pred = (opts.predicate ?? everything) as SelectionPredicate<T>;
  const limit = pred.limit ?? 0;
  const paging = limit > 0;
  let { withRev, continueKey } = validateListOptions(keyPrefix, s.versioner, opts);
  const rangeEnd = prefixRangeEnd(keyPrefix);
  const errors: ItemErrors = s.corruptObjectHandling ? new CorruptObjErrors() : new AbortOnFirstError();
  const items: T[] = [];
  let lastKey = '';
  let hasMore: boolean;
  let count: number;
  let pageLimit = limit;
  let start = continueKey || keyPrefix;

  for (;;) {
    let resp: ListResponse;
    try {
      resp = await readChunk(s, recursive, keyPrefix, start, rangeEnd, withRev, pageLimit);
    } catch (e) {
      throw await listReadError(s, e, withRev, Boolean(pred.continue), start, keyPrefix);
    }
    if (withRev === 0) {
      s.validateMinimumResourceVersion(opts.resourceVersion, resp.revision);
      withRev = resp.revision;
    }
    const chunkHasMore = resp.kvs.length < resp.count;
    count = resp.count;
    let limitReached = false;
    let decoded = 0;
    for (const kv of resp.kvs) {
      // Decoding is synchronous: give the event loop a turn every few hundred objects.
      if (++decoded % decodeSlice === 0) await new Promise<void>((r) => setImmediate(r));
      if (paging && items.length >= limit) {
        limitReached = true;
        break;
      }
      lastKey = kv.key;
      const err = appendItem(s, kv, pred, items);
      if (err && errors.append(kv.key, err)) {
        const agg = errors.aggregate();
        if (agg) throw agg;
      }
    }
    hasMore = chunkHasMore || limitReached;
    if (limitReached || !chunkHasMore) break;
    if (paging && items.length >= limit) break;
    const last = resp.kvs[resp.kvs.length - 1];
    if (!last) throw new InternalError('no results were found, but the backend indicated there were more values remaining');
    start = `${last.key}\0`;
    // Filtered pages come back short: double the page size to bound the number of round trips.
    if (pageLimit < maxLimit) pageLimit = Math.min(pageLimit * 2, maxLimit);
  }
  const agg = errors.aggregate();
  if (agg) throw agg;

  const result: ListResult<T> = { items, resourceVersion: String(withRev) };
  if (hasMore) {
    result.continue = encodeContinue(`${lastKey}\0`, keyPrefix, withRev);
    // Counts include objects the selector would drop, so they are only reported unfiltered.
    if (predicateEmpty(pred as SelectionPredicate<never>)) result.remainingItemCount = count - limit;
  }
  return result;
}

async function readChunk<T extends StoredObject>(s: Store<T>, recursive: boolean, keyPrefix: string, start: string, rangeEnd: string, revision: number, limit: number): Promise<ListResponse> {
  if (recursive) return s.kv.list({ key: start, rangeEnd, revision, limit });
  const r = await s.kv.get(keyPrefix, { revision });
  return { kvs: r.kv ? [r.kv] : [], count: r.kv ? 1 : 0, revision: r.revision };
}

/** Decodes one item and appends it when it matches; returns the per-item error, if any. */
function appendItem<T extends StoredObject>(s: Store<T>, kv: KeyValue, pred: SelectionPredicate<T>, items: T[]): Error | undefined {
  let data: Buffer;
  try {
    data = s.codec.fromStorage(kv.value, kv.key).data;
  } catch (e) {
    return new InternalError(`unable to transform key ${JSON.stringify(kv.key)}: ${(e as Error).message}`, { cause: e });
  }
  let obj: T;
  try {
    obj = s.codec.decode(data, kv.modRevision, kv.key);
  } catch (e) {
    return e as Error;
  }
  if (predicateMatches(pred, obj)) items.push(obj);
  return undefined;
}

async function listReadError<T extends StoredObject>(s: Store<T>, e: unknown, withRev: number, continuing: boolean, continueKey: string, keyPrefix: string): Promise<Error> {
  if (e instanceof FutureRevisionError) {
    let current = 0;
    try {
      current = await s.getCurrentResourceVersion();
    } catch {
      // Report 0 when even the current revision cannot be read.
    }
    return new TooLargeResourceVersionError(withRev, current, 1);
  }
  if (e instanceof CompactedError) {
    if (!continuing) return new ExpiredError(expiredMessages.list);
    // rv=-1 lets the client resume at the latest revision, knowingly inconsistent.
    return new ExpiredError(expiredMessages.continue, encodeContinue(continueKey, keyPrefix, -1));
  }
  try {
    return await s.call(keyPrefix, () => Promise.reject(e));
  } catch (mapped) {
    return mapped as Error;
  }
}
