/**
 * fieldpath.Set: a set of field paths stored as a tree. At each level,
 * `members` are the paths that end here and `children` the subsets of
 * paths that go deeper; being a child does not make an element a member.
 * Operations return new sets that may share unchanged subtrees with their
 * inputs (as SMD's do), so a set is not modified after it has been combined
 * with another unless it was copied.
 */
import { comparePathElements, type PathElement } from './element.js';
import type { SetMatcher } from './matcher.js';
import { pathString, type Path } from './path.js';
import { PathElementSet, searchSorted } from './pathelementset.js';
import { findField, type SchemaLike } from './schemalike.js';
import { readFieldsV1, readFieldsV1JSON, writeFieldsV1, writeFieldsV1JSON } from './serialize.js';
import { combine, countMembers, filterMatches, isEmpty, mapTopDown, setsEqual, walkPaths, type BinaryRules, type Level, type MakeSet } from './set-walk.js';

/** One child of a SetNodeMap: a path element and the subset below it. */
export interface SetNode {
  readonly pathElement: PathElement;
  readonly set: Set;
}

const nodeElement = (n: SetNode): PathElement => n.pathElement;

/** The parts Set.of hands to the constructor: one constructor, so every set has the same shape. */
let pendingMembers: PathElementSet | undefined;
let pendingChildren: SetNodeMap | undefined;

const makeSet: MakeSet = (members, children) => Set.of(members, new SetNodeMap(children));

const UNION: BinaryRules = { members: (a, b) => a.union(b), onlyA: () => true, keepOnlyB: true, both: () => true, dropEmpty: false };
const INTERSECTION: BinaryRules = { members: (a, b) => a.intersection(b), onlyA: () => false, keepOnlyB: false, both: () => true, dropEmpty: true };
const DIFFERENCE: BinaryRules = { members: (a, b) => a.difference(b), onlyA: () => true, keepOnlyB: false, both: () => true, dropEmpty: true };
/** A member of b removes a's child of that name whole. */
const RECURSIVE_DIFFERENCE: BinaryRules = {
  members: (a, b) => a.difference(b),
  onlyA: (pe, b) => !b.members.has(pe),
  keepOnlyB: false,
  both: (pe, b) => !b.members.has(pe),
  dropEmpty: true,
};

/** The children of a level as top-down tasks that keep their subsets. */
const childTasks = (s: Set): Array<[PathElement, Set]> => s.children.members.map((n) => [n.pathElement, n.set]);

/** A set with the given children and no members of its own (to run SetNodeMap operations as Set ones). */
const parentOf = (children: SetNodeMap): Set => Set.of(new PathElementSet(), children);

export class Set {
  readonly members: PathElementSet;
  readonly children: SetNodeMap;

  /** NewSet. */
  constructor(...paths: Path[]) {
    this.members = pendingMembers ?? new PathElementSet();
    this.children = pendingChildren ?? new SetNodeMap();
    pendingMembers = undefined;
    pendingChildren = undefined;
    for (const p of paths) this.insert(p);
  }

  /** A set of the given parts (taken, not copied). */
  static of(members: PathElementSet, children: SetNodeMap): Set {
    pendingMembers = members;
    pendingChildren = children;
    return new Set();
  }

  /** FromJSON of a decoded fieldsV1 object; throws on malformed input, as SMD's reader fails. */
  static fromFieldsV1(v: unknown): Set {
    return readFieldsV1(v, makeSet);
  }

  /**
   * FromJSON of fieldsV1 text: one JSON object (or null), surrounding
   * whitespace allowed; syntax errors worded as Go's decoder words them.
   */
  static fromJSON(text: string | Uint8Array): Set {
    return readFieldsV1JSON(text, makeSet);
  }

  /** A copy of the whole tree (path elements are immutable and shared). */
  copy(): Set {
    return mapTopDown(this as Set, (s) => ({ members: s.members.copy(), children: childTasks(s) }), makeSet);
  }

  /** Insert: parents of `p` do not become members; the empty path (the whole object) is not tracked. */
  insert(p: Path): void {
    if (p.length === 0) return;
    let { members, children } = this as Set;
    for (let i = 0; i < p.length - 1; i++) ({ members, children } = children.descend(p[i]!));
    members.insert(p[p.length - 1]!);
  }

  has(p: Path): boolean {
    if (p.length === 0) return false;
    let { members, children } = this as Set;
    for (let i = 0; i < p.length - 1; i++) {
      const child = children.get(p[i]!);
      if (child === undefined) return false;
      ({ members, children } = child);
    }
    return members.has(p[p.length - 1]!);
  }

  union(s2: Set): Set {
    return combine(this, s2, UNION, makeSet);
  }

  /** Leaf elements in both. */
  intersection(s2: Set): Set {
    return combine(this, s2, INTERSECTION, makeSet);
  }

  /** Members of this not in s2; a parent minus a child stays, a child minus its parent goes. */
  difference(s2: Set): Set {
    return combine(this, s2, DIFFERENCE, makeSet);
  }

  /** Like difference, but a member of s2 also removes everything below it. */
  recursiveDifference(s2: Set): Set {
    return combine(this, s2, RECURSIVE_DIFFERENCE, makeSet);
  }

  /**
   * This set plus the struct fields (not map keys) that are parents of its
   * members, per the schema; `tr` undefined (or unresolved) adds nothing at that level.
   */
  ensureNamedFieldsAreMembers<TR>(schema: SchemaLike<TR>, tr: TR | undefined): Set {
    const level = ([s, t]: readonly [Set, TR | undefined]): Level<readonly [Set, TR | undefined]> => {
      const atom = t === undefined ? undefined : schema.resolve(t);
      const members = new PathElementSet(s.members.members.slice());
      const children = s.children.members.map((node): [PathElement, readonly [Set, TR | undefined]] => {
        const pe = node.pathElement;
        let childType: TR | undefined;
        if ('fieldName' in pe && atom?.map) {
          const field = findField(schema, atom.map, pe.fieldName);
          if (field) members.insert(pe);
          childType = field ? field.type : atom.map.elementType;
        } else if ('key' in pe && atom?.list) childType = atom.list.elementType;
        return [pe, [node.set, childType]];
      });
      return { members, children };
    };
    return mapTopDown<readonly [Set, TR | undefined]>([this, tr], level, makeSet);
  }

  /** Only the paths the matcher matches. */
  filterIncludeMatches(pattern: SetMatcher): Set {
    return filterMatches(this, pattern, makeSet);
  }

  /** The number of members (of this set and every subset). */
  size(): number {
    return countMembers(this);
  }

  empty(): boolean {
    return isEmpty(this);
  }

  equals(s2: Set): boolean {
    return setsEqual(this, s2);
  }

  /** Calls f with every member path (a new array each time), members before children at each level. */
  iterate(f: (p: Path) => void): void {
    walkPaths(this, f);
  }

  *[Symbol.iterator](): IterableIterator<Path> {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    yield* out;
  }

  /** The subset below `pe` (without it), empty when there is none. */
  withPrefix(pe: PathElement): Set {
    return this.children.get(pe) ?? new Set();
  }

  /** Only the members that are not also parents of other members. */
  leaves(): Set {
    return mapTopDown(this as Set, (s) => ({ members: leafMembers(s), children: childTasks(s) }), makeSet);
  }

  /** One path per line. */
  toString(): string {
    const lines: string[] = [];
    this.iterate((p) => lines.push(pathString(p)));
    return lines.join('\n');
  }

  /** The fieldsV1 object kube stores: keys in SMD's order, `"."` first where an element is both member and parent. */
  toFieldsV1(): Record<string, unknown> {
    return writeFieldsV1(this);
  }

  /** SMD's ToJSON text of the set. */
  toJSON(): string {
    return writeFieldsV1JSON(this);
  }
}

/** The members of one level that are not also children (a sorted merge of the two lists). */
function leafMembers(s: Set): PathElementSet {
  const leaves: PathElement[] = [];
  const children = s.children.members;
  let ic = 0;
  for (const member of s.members.members) {
    let c = 1;
    while (ic < children.length && (c = comparePathElements(member, children[ic]!.pathElement)) > 0) ic++;
    if (ic < children.length && c === 0) ic++;
    else leaves.push(member);
  }
  return new PathElementSet(leaves);
}

/** SetNodeMap: the children of a Set, sorted by path element. */
export class SetNodeMap {
  /** Sorted by path element; read it, never modify it. */
  readonly members: SetNode[];

  constructor(sorted: SetNode[] = []) {
    this.members = sorted;
  }

  copy(): SetNodeMap {
    return parentOf(this).copy().children;
  }

  /** The subset for `pe`, added empty first when there is none. */
  descend(pe: PathElement): Set {
    const at = searchSorted(this.members, pe, nodeElement);
    if (at >= 0) return this.members[at]!.set;
    const set = new Set();
    this.members.splice(~at, 0, { pathElement: pe, set });
    return set;
  }

  get(pe: PathElement): Set | undefined {
    const at = searchSorted(this.members, pe, nodeElement);
    return at >= 0 ? this.members[at]!.set : undefined;
  }

  /** The members of all subsets. */
  size(): number {
    return countMembers(parentOf(this));
  }

  empty(): boolean {
    return isEmpty(parentOf(this));
  }

  equals(s2: SetNodeMap): boolean {
    return setsEqual(parentOf(this), parentOf(s2));
  }

  union(s2: SetNodeMap): SetNodeMap {
    return parentOf(this).union(parentOf(s2)).children;
  }

  intersection(s2: SetNodeMap): SetNodeMap {
    return parentOf(this).intersection(parentOf(s2)).children;
  }

  /** The children of this minus those of s2 (a Set, as SMD's takes). */
  difference(s2: Set): SetNodeMap {
    return parentOf(this).difference(s2).children;
  }

  /** As difference, also dropping every child that is a member of s2. */
  recursiveDifference(s2: Set): SetNodeMap {
    return parentOf(this).recursiveDifference(s2).children;
  }

  ensureNamedFieldsAreMembers<TR>(schema: SchemaLike<TR>, tr: TR | undefined): SetNodeMap {
    return parentOf(this).ensureNamedFieldsAreMembers(schema, tr).children;
  }

  filterIncludeMatches(pattern: SetMatcher): SetNodeMap {
    return parentOf(this).filterIncludeMatches(pattern).children;
  }

  iterate(f: (pe: PathElement) => void): void {
    for (const n of this.members) f(n.pathElement);
  }

  leaves(): SetNodeMap {
    return parentOf(this).leaves().children;
  }
}
