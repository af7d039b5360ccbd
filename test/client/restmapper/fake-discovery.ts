// A discovery client answering from fixed lists, as client-go's restmapper tests use
// (fakeDiscoveryClient / fakeCachedDiscoveryInterface): the code under test is the mapper.
import type { APIGroup, APIGroupList, APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { newNotFound } from '../../../runtime/apimachinery/errors/index.js';
import { serverGroupsAndResources, serverPreferredNamespacedResources, serverPreferredResources } from '../../../runtime/client/discovery/helpers.js';
import type { CachedDiscoveryInterface, GroupsAndResources, OpenAPIV3Client, VersionInfo } from '../../../runtime/client/discovery/index.js';

export class FakeDiscovery implements CachedDiscoveryInterface {
  invalidateCalls = 0;
  isFresh = true;
  /** Called by invalidate(), to change what the server has (a CRD installed meanwhile). */
  onInvalidate: (() => void) | undefined;

  constructor(
    public groups: APIGroup[],
    public lists: Map<string, APIResourceList>,
  ) {}

  serverGroups(): Promise<APIGroupList> {
    return Promise.resolve({ groups: this.groups });
  }

  serverResourcesForGroupVersion(gv: string): Promise<APIResourceList> {
    const l = this.lists.get(gv);
    return l === undefined ? Promise.reject(newNotFound({ group: '', resource: '' }, '')) : Promise.resolve(l);
  }

  serverGroupsAndResources(): Promise<GroupsAndResources> {
    return serverGroupsAndResources(this);
  }

  serverPreferredResources(): Promise<APIResourceList[]> {
    return serverPreferredResources(this);
  }

  serverPreferredNamespacedResources(): Promise<APIResourceList[]> {
    return serverPreferredNamespacedResources(this);
  }

  serverVersion(): Promise<VersionInfo> {
    return Promise.reject(new Error('not served'));
  }

  openAPIV3(): OpenAPIV3Client {
    return { paths: () => Promise.reject(new Error('not served')) };
  }

  fresh(): boolean {
    return this.isFresh;
  }

  invalidate(): void {
    this.invalidateCalls++;
    this.isFresh = true;
    this.onInvalidate?.();
  }
}

/** A discovery that only lists resources (the shortcut tests' serverResourcesHandler). */
export function listsOnly(lists: APIResourceList[]): FakeDiscovery {
  const d = new FakeDiscovery([], new Map());
  d.serverGroupsAndResources = () => Promise.resolve({ groups: [], resources: lists });
  return d;
}
