import type { RESTClient } from '../types.js';
import type { OpenAPIV3Client, OpenAPIV3GroupVersion } from './types.js';

/**
 * The OpenAPI v3 root of a server (client-go's openapi.Client): `/openapi/v3` lists each
 * group version's document by key (`api/v1`, `apis/<group>/<version>`) with a URL carrying the
 * document's hash, which is what schema() fetches.
 */
export function openAPIV3Client(rest: RESTClient): OpenAPIV3Client {
  return {
    async paths(): Promise<Map<string, OpenAPIV3GroupVersion>> {
      const root = await rest.request<{ paths?: Record<string, { serverRelativeURL?: string }> }>({ method: 'GET', path: '/openapi/v3' });
      const out = new Map<string, OpenAPIV3GroupVersion>();
      for (const [key, entry] of Object.entries(root?.paths ?? {})) {
        const url = typeof entry?.serverRelativeURL === 'string' ? entry.serverRelativeURL : `/openapi/v3/${key}`;
        out.set(key, { serverRelativeURL: url, schema: () => fetchDocument(rest, url) });
      }
      return out;
    },
  };
}

function fetchDocument(rest: RESTClient, serverRelativeURL: string): Promise<unknown> {
  const u = new URL(serverRelativeURL, 'http://server.invalid');
  const query: Record<string, string> = {};
  for (const [k, v] of u.searchParams) query[k] = v;
  return rest.request<unknown>({ method: 'GET', path: u.pathname, query });
}
