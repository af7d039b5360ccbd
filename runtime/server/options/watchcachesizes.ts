import { groupResourceString } from '../../apimachinery/errors/index.js';
import { atoi64, NumError } from '../../apimachinery/util/strconv.js';
import { OptionsError } from './flags.js';

/**
 * kube's --watch-cache-sizes (k8s.io/apiserver's ParseWatchCacheSizes): `resource[.group]#size`
 * entries, the resource up to the first dot and the group after it (schema.ParseGroupResource),
 * keyed by the GroupResource's string; a later entry for a resource wins. Errors are kube's.
 */
export function parseWatchCacheSizes(entries: readonly string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const entry of entries) {
    const tokens = entry.split('#');
    if (tokens.length !== 2) throw new OptionsError(`invalid value of watch cache size: ${entry}`);
    const size = sizeOf(tokens[1] as string);
    if (size === undefined) throw new OptionsError(`invalid size of watch cache size: ${entry}`);
    if (size < 0) throw new OptionsError(`watch cache size cannot be negative: ${entry}`);
    const gr = tokens[0] as string;
    const dot = gr.indexOf('.');
    sizes.set(groupResourceString(dot < 0 ? { group: '', resource: gr } : { group: gr.slice(dot + 1), resource: gr.slice(0, dot) }), size);
  }
  return sizes;
}

/**
 * The size by Go's strconv.Atoi; undefined when Atoi fails (kube replaces its error). Only the sign
 * and zero matter past here (any non-zero size enables the cache), so rounding sizes beyond 2^53
 * is harmless.
 */
function sizeOf(s: string): number | undefined {
  try {
    return Number(atoi64(s));
  } catch (e) {
    if (e instanceof NumError) return undefined;
    throw e;
  }
}
