import type { APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { isGroupDiscoveryFailedError } from '../discovery/errors.js';
import type { DiscoveryInterface } from '../discovery/types.js';
import { isNoMatchError } from './errors.js';
import { groupResourceString, parseGroupVersion, type GroupKind, type GroupResource, type GroupVersion, type GroupVersionKind, type GroupVersionResource } from './schema.js';
import type { RESTMapper, RESTMapping } from './types.js';

interface ResourceShortcut {
  readonly shortForm: GroupResource;
  readonly longForm: GroupResource;
}

/**
 * A mapper that expands short names found in discovery before asking its delegate
 * (restmapper.NewShortcutExpander): `cm` → `configmaps`. A full resource or singular name is
 * never expanded; among several resources with one short name the first in discovery order
 * wins and the warning handler hears about the others; a group given as a prefix
 * (`deploy.app`) matches too.
 */
export class ShortcutExpander implements RESTMapper {
  constructor(
    readonly delegate: RESTMapper,
    readonly discovery: DiscoveryInterface,
    readonly warningHandler?: (message: string) => void,
  ) {}

  async kindFor(resource: GroupVersionResource): Promise<GroupVersionKind> {
    try {
      return await this.delegate.kindFor(await this.expandResourceShortcut(resource));
    } catch (e) {
      // A deferred delegate has reset its discovery on the miss: a new short name may be known now.
      if (!isNoMatchError(e)) throw e;
      return this.delegate.kindFor(await this.expandResourceShortcut(resource));
    }
  }

  async kindsFor(resource: GroupVersionResource): Promise<GroupVersionKind[]> {
    return this.delegate.kindsFor(await this.expandResourceShortcut(resource));
  }

  async resourcesFor(resource: GroupVersionResource): Promise<GroupVersionResource[]> {
    return this.delegate.resourcesFor(await this.expandResourceShortcut(resource));
  }

  async resourceFor(resource: GroupVersionResource): Promise<GroupVersionResource> {
    return this.delegate.resourceFor(await this.expandResourceShortcut(resource));
  }

  async resourceSingularizer(resource: string): Promise<string> {
    return this.delegate.resourceSingularizer((await this.expandResourceShortcut({ group: '', version: '', resource })).resource);
  }

  restMapping(gk: GroupKind, ...versions: string[]): Promise<RESTMapping> {
    return this.delegate.restMapping(gk, ...versions);
  }

  restMappings(gk: GroupKind, ...versions: string[]): Promise<RESTMapping[]> {
    return this.delegate.restMappings(gk, ...versions);
  }

  reset(): void {
    this.delegate.reset?.();
  }

  /** The resource a short name stands for, or the input unchanged when it is not one. */
  async expandResourceShortcut(resource: GroupVersionResource): Promise<GroupVersionResource> {
    const { lists, shortcuts } = await this.shortcutMappings();
    for (const list of lists) {
      const gv = tryParse(list.groupVersion);
      if (gv === undefined) continue;
      if (resource.group !== '' && resource.group !== gv.group) continue;
      for (const r of list.resources) if (resource.resource === r.name || resource.resource === r.singularName) return resource;
    }
    let found: GroupResource | undefined;
    const warned = new Set<string>();
    for (const item of shortcuts) {
      if (resource.group !== '' && resource.group !== item.shortForm.group) continue;
      if (resource.resource !== item.shortForm.resource) continue;
      if (found === undefined) {
        found = item.longForm;
        continue;
      }
      // The same resource in several versions is not an ambiguity.
      if (item.longForm.group === found.group && item.longForm.resource === found.resource) continue;
      const long = groupResourceString(item.longForm);
      if (!warned.has(long)) {
        this.warningHandler?.(`short name ${JSON.stringify(resource.resource)} could also match lower priority resource ${long}`);
        warned.add(long);
      }
    }
    // As client-go, the expansion keeps no version: the delegate picks it.
    if (found !== undefined) return { group: found.group, version: '', resource: found.resource };
    if (resource.group === '') return resource;
    for (const item of shortcuts) {
      if (item.shortForm.group.startsWith(resource.group) && resource.resource === item.shortForm.resource) {
        return { ...resource, group: item.longForm.group, resource: item.longForm.resource };
      }
    }
    return resource;
  }

  /** Every short name in discovery order; a partial discovery is used as far as it goes. */
  private async shortcutMappings(): Promise<{ lists: APIResourceList[]; shortcuts: ResourceShortcut[] }> {
    let lists: APIResourceList[] = [];
    try {
      lists = (await this.discovery.serverGroupsAndResources()).resources;
    } catch (e) {
      if (isGroupDiscoveryFailedError(e) && e.partial !== undefined) lists = e.partial.resources;
    }
    const shortcuts: ResourceShortcut[] = [];
    for (const list of lists) {
      const gv = tryParse(list.groupVersion);
      if (gv === undefined) continue;
      for (const r of list.resources) {
        for (const short of r.shortNames ?? []) shortcuts.push({ shortForm: { group: gv.group, resource: short }, longForm: { group: gv.group, resource: r.name } });
      }
    }
    return { lists, shortcuts };
  }
}

function tryParse(gv: string): GroupVersion | undefined {
  try {
    return parseGroupVersion(gv);
  } catch {
    return undefined;
  }
}
