import type { APIGroup, APIGroupList, APIResourceList, APIVersions } from '../../../apis/meta/v1/discovery.js';
import { isNotFound } from '../../apimachinery/errors/index.js';
import type { RESTClient, RESTRequest } from '../types.js';
import { ACCEPT_AGGREGATED, isAggregatedDocument, splitGroupsAndResources } from './aggregated.js';
import { serverGroupsAndResources, serverPreferredNamespacedResources, serverPreferredResources, withRetries } from './helpers.js';
import { openAPIV3Client } from './openapi.js';
import type { AggregatedDiscoveryInterface, GroupsAndMaybeResources, GroupsAndResources, OpenAPIV3Client, VersionInfo } from './types.js';

/** client-go retries a discovery that some group versions failed once more (defaultRetries). */
const DEFAULT_RETRIES = 2;

/**
 * The request discovery sends: a RESTRequest with the Accept header it negotiates with. A
 * transport that ignores `accept` (the fake) gets the legacy documents, the server's answer to
 * plain JSON, which this client reads as well.
 */
export type DiscoveryRequest = RESTRequest;

export interface DiscoveryClientOptions {
  /** Ask for the legacy documents only (DiscoveryClient.UseLegacyDiscovery, WithLegacy()). */
  readonly useLegacyDiscovery?: boolean;
  /** Where the core group is served; default `/api`. */
  readonly legacyPrefix?: string;
}

/**
 * The discovery client over a RESTClient (client-go's discovery.DiscoveryClient): aggregated
 * discovery first, one request each to /api and /apis, falling back to the legacy documents and
 * one request per group version when the server does not serve the aggregated form.
 */
export class DiscoveryClient implements AggregatedDiscoveryInterface {
  private readonly legacyPrefix: string;

  constructor(
    readonly rest: RESTClient,
    readonly options: DiscoveryClientOptions = {},
  ) {
    this.legacyPrefix = options.legacyPrefix ?? '/api';
  }

  /** The same client asking for the legacy documents only. */
  withLegacy(): DiscoveryClient {
    return new DiscoveryClient(this.rest, { ...this.options, useLegacyDiscovery: true });
  }

  async groupsAndMaybeResources(): Promise<GroupsAndMaybeResources> {
    const legacy = await this.downloadLegacy();
    const apis = await this.download('/apis');
    const groups: APIGroup[] = [...legacy.groups.groups, ...apis.groups.groups];
    let resources = legacy.resources;
    if (resources !== undefined && apis.resources !== undefined) for (const [gv, list] of apis.resources) resources.set(gv, list);
    else resources = undefined;
    const failed = new Map([...legacy.failed, ...apis.failed]);
    return { groups: { kind: 'APIGroupList', apiVersion: 'v1', groups }, resources, failed };
  }

  async serverGroups(): Promise<APIGroupList> {
    return (await this.groupsAndMaybeResources()).groups;
  }

  async serverResourcesForGroupVersion(groupVersion: string): Promise<APIResourceList> {
    if (groupVersion === '') throw new Error("groupVersion shouldn't be empty");
    const path = this.legacyPrefix !== '' && groupVersion === 'v1' ? `${this.legacyPrefix}/${groupVersion}` : `/apis/${groupVersion}`;
    try {
      const list = await this.rest.request<APIResourceList>({ method: 'GET', path });
      return { ...list, groupVersion: list.groupVersion || groupVersion, resources: list.resources ?? [] };
    } catch (e) {
      // A server without the core group (an aggregated server alone) answers 404 for /api/v1.
      if (groupVersion === 'v1' && isNotFound(e)) return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: [] };
      throw e;
    }
  }

  serverGroupsAndResources(): Promise<GroupsAndResources> {
    return withRetries(DEFAULT_RETRIES, () => serverGroupsAndResources(this));
  }

  serverPreferredResources(): Promise<APIResourceList[]> {
    return withRetries(DEFAULT_RETRIES, () => serverPreferredResources(this));
  }

  serverPreferredNamespacedResources(): Promise<APIResourceList[]> {
    return serverPreferredNamespacedResources(this);
  }

  async serverVersion(): Promise<VersionInfo> {
    const info = await this.rest.request<unknown>({ method: 'GET', path: '/version' });
    if (typeof info !== 'object' || info === null || Array.isArray(info)) throw new Error('unable to parse the server version: not a JSON object');
    return info as VersionInfo;
  }

  openAPIV3(): OpenAPIV3Client {
    return openAPIV3Client(this.rest);
  }

  private accept(): string {
    return this.options.useLegacyDiscovery === true ? 'application/json' : ACCEPT_AGGREGATED;
  }

  /** /api: the core group, or no group at all when the server has none (404). */
  private async downloadLegacy(): Promise<Omit<GroupsAndMaybeResources, 'groups'> & { groups: APIGroupList }> {
    try {
      return await this.download(this.legacyPrefix);
    } catch (e) {
      if (isNotFound(e)) return { groups: { groups: [] }, resources: new Map(), failed: new Map() };
      throw e;
    }
  }

  private async download(path: string): Promise<GroupsAndMaybeResources> {
    const req: DiscoveryRequest = { method: 'GET', path, accept: this.accept() };
    const body = await this.rest.request<unknown>(req);
    if (isAggregatedDocument(body)) return splitGroupsAndResources(body);
    if (path !== '/apis') return { groups: { kind: 'APIGroupList', apiVersion: 'v1', groups: coreGroup(body as APIVersions | undefined) }, resources: undefined, failed: new Map() };
    const list = (body ?? {}) as Partial<APIGroupList>;
    return { groups: { kind: 'APIGroupList', apiVersion: 'v1', groups: list.groups ?? [] }, resources: undefined, failed: new Map() };
  }
}

/** The core group as /api's APIVersions describes it (apiVersionsToAPIGroup); the empty group when it lists no version. */
function coreGroup(v: APIVersions | undefined): APIGroup[] {
  const versions = (v?.versions ?? []).map((version) => ({ groupVersion: version, version }));
  const preferred = versions[0];
  if (preferred === undefined) return [{ name: '', versions: [] }];
  return [{ name: '', versions, preferredVersion: preferred }];
}
