import type { RequestInfo } from '../../apimachinery/request/types.js';

/**
 * Whether a request may stay open indefinitely (kube's LongRunningRequestCheck). Long-running
 * requests are exempt from the request timeout, the max-in-flight limits and the shutdown
 * drain of in-flight requests; shutdown ends them instead.
 */
export type LongRunningRequestCheck = (info: RequestInfo) => boolean;

/**
 * BasicLongRunningRequestCheck: the given verbs, the given subresources of resource requests,
 * and /debug/pprof/ paths.
 */
export function basicLongRunningRequestCheck(verbs: Iterable<string>, subresources: Iterable<string>): LongRunningRequestCheck {
  const v = new Set(verbs);
  const s = new Set(subresources);
  return (info) => {
    if (v.has(info.verb)) return true;
    if (info.isResourceRequest && s.has(info.subresource)) return true;
    return !info.isResourceRequest && info.path.startsWith('/debug/pprof/');
  };
}

/** kube-apiserver's: watch and proxy verbs; attach, exec, proxy, log, portforward subresources. */
export const defaultLongRunningRequestCheck: LongRunningRequestCheck = basicLongRunningRequestCheck(['watch', 'proxy'], ['attach', 'exec', 'proxy', 'log', 'portforward']);
