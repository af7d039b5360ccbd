/**
 * SMD's set filters (set.go): drop paths from a set, by an exclude set
 * (with everything below its members) or by include matchers.
 */
import type { APIVersion } from './managers.js';
import { matchAnySet, type SetMatcher } from './matcher.js';
import type { Set } from './set.js';

export interface Filter {
  /** A filtered copy of the set. */
  filter(s: Set): Set;
}

/** NewExcludeSetFilter: removes the paths of `exclude` and all their children. */
export function newExcludeSetFilter(exclude: Set): Filter {
  return { filter: (s) => s.recursiveDifference(exclude) };
}

/** NewExcludeFilterSetMap: an exclude filter per version. */
export function newExcludeFilterSetMap(resetFields: ReadonlyMap<APIVersion, Set>): Map<APIVersion, Filter> {
  const out = new Map<APIVersion, Filter>();
  for (const [version, set] of resetFields) out.set(version, newExcludeSetFilter(set));
  return out;
}

/** NewIncludeMatcherFilter: keeps only the paths one of the matchers matches (all paths with no matcher). */
export function newIncludeMatcherFilter(...matchers: SetMatcher[]): Filter {
  let matcher = matchers[0] ?? matchAnySet();
  for (let i = 1; i < matchers.length; i++) matcher = matcher.merge(matchers[i]!);
  return { filter: (s) => s.filterIncludeMatches(matcher) };
}
