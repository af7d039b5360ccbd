// Discovery as the recorded kube-apiserver answers it. `/apis` with aggregated discovery's Accept
// gets the recorded APIGroupDiscoveryList byte for byte; `/api` and `/api/v1` get their recorded
// legacy documents. Plain-JSON `/apis`, `/apis/<group>` and `/apis/<group>/<version>` (the legacy
// documents kube builds from the same resource lists) are derived from the aggregated recording as
// kube-apiserver derives both from one list: preferred version first, subresources as
// `<resource>/<subresource>`. kube 1.32 also serves `/api` aggregated; that document was not
// recorded, so it is derived from the recorded `/api/v1` as kube's aggregated discovery converts a
// group version's resource list (subresources under their resource, `responseKind` from the
// resource's kind). Without `coreAggregated`, `/api` answers its legacy APIVersions to every
// Accept, as a server without aggregated discovery for the core group does.
import type { RecordedDiscovery } from './recorded.js';

export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export interface DiscoveryAnswer {
  readonly code: number;
  readonly contentType: string;
  readonly body: string;
}

interface GVK {
  group: string;
  version: string;
  kind: string;
}
interface AggregatedResource {
  resource: string;
  responseKind: GVK;
  scope: string;
  singularResource: string;
  shortNames?: string[];
  categories?: string[];
  verbs: string[];
  subresources?: { subresource: string; responseKind: GVK; verbs: string[] }[];
}
interface AggregatedGroup {
  metadata: { name: string };
  versions: { version: string; resources: AggregatedResource[] }[];
}

/**
 * Whether an Accept header asks for aggregated discovery v2 (its media type with
 * g=apidiscovery.k8s.io, v=v2, as=APIGroupDiscoveryList, in any order of parameters).
 */
export function acceptsAggregatedV2(accept: string | undefined): boolean {
  for (const range of (accept ?? '').split(',')) {
    const [type, ...params] = range.split(';').map((p) => p.trim());
    if (type !== 'application/json') continue;
    const p = new Map(params.map((kv) => kv.split('=') as [string, string]));
    if (p.get('g') === 'apidiscovery.k8s.io' && p.get('v') === 'v2' && p.get('as') === 'APIGroupDiscoveryList') return true;
  }
  return false;
}

export class ReplayDiscovery {
  private readonly groups: AggregatedGroup[];

  constructor(
    private readonly recorded: RecordedDiscovery,
    private readonly coreAggregated: boolean,
  ) {
    this.groups = (JSON.parse(recorded.aggregated) as { items: AggregatedGroup[] }).items;
  }

  /** The answer to a GET of a discovery path, or undefined when the path is not discovery's. */
  answer(path: string, accept: string | undefined): DiscoveryAnswer | undefined {
    const json = (body: unknown): DiscoveryAnswer => ({ code: 200, contentType: 'application/json', body: typeof body === 'string' ? body : JSON.stringify(body) });
    if (path === '/api') {
      if (this.coreAggregated && acceptsAggregatedV2(accept)) return { code: 200, contentType: AGGREGATED_V2, body: JSON.stringify(coreDiscovery(this.recorded.coreV1)) };
      return json(this.recorded.apiVersions);
    }
    if (path === '/api/v1') return json(this.recorded.coreV1);
    if (path === '/apis') {
      if (acceptsAggregatedV2(accept)) return { code: 200, contentType: AGGREGATED_V2, body: this.recorded.aggregated };
      return json({ kind: 'APIGroupList', apiVersion: 'v1', groups: this.groups.map((g) => apiGroup(g)) });
    }
    const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    if (m === null) return undefined;
    const group = this.groups.find((g) => g.metadata.name === m[1]);
    if (group === undefined) return undefined;
    if (m[2] === undefined) return json({ kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) });
    const version = group.versions.find((v) => v.version === m[2]);
    if (version === undefined) return undefined;
    const groupVersion = `${group.metadata.name}/${version.version}`;
    return json({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: version.resources.flatMap((r) => legacyResources(r)) });
  }
}

interface LegacyResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

/** The core group's APIGroupDiscoveryList from its legacy resource list (apiserver's discovery/aggregated conversion). */
function coreDiscovery(coreV1: string): object {
  const legacy = (JSON.parse(coreV1) as { resources: LegacyResource[] }).resources;
  const resources = legacy
    .filter((r) => !r.name.includes('/'))
    .map((r) => {
      const out: Record<string, unknown> = {
        resource: r.name,
        responseKind: { group: '', version: '', kind: r.kind },
        scope: r.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: r.singularName,
      };
      if (r.shortNames) out['shortNames'] = r.shortNames;
      if (r.categories) out['categories'] = r.categories;
      out['verbs'] = r.verbs;
      const subs = legacy
        .filter((s) => s.name.startsWith(`${r.name}/`))
        .map((s) => ({ subresource: s.name.slice(r.name.length + 1), responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind }, verbs: s.verbs }));
      if (subs.length > 0) out['subresources'] = subs;
      return out;
    });
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [{ metadata: { creationTimestamp: null }, versions: [{ version: 'v1', resources, freshness: 'Current' }] }],
  };
}

function apiGroup(g: AggregatedGroup): object {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.metadata.name}/${v.version}`, version: v.version }));
  return { name: g.metadata.name, versions, preferredVersion: versions[0] };
}

/** One aggregated resource as the legacy APIResourceList lists it: itself, then each subresource. */
function legacyResources(r: AggregatedResource): object[] {
  const main: Record<string, unknown> = {};
  main['name'] = r.resource;
  main['singularName'] = r.singularResource;
  main['namespaced'] = r.scope === 'Namespaced';
  main['kind'] = r.responseKind.kind;
  main['verbs'] = r.verbs;
  if (r.shortNames) main['shortNames'] = r.shortNames;
  if (r.categories) main['categories'] = r.categories;
  const subs = (r.subresources ?? []).map((s) => {
    const sub: Record<string, unknown> = { name: `${r.resource}/${s.subresource}`, singularName: '', namespaced: main['namespaced'] };
    if (s.responseKind.group !== '') sub['group'] = s.responseKind.group;
    if (s.responseKind.version !== '') sub['version'] = s.responseKind.version;
    sub['kind'] = s.responseKind.kind;
    sub['verbs'] = s.verbs;
    return sub;
  });
  return [main, ...subs];
}
