/**
 * The tree walks behind Set's operations, written with explicit stacks:
 * a set is as deep as the object it describes, and recursion would exhaust
 * the call stack long before the decoder's nesting limit. set.ts hands in
 * its constructor (`MakeSet`) so this file needs Set only as a type.
 */
import { comparePathElements, pathElementEquals, type PathElement } from './element.js';
import type { SetMatcher } from './matcher.js';
import { PathElementSet } from './pathelementset.js';
import type { Set, SetNode } from './set.js';

export type MakeSet = (members: PathElementSet, children: SetNode[]) => Set;

/** A built subset and whether it has no members anywhere. */
export interface Built {
  readonly set: Set;
  readonly empty: boolean;
}

/**
 * Post-order evaluation over a tree of tasks: `expand` returns a task's
 * subtasks, `combine` builds its result from theirs (in the same order).
 */
export function postOrder<T, R>(root: T, expand: (t: T) => readonly T[], combine: (t: T, results: readonly R[]) => R): R {
  const stack: Array<{ t: T; subtasks: readonly T[]; results: R[] }> = [{ t: root, subtasks: expand(root), results: [] }];
  for (;;) {
    const top = stack[stack.length - 1]!;
    if (top.results.length < top.subtasks.length) {
      const next = top.subtasks[top.results.length]!;
      stack.push({ t: next, subtasks: expand(next), results: [] });
      continue;
    }
    const r = combine(top.t, top.results);
    stack.pop();
    if (stack.length === 0) return r;
    stack[stack.length - 1]!.results.push(r);
  }
}

/** Whether a set has no members at any depth (stops at the first one). */
export function isEmpty(s: Set): boolean {
  const work: Set[] = [s];
  for (let x = work.pop(); x !== undefined; x = work.pop()) {
    if (x.members.size() > 0) return false;
    for (const n of x.children.members) work.push(n.set);
  }
  return true;
}

/** The number of members at every depth. */
export function countMembers(s: Set): number {
  let n = 0;
  const work: Set[] = [s];
  for (let x = work.pop(); x !== undefined; x = work.pop()) {
    n += x.members.size();
    for (const c of x.children.members) work.push(c.set);
  }
  return n;
}

/** Same members at every depth. */
export function setsEqual(a: Set, b: Set): boolean {
  const work: Array<[Set, Set]> = [[a, b]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [x, y] = item;
    if (x === y) continue;
    if (!x.members.equals(y.members)) return false;
    const xc = x.children.members;
    const yc = y.children.members;
    if (xc.length !== yc.length) return false;
    for (let i = 0; i < xc.length; i++) {
      if (!pathElementEquals(xc[i]!.pathElement, yc[i]!.pathElement)) return false;
      work.push([xc[i]!.set, yc[i]!.set]);
    }
  }
  return true;
}

/**
 * Top-down construction where each node of the result maps one node of
 * the input: `level` gives a node's members and its children, each with
 * the task for its subset.
 */
export function mapTopDown<T>(root: T, level: (t: T) => Level<T>, make: MakeSet): Set {
  const top = level(root);
  const topNodes: SetNode[] = [];
  const result = make(top.members, topNodes);
  const work: Array<[Level<T>['children'], SetNode[]]> = [[top.children, topNodes]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [children, nodes] = item;
    for (const [pe, t] of children) {
      const l = level(t);
      const sub: SetNode[] = [];
      nodes.push({ pathElement: pe, set: make(l.members, sub) });
      work.push([l.children, sub]);
    }
  }
  return result;
}

/** One level of a top-down construction: its members, and its children with their tasks. */
export interface Level<T> {
  readonly members: PathElementSet;
  readonly children: ReadonlyArray<readonly [PathElement, T]>;
}

/** Calls f with every member path, members before children at each level, children in order. */
export function walkPaths(s: Set, f: (p: readonly PathElement[]) => void): void {
  const prefix: PathElement[] = [];
  // Each frame: a set and the index of its next child; the prefix holds the elements down to it.
  const stack: Array<{ set: Set; next: number }> = [{ set: s, next: 0 }];
  for (const pe of s.members.members) f([pe]);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const children = top.set.children.members;
    if (top.next >= children.length) {
      stack.pop();
      prefix.pop();
      continue;
    }
    const node = children[top.next++]!;
    prefix.push(node.pathElement);
    for (const pe of node.set.members.members) f([...prefix, pe]);
    stack.push({ set: node.set, next: 0 });
  }
}

/** How a binary operation treats the members and the children of two sets. */
export interface BinaryRules {
  members(a: PathElementSet, b: PathElementSet): PathElementSet;
  /** A child only `a` has: kept as is, or dropped. */
  onlyA(pe: PathElement, b: Set): boolean;
  /** Whether a child only `b` has is kept as is. */
  readonly keepOnlyB: boolean;
  /** A child both have: combined, or dropped. */
  both(pe: PathElement, b: Set): boolean;
  /** Whether combined children that come out empty are left out. */
  readonly dropEmpty: boolean;
}

interface PairTask {
  readonly a: Set;
  readonly b: Set;
  /** The result's children: kept nodes, or the index of a subtask whose result goes there. */
  plan: Array<SetNode | [PathElement, number]>;
}

/** union, intersection, difference and recursive difference: one merge walk, the rules differ. */
export function combine(a: Set, b: Set, rules: BinaryRules, make: MakeSet): Set {
  const expand = (t: PairTask): PairTask[] => {
    const subtasks: PairTask[] = [];
    const x = t.a.children.members;
    const y = t.b.children.members;
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      const c = i >= x.length ? 1 : j >= y.length ? -1 : comparePathElements(x[i]!.pathElement, y[j]!.pathElement);
      if (c < 0) {
        const n = x[i++]!;
        if (rules.onlyA(n.pathElement, t.b)) t.plan.push(n);
      } else if (c > 0) {
        const n = y[j++]!;
        if (rules.keepOnlyB) t.plan.push(n);
      } else {
        const n = x[i++]!;
        const m = y[j++]!;
        if (rules.both(n.pathElement, t.b)) {
          t.plan.push([n.pathElement, subtasks.length]);
          subtasks.push({ a: n.set, b: m.set, plan: [] });
        }
      }
    }
    return subtasks;
  };
  const build = (t: PairTask, results: readonly Built[]): Built => {
    const members = rules.members(t.a.members, t.b.members);
    const nodes: SetNode[] = [];
    let empty = members.size() === 0;
    for (const p of t.plan) {
      if (!Array.isArray(p)) {
        nodes.push(p);
        if (empty && !isEmpty(p.set)) empty = false;
        continue;
      }
      const r = results[p[1]]!;
      if (r.empty && rules.dropEmpty) continue;
      nodes.push({ pathElement: p[0], set: r.set });
      empty &&= r.empty;
    }
    return { set: make(members, nodes), empty };
  };
  return postOrder<PairTask, Built>({ a, b, plan: [] }, expand, build).set;
}

interface MatchTask {
  readonly set: Set;
  readonly pattern: SetMatcher;
  readonly plan: Array<[PathElement, number]>;
}

/** The member matcher that takes `pe`: the first wildcard or equal one, as SMD picks it. */
function matcherFor(pattern: SetMatcher, pe: PathElement): SetMatcher | undefined {
  for (const pm of pattern.members) if (pm.path.wildcard || pathElementEquals(pm.path.pathElement, pe)) return pm.child;
  return undefined;
}

/** Set.filterIncludeMatches: members and children the pattern matches; children left empty go. */
export function filterMatches(s: Set, pattern: SetMatcher, make: MakeSet): Set {
  const expand = (t: MatchTask): MatchTask[] => {
    if (t.pattern.wildcard) return [];
    const subtasks: MatchTask[] = [];
    for (const node of t.set.children.members) {
      const child = matcherFor(t.pattern, node.pathElement);
      if (child === undefined) continue;
      t.plan.push([node.pathElement, subtasks.length]);
      subtasks.push({ set: node.set, pattern: child, plan: [] });
    }
    return subtasks;
  };
  const build = (t: MatchTask, results: readonly Built[]): Built => {
    if (t.pattern.wildcard) return { set: t.set, empty: isEmpty(t.set) };
    const members = t.set.members.members.filter((m) => matcherFor(t.pattern, m) !== undefined);
    const nodes: SetNode[] = [];
    for (const [pe, i] of t.plan) {
      const r = results[i]!;
      if (!r.empty) nodes.push({ pathElement: pe, set: r.set });
    }
    return { set: make(new PathElementSet(members), nodes), empty: members.length === 0 && nodes.length === 0 };
  };
  return postOrder<MatchTask, Built>({ set: s, pattern, plan: [] }, expand, build).set;
}
