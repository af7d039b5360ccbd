import { sliceStringToBool } from '../../apimachinery/conversion/querybool.js';
import { newBadRequest } from '../../apimachinery/errors/index.js';

/**
 * Query parameter conversions as kube's parameter codec does them (runtime.Convert_Slice_string_To_*):
 * the first value counts; a malformed number is a 400 with strconv's wording.
 */

/** A boolean parameter (Convert_Slice_string_To_bool); undefined when absent. */
export function queryBool(query: URLSearchParams, key: string): boolean | undefined {
  return sliceStringToBool(query.getAll(key));
}

/** strconv.ParseInt(v, 10, 64). */
export function queryInt(query: URLSearchParams, key: string): number | undefined {
  const v = query.get(key);
  if (v === null) return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n > 9223372036854775807n || n < -9223372036854775808n) throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return Number(n);
}

export function queryString(query: URLSearchParams, key: string): string {
  return query.get(key) ?? '';
}

/** Repeated parameters (`dryRun=All&dryRun=All`). */
export function queryStrings(query: URLSearchParams, key: string): string[] {
  return query.getAll(key);
}
