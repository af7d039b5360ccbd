/**
 * SMD's set matchers (set.go): patterns shaped like a Set, with wildcards,
 * that select the paths of a Set (Set.filterIncludeMatches, include filters).
 */
import { comparePathElements, type PathElement } from './element.js';
import { pathPartElement, type PathPart } from './path.js';

/** Matches one path element: any (wildcard) or an equal one. */
export type PathElementMatcher = { readonly wildcard: true } | { readonly wildcard: false; readonly pathElement: PathElement };

/** Matches a member of a Set by `path`, its children by `child`. */
export interface SetMemberMatcher {
  readonly path: PathElementMatcher;
  readonly child: SetMatcher;
}

/** PathElementMatcher.Compare: wildcards first, then by path element. */
export function comparePathElementMatchers(a: PathElementMatcher, b: PathElementMatcher): number {
  if (a.wildcard) return b.wildcard ? 0 : -1;
  if (b.wildcard) return 1;
  return comparePathElements(a.pathElement, b.pathElement);
}

export class SetMatcher {
  /** Members sorted, wildcards first; when `wildcard`, everything matches and members are ignored. */
  readonly members: readonly SetMemberMatcher[];

  /** NewSetMatcher. */
  constructor(
    readonly wildcard: boolean,
    members: readonly SetMemberMatcher[] = [],
  ) {
    this.members = members.slice().sort((x, y) => comparePathElementMatchers(x.path, y.path));
  }

  /**
   * Merge: matches what either matches; members with the same path merge
   * their children.
   */
  merge(s2: SetMatcher): SetMatcher {
    if (this.wildcard || s2.wildcard) return new SetMatcher(true);
    const merged = this.members.slice();
    for (const m of s2.members) {
      const at = m.path.wildcard ? -1 : merged.findIndex((x) => !x.path.wildcard && comparePathElementMatchers(x.path, m.path) === 0);
      if (at >= 0) merged[at] = { path: merged[at]!.path, child: merged[at]!.child.merge(m.child) };
      else merged.push(m);
    }
    return new SetMatcher(false, merged);
  }
}

/** MatchAnyPathElement. */
export function matchAnyPathElement(): PathElementMatcher {
  return { wildcard: true };
}

/** MatchAnySet. */
export function matchAnySet(): SetMatcher {
  return new SetMatcher(true);
}

/** A part of a prefix matcher: a path part or a PathElementMatcher. */
export type MatcherPart = PathPart | PathElementMatcher;

function isElementMatcher(part: MatcherPart): part is PathElementMatcher {
  return typeof part === 'object' && part !== null && !Array.isArray(part) && 'wildcard' in part;
}

/**
 * PrefixMatcher / MakePrefixMatcherOrDie: matches every path that starts
 * with the given parts (field names, indices, keys, values, path elements,
 * or path element matchers such as matchAnyPathElement()). Throws on a part
 * that is none of those.
 */
export function makePrefixMatcher(...parts: MatcherPart[]): SetMatcher {
  let current = matchAnySet();
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    const path: PathElementMatcher = isElementMatcher(part) ? part : { wildcard: false, pathElement: pathPartElement(part) };
    current = new SetMatcher(false, [{ path, child: current }]);
  }
  return current;
}
