import { endpointURL, requestBackend } from '../backend-client.js';
import { messageOf } from '../errors.js';
import type { ResolvedEndpoint } from '../service-resolver.js';
import type { BackendTransport } from '../transport.js';

/** kube checks at most this many addresses at once. */
const MAX_ATTEMPTS = 5;

export interface DiscoveryCheckOptions {
  /** The path every aggregated server must serve: `/apis/<group>/<version>` (`/api/v1` for `v1.`). */
  readonly path: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * The discovery check of the availability controller: GET `path` on up to five of the
 * endpoints at once, as system:kube-aggregator (system:masters, so authorization cannot fail
 * it) over the APIService's transport (front-proxy certificate, caBundle). One answer in the
 * 2xx or 3xx range (redirects are not followed) passes; otherwise resolves with the last error,
 * worded as kube's: `failing or missing response from <url>: …`.
 */
export async function discoveryCheck(transport: BackendTransport, endpoints: readonly ResolvedEndpoint[], o: DiscoveryCheckOptions): Promise<string | undefined> {
  const attempts = endpoints.slice(0, MAX_ATTEMPTS).map(async (endpoint) => {
    const url = endpointURL(endpoint, o.path);
    try {
      const res = await requestBackend(transport, endpoint, { path: o.path, timeoutMs: o.timeoutMs, ...(o.signal !== undefined ? { signal: o.signal } : {}) });
      if (res.status < 200 || res.status >= 400) return `failing or missing response from ${url}: bad status from ${url}: ${res.status}`;
      return undefined;
    } catch (err) {
      return `failing or missing response from ${url}: ${messageOf(err)}`;
    }
  });
  const results = await Promise.all(attempts);
  if (results.some((r) => r === undefined)) return undefined;
  return results.at(-1) ?? 'no endpoints to check';
}
