import { filterSwaggerV2ByPathPrefix, groupVersionPath, openAPIGroupVersionKey, type SwaggerV2Document } from '../server/openapi/index.js';
import { decodeJSON, headerValue, unexpectedStatus, type BackendGetter } from './discovery-backend.js';

/** kube-aggregator's limit on one OpenAPI download. */
export const OPENAPI_TIMEOUT_MS = 60_000;

/** A backend's OpenAPI v3 document of one group version, as it sent it. */
export interface RemoteV3Document {
  readonly body: Buffer;
  /** The hash the backend's root advertised for it (`?hash=`), what tells a new version apart. */
  readonly hash: string;
  readonly etag?: string;
}

/** What a backend last gave for one APIService; undefined parts: the backend serves none. */
export interface RemoteOpenAPI {
  readonly v3?: RemoteV3Document;
  readonly v3RootETag?: string;
  /** The backend's /openapi/v2 reduced to the group version's paths and what they reference. */
  readonly v2?: SwaggerV2Document;
  readonly v2ETag?: string;
}

export interface FetchOpenAPIOptions {
  /** Asks the backend (as the aggregator, with a time limit: kube's is OPENAPI_TIMEOUT_MS). */
  readonly get: BackendGetter;
  readonly group: string;
  readonly version: string;
  readonly cached?: RemoteOpenAPI;
}

/**
 * Downloads the OpenAPI a backend serves for one group version, fetching only what changed:
 * the /openapi/v3 root with its ETag (304: nothing changed), then the group version's document
 * only when the root advertises a hash other than the cached one (with If-None-Match too);
 * /openapi/v2 with its ETag, filtered to `/apis/<group>/<version>/` as kube-aggregator does.
 * A 404 means the backend serves no such document. Rejects when a download fails; the caller
 * keeps what it had (kube's last-success cache), so one failing half does not lose the other.
 */
export async function fetchRemoteOpenAPI(o: FetchOpenAPIOptions): Promise<RemoteOpenAPI> {
  const get: BackendGetter = (path, headers) => o.get(path, { Accept: 'application/json', ...headers });
  const [v3, v2] = await Promise.allSettled([fetchV3(get, o), fetchV2(get, o)]);
  if (v3.status === 'rejected') throw v3.reason;
  if (v2.status === 'rejected') throw v2.reason;
  return { ...v3.value, ...v2.value };
}

async function fetchV3(get: BackendGetter, o: FetchOpenAPIOptions): Promise<Pick<RemoteOpenAPI, 'v3' | 'v3RootETag'>> {
  const cached = o.cached;
  const rootETag = cached?.v3RootETag;
  const root = await get('/openapi/v3', rootETag !== undefined ? { 'If-None-Match': rootETag } : {});
  if (root.status === 304 && cached !== undefined) return pick(cached.v3, cached.v3RootETag);
  if (root.status === 404) return {};
  if (root.status !== 200) throw unexpectedStatus('/openapi/v3', root);
  const newRootETag = headerValue(root, 'etag');
  const key = openAPIGroupVersionKey(o.group, o.version);
  const url = serverRelativeURLOf(decodeJSON(root, 'GET /openapi/v3'), key);
  if (url === undefined) return pick(undefined, newRootETag);
  const hash = new URL(url, 'https://backend').searchParams.get('hash') ?? '';
  const previous = cached?.v3;
  if (previous !== undefined && hash !== '' && previous.hash === hash) return pick(previous, newRootETag);
  const res = await get(url, previous?.etag !== undefined ? { 'If-None-Match': previous.etag } : {});
  if (res.status === 304 && previous !== undefined) return pick({ ...previous, hash }, newRootETag);
  if (res.status === 404) return pick(undefined, newRootETag);
  if (res.status !== 200) throw unexpectedStatus(url, res);
  decodeJSON(res, `GET ${url}`);
  const etag = headerValue(res, 'etag');
  return pick({ body: res.body, hash, ...(etag !== undefined ? { etag } : {}) }, newRootETag);
}

async function fetchV2(get: BackendGetter, o: FetchOpenAPIOptions): Promise<Pick<RemoteOpenAPI, 'v2' | 'v2ETag'>> {
  const cached = o.cached;
  const res = await get('/openapi/v2', cached?.v2ETag !== undefined ? { 'If-None-Match': cached.v2ETag } : {});
  if (res.status === 304 && cached !== undefined) return { ...(cached.v2 !== undefined ? { v2: cached.v2 } : {}), ...(cached.v2ETag !== undefined ? { v2ETag: cached.v2ETag } : {}) };
  if (res.status === 404) return {};
  if (res.status !== 200) throw unexpectedStatus('/openapi/v2', res);
  const doc = decodeJSON(res, 'GET /openapi/v2');
  if (!isSwaggerV2(doc)) throw new Error('GET /openapi/v2: not a Swagger 2.0 document (no paths)');
  const etag = headerValue(res, 'etag');
  return { v2: filterSwaggerV2ByPathPrefix(doc, `${groupVersionPath(o.group, o.version)}/`), ...(etag !== undefined ? { v2ETag: etag } : {}) };
}

function pick(v3: RemoteV3Document | undefined, v3RootETag: string | undefined): Pick<RemoteOpenAPI, 'v3' | 'v3RootETag'> {
  return { ...(v3 !== undefined ? { v3 } : {}), ...(v3RootETag !== undefined ? { v3RootETag } : {}) };
}

/** The root's `paths[key].serverRelativeURL`, or undefined when the root does not list the key. */
function serverRelativeURLOf(root: unknown, key: string): string | undefined {
  const paths = typeof root === 'object' && root !== null ? (root as Record<string, unknown>)['paths'] : undefined;
  if (typeof paths !== 'object' || paths === null) throw new Error('GET /openapi/v3: no paths in the root');
  const entry = (paths as Record<string, unknown>)[key];
  const url = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)['serverRelativeURL'] : undefined;
  if (entry === undefined) return undefined;
  // Older servers list keys without URLs: the document is at its key.
  return typeof url === 'string' && url.startsWith('/') ? url : `/openapi/v3/${key}`;
}

function isSwaggerV2(doc: unknown): doc is SwaggerV2Document {
  if (typeof doc !== 'object' || doc === null) return false;
  const paths = (doc as Record<string, unknown>)['paths'];
  return typeof paths === 'object' && paths !== null && !Array.isArray(paths);
}
