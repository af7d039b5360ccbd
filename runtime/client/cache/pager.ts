import type { List, ListOptions } from '../types.js';
import { isExpiredError } from './errors.js';

/** Default page size of a paginated list (pager.defaultPageSize). */
export const DEFAULT_PAGE_SIZE = 500;

export interface PagedList<T> {
  readonly items: T[];
  /** The resourceVersion of the first page: the snapshot every page was read from. */
  readonly resourceVersion: string;
  /** True when the server actually split the result (it honoured `limit`). */
  readonly paginated: boolean;
}

/**
 * Lists in pages of `pageSize` (0: one request without a limit), following
 * continue tokens (tools/pager's ListPager). When a continue token expires
 * between pages (410), the list restarts as one unpaginated request at the
 * resourceVersion first asked for, so a compaction during a long list costs
 * one big request instead of a failure.
 */
export async function listInPages<T>(list: (options: ListOptions) => Promise<List<T>>, options: ListOptions, pageSize: number): Promise<PagedList<T>> {
  const first: ListOptions = { ...options, limit: options.limit ?? (pageSize > 0 ? pageSize : undefined) };
  let page: ListOptions = first;
  let items: T[] | undefined;
  let resourceVersion = '';
  let paginated = false;
  for (;;) {
    let result: List<T>;
    try {
      result = await list(page);
    } catch (err) {
      if (!isExpiredError(err) || page.continue === undefined || page.continue === '') throw err;
      const full = await list({ ...first, limit: undefined, continue: undefined });
      return { items: full.items ?? [], resourceVersion: full.metadata?.resourceVersion ?? '', paginated };
    }
    const token = result.metadata?.continue ?? '';
    if (items === undefined) {
      resourceVersion = result.metadata?.resourceVersion ?? '';
      if (token === '') return { items: result.items ?? [], resourceVersion, paginated };
      items = [];
    }
    for (const item of result.items ?? []) items.push(item);
    if (token === '') return { items, resourceVersion, paginated };
    // A continue token carries its own snapshot; the server rejects a resourceVersion next to it.
    page = { ...first, continue: token, resourceVersion: undefined, resourceVersionMatch: undefined };
    paginated = true;
  }
}
