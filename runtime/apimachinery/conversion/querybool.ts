/**
 * runtime.Convert_Slice_string_To_bool, how kube's parameter codec reads a boolean query
 * parameter (watch, allowWatchBookmarks, sendInitialEvents, orphanDependents, force, …): the
 * first value counts, and only `0` and `false` (compared as Go's strings.EqualFold, so `FALSE`
 * and `falſe` too) are false. Anything else, `no`, `off` and the empty string included, is true.
 * `undefined` when the parameter is absent, which callers read as their own default.
 */
export function sliceStringToBool(values: readonly string[]): boolean | undefined {
  const first = values[0];
  if (first === undefined) return undefined;
  // EqualFold's folding orbits for f, a, l, s, e add only ſ (U+017F) to s; toUpperCase maps it
  // to S, and the length check keeps out characters that uppercase to more than one letter.
  return !(first === '0' || (first.length === 5 && first.toUpperCase() === 'FALSE'));
}
