import { isGroupDiscoveryFailedError } from '../discovery/errors.js';
import type { DiscoveryInterface } from '../discovery/types.js';
import type { APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { parseGroupVersion, type GroupResource } from './schema.js';

/** The resources a category (`all`, `api-extensions`…) stands for (restmapper.CategoryExpander). */
export interface CategoryExpander {
  /** The resources, and whether the category is known at all. */
  expand(category: string): Promise<{ resources: GroupResource[]; found: boolean }>;
}

/** A fixed table of categories (restmapper.SimpleCategoryExpander). */
export class SimpleCategoryExpander implements CategoryExpander {
  constructor(readonly expansions: ReadonlyMap<string, readonly GroupResource[]>) {}

  expand(category: string): Promise<{ resources: GroupResource[]; found: boolean }> {
    const r = this.expansions.get(category);
    return Promise.resolve({ resources: r === undefined ? [] : [...r], found: r !== undefined });
  }
}

/**
 * Categories as discovery declares them (restmapper.NewDiscoveryCategoryExpander): every
 * resource that lists the category, in discovery order. A discovery that fails entirely, or
 * finds nothing, knows no category.
 */
export class DiscoveryCategoryExpander implements CategoryExpander {
  constructor(readonly discovery: DiscoveryInterface) {}

  async expand(category: string): Promise<{ resources: GroupResource[]; found: boolean }> {
    let lists: APIResourceList[] = [];
    try {
      lists = (await this.discovery.serverGroupsAndResources()).resources;
    } catch (e) {
      if (isGroupDiscoveryFailedError(e) && e.partial !== undefined) lists = e.partial.resources;
    }
    const resources: GroupResource[] = [];
    let found = false;
    for (const list of lists) {
      let group: string;
      try {
        group = parseGroupVersion(list.groupVersion).group;
      } catch {
        continue;
      }
      for (const r of list.resources) {
        if (r.categories?.includes(category) !== true) continue;
        found = true;
        resources.push({ group, resource: r.name });
      }
    }
    return { resources, found };
  }
}

/** Several expanders' answers merged without duplicates (restmapper.UnionCategoryExpander). */
export class UnionCategoryExpander implements CategoryExpander {
  constructor(readonly expanders: readonly CategoryExpander[]) {}

  async expand(category: string): Promise<{ resources: GroupResource[]; found: boolean }> {
    const resources: GroupResource[] = [];
    let found = false;
    for (const e of this.expanders) {
      const curr = await e.expand(category);
      for (const gr of curr.resources) if (!resources.some((x) => x.group === gr.group && x.resource === gr.resource)) resources.push(gr);
      found = found || curr.found;
    }
    return { resources, found };
  }
}
