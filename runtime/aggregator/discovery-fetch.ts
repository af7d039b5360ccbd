import { parseMediaType } from '../apimachinery/serializer/mediatype.js';
import type { ResourceDescription } from '../server/discovery/index.js';
import { decodeJSON, headerValue, unexpectedStatus, type BackendGetter } from './discovery-backend.js';
import { fromAggregatedDiscovery, fromAPIResourceList } from './discovery-convert.js';

/** client-go's Accept for discovery: aggregated v2, then v2beta1, then the legacy document. */
export const AGGREGATED_DISCOVERY_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

/** kube's limit on one discovery download from a backend. */
export const DISCOVERY_TIMEOUT_MS = 5_000;

/**
 * What one backend (one Service port) last told us, by group version (`<group>/<version>`).
 * `etag` is its aggregated document's, sent back as If-None-Match; legacy documents keep their
 * own. Immutable: each fetch makes a new value.
 */
export interface ServiceDiscovery {
  readonly format: 'aggregated' | 'legacy';
  readonly etag?: string;
  readonly groupVersions: ReadonlyMap<string, readonly ResourceDescription[]>;
  readonly legacyETags: ReadonlyMap<string, string>;
}

export interface FetchDiscoveryOptions {
  /** Asks the backend (as the aggregator, with a time limit: kube's is DISCOVERY_TIMEOUT_MS). */
  readonly get: BackendGetter;
  /** The group version the APIService names; what the legacy fallback asks for. */
  readonly group: string;
  readonly version: string;
  /** The last good answer of this backend, if any. */
  readonly cached?: ServiceDiscovery;
}

/**
 * Fetches a backend's discovery as kube-aggregator does: `GET /apis` asking for the aggregated
 * document with the cached ETag (304 keeps the cached groups); an aggregated answer (by its
 * Content-Type) describes every group version of the backend; a legacy or 404/406 answer falls
 * back to `GET /apis/<group>/<version>` (`/api/<version>` for the core group) for the one group
 * version asked. Rejects when the backend cannot be reached or answers anything else.
 */
export async function fetchServiceDiscovery(o: FetchDiscoveryOptions): Promise<ServiceDiscovery> {
  const get = o.get;
  const cached = o.cached;
  const root = o.group === '' ? '/api' : '/apis';
  const conditional: Record<string, string> = cached?.format === 'aggregated' && cached.etag !== undefined ? { 'If-None-Match': cached.etag } : {};
  const res = await get(root, { Accept: AGGREGATED_DISCOVERY_ACCEPT, ...conditional });
  if (res.status === 304 && cached?.format === 'aggregated') return cached;
  if (res.status === 200 && isAggregated(res.headers['content-type'])) {
    const etag = headerValue(res, 'etag');
    return {
      format: 'aggregated',
      ...(etag !== undefined ? { etag } : {}),
      groupVersions: fromAggregatedDiscovery(decodeJSON(res, `GET ${root}`)),
      legacyETags: new Map(),
    };
  }
  if (res.status !== 200 && res.status !== 404 && res.status !== 406) throw unexpectedStatus(root, res);
  return fetchLegacy(o);
}

async function fetchLegacy(o: FetchDiscoveryOptions): Promise<ServiceDiscovery> {
  const key = `${o.group}/${o.version}`;
  const path = o.group === '' ? `/api/${o.version}` : `/apis/${o.group}/${o.version}`;
  const previous = o.cached?.format === 'legacy' ? o.cached : undefined;
  const etag = previous?.legacyETags.get(key);
  const res = await o.get(path, { Accept: 'application/json', ...(etag !== undefined ? { 'If-None-Match': etag } : {}) });
  const groupVersions = new Map(previous?.groupVersions);
  const legacyETags = new Map(previous?.legacyETags);
  if (res.status === 304 && previous?.groupVersions.has(key) === true) return previous;
  if (res.status !== 200) throw unexpectedStatus(path, res);
  groupVersions.set(key, fromAPIResourceList(o.group, o.version, decodeJSON(res, `GET ${path}`)));
  const newETag = headerValue(res, 'etag');
  if (newETag !== undefined) legacyETags.set(key, newETag);
  else legacyETags.delete(key);
  return { format: 'legacy', groupVersions, legacyETags };
}

/** Whether the answer is an aggregated discovery document (client-go's ContentTypeIsGVK, v2 or v2beta1). */
function isAggregated(contentType: string | undefined): boolean {
  const mt = contentType === undefined ? undefined : parseMediaType(contentType);
  if (mt === undefined || mt.type !== 'application' || mt.subtype !== 'json') return false;
  const p = mt.params;
  return p['g'] === 'apidiscovery.k8s.io' && p['as'] === 'APIGroupDiscoveryList' && (p['v'] === 'v2' || p['v'] === 'v2beta1');
}
