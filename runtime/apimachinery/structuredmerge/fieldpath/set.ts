/**
 * fieldpath.Set: a set of field paths stored as a tree. At each level,
 * `members` are the paths that end here and `children` the subsets of
 * paths that go deeper; being a child does not make an element a member.
 * Operations return new sets that may share unchanged subtrees with their
 * inputs (as SMD's do), so a set is not modified after it has been combined
 * with another unless it was copied.
 */
import { comparePathElements, pathElementEquals, type PathElement } from './element.js';
import type { SetMatcher } from './matcher.js';
import { pathString, type Path } from './path.js';
import { PathElementSet, searchSorted } from './pathelementset.js';
import { findField, type SchemaLike } from './schemalike.js';
import { readFieldsV1, writeFieldsV1, writeFieldsV1JSON } from './serialize.js';

/** One child of a SetNodeMap: a path element and the subset below it. */
export interface SetNode {
  readonly pathElement: PathElement;
  readonly set: Set;
}

const nodeElement = (n: SetNode): PathElement => n.pathElement;

export class Set {
  readonly members: PathElementSet;
  readonly children: SetNodeMap;

  /** NewSet. */
  constructor(...paths: Path[]) {
    this.members = new PathElementSet();
    this.children = new SetNodeMap();
    for (const p of paths) this.insert(p);
  }

  /** A set of the given parts (taken, not copied). */
  static of(members: PathElementSet, children: SetNodeMap): Set {
    const s = new Set();
    (s as { members: PathElementSet }).members = members;
    (s as { children: SetNodeMap }).children = children;
    return s;
  }

  /** FromJSON of a decoded fieldsV1 object; throws on malformed input, as SMD's reader fails. */
  static fromFieldsV1(v: unknown): Set {
    return readFieldsV1(v, Set.of, (nodes) => new SetNodeMap(nodes));
  }

  copy(): Set {
    return Set.of(this.members.copy(), this.children.copy());
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
    return Set.of(this.members.union(s2.members), this.children.union(s2.children));
  }

  /** Leaf elements in both. */
  intersection(s2: Set): Set {
    return Set.of(this.members.intersection(s2.members), this.children.intersection(s2.children));
  }

  /** Members of this not in s2; a parent minus a child stays, a child minus its parent goes. */
  difference(s2: Set): Set {
    return Set.of(this.members.difference(s2.members), this.children.difference(s2));
  }

  /** Like difference, but a member of s2 also removes everything below it. */
  recursiveDifference(s2: Set): Set {
    return Set.of(this.members.difference(s2.members), this.children.recursiveDifference(s2));
  }

  /** This set plus the struct fields (not map keys) that are parents of its members, per the schema. */
  ensureNamedFieldsAreMembers<TR>(schema: SchemaLike<TR>, tr: TR | undefined): Set {
    const atom = tr === undefined ? undefined : schema.resolve(tr);
    const members = new PathElementSet(this.members.members.slice());
    const map = atom?.map;
    if (map) {
      for (const node of this.children.members) {
        const pe = node.pathElement;
        if ('fieldName' in pe && findField(schema, map, pe.fieldName)) members.insert(pe);
      }
    }
    return Set.of(members, this.children.ensureNamedFieldsAreMembers(schema, tr));
  }

  /** Only the paths the matcher matches. */
  filterIncludeMatches(pattern: SetMatcher): Set {
    if (pattern.wildcard) return this;
    const members: PathElement[] = [];
    for (const m of this.members.members) {
      if (pattern.members.some((pm) => pm.path.wildcard || pathElementEquals(pm.path.pathElement, m))) members.push(m);
    }
    return Set.of(new PathElementSet(members), this.children.filterIncludeMatches(pattern));
  }

  /** The number of members (of this set and every subset). */
  size(): number {
    return this.members.size() + this.children.size();
  }

  empty(): boolean {
    return this.members.size() === 0 && this.children.empty();
  }

  equals(s2: Set): boolean {
    return this.members.equals(s2.members) && this.children.equals(s2.children);
  }

  /** Calls f with every member path, depth first, members before children at each level. */
  iterate(f: (p: Path) => void): void {
    this.iteratePrefix([], f);
  }

  /** @internal the walk of iterate: `prefix` is extended in place and copied for f. */
  iteratePrefix(prefix: PathElement[], f: (p: Path) => void): void {
    for (const pe of this.members.members) f([...prefix, pe]);
    for (const n of this.children.members) {
      prefix.push(n.pathElement);
      n.set.iteratePrefix(prefix, f);
      prefix.pop();
    }
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
    const leaves: PathElement[] = [];
    const children = this.children.members;
    let ic = 0;
    for (const member of this.members.members) {
      let c = 1;
      while (ic < children.length && (c = comparePathElements(member, children[ic]!.pathElement)) > 0) ic++;
      if (ic < children.length && c === 0) ic++;
      else leaves.push(member);
    }
    return Set.of(new PathElementSet(leaves), this.children.leaves());
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

/** SetNodeMap: the children of a Set, sorted by path element. */
export class SetNodeMap {
  /** Sorted by path element; read it, never modify it. */
  readonly members: SetNode[];

  constructor(sorted: SetNode[] = []) {
    this.members = sorted;
  }

  copy(): SetNodeMap {
    return new SetNodeMap(this.members.map((n) => ({ pathElement: n.pathElement, set: n.set.copy() })));
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

  size(): number {
    let n = 0;
    for (const c of this.members) n += c.set.size();
    return n;
  }

  empty(): boolean {
    return this.members.every((n) => n.set.empty());
  }

  equals(s2: SetNodeMap): boolean {
    const a = this.members;
    const b = s2.members;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (!pathElementEquals(a[i]!.pathElement, b[i]!.pathElement) || !a[i]!.set.equals(b[i]!.set)) return false;
    }
    return true;
  }

  union(s2: SetNodeMap): SetNodeMap {
    const a = this.members;
    const b = s2.members;
    const out: SetNode[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pathElement, b[j]!.pathElement);
      if (c < 0) out.push(a[i++]!);
      else if (c > 0) out.push(b[j++]!);
      else out.push({ pathElement: a[i]!.pathElement, set: a[i++]!.set.union(b[j++]!.set) });
    }
    while (i < a.length) out.push(a[i++]!);
    while (j < b.length) out.push(b[j++]!);
    return new SetNodeMap(out);
  }

  intersection(s2: SetNodeMap): SetNodeMap {
    const a = this.members;
    const b = s2.members;
    const out: SetNode[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pathElement, b[j]!.pathElement);
      if (c < 0) i++;
      else if (c > 0) j++;
      else {
        const res = a[i]!.set.intersection(b[j++]!.set);
        if (!res.empty()) out.push({ pathElement: a[i]!.pathElement, set: res });
        i++;
      }
    }
    return new SetNodeMap(out);
  }

  /** The children of this minus those of s2 (a Set, as SMD's takes). */
  difference(s2: Set): SetNodeMap {
    return this.subtract(s2, false);
  }

  /** As difference, also dropping every child that is a member of s2. */
  recursiveDifference(s2: Set): SetNodeMap {
    return this.subtract(s2, true);
  }

  private subtract(s2: Set, recursive: boolean): SetNodeMap {
    const a = this.members;
    const b = s2.children.members;
    const out: SetNode[] = [];
    const dropped = (pe: PathElement): boolean => recursive && s2.members.has(pe);
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i]!.pathElement, b[j]!.pathElement);
      if (c < 0) {
        if (!dropped(a[i]!.pathElement)) out.push(a[i]!);
        i++;
      } else if (c > 0) j++;
      else {
        if (!dropped(a[i]!.pathElement)) {
          const diff = recursive ? a[i]!.set.recursiveDifference(b[j]!.set) : a[i]!.set.difference(b[j]!.set);
          if (!diff.empty()) out.push({ pathElement: a[i]!.pathElement, set: diff });
        }
        i++;
        j++;
      }
    }
    for (; i < a.length; i++) if (!dropped(a[i]!.pathElement)) out.push(a[i]!);
    return new SetNodeMap(out);
  }

  ensureNamedFieldsAreMembers<TR>(schema: SchemaLike<TR>, tr: TR | undefined): SetNodeMap {
    const atom = tr === undefined ? undefined : schema.resolve(tr);
    return new SetNodeMap(
      this.members.map((member) => {
        const pe = member.pathElement;
        let childType: TR | undefined;
        if ('fieldName' in pe && atom?.map) childType = findField(schema, atom.map, pe.fieldName)?.type ?? atom.map.elementType;
        else if ('key' in pe && atom?.list) childType = atom.list.elementType;
        return { pathElement: pe, set: member.set.ensureNamedFieldsAreMembers(schema, childType) };
      }),
    );
  }

  filterIncludeMatches(pattern: SetMatcher): SetNodeMap {
    if (pattern.wildcard) return this;
    const out: SetNode[] = [];
    for (const member of this.members) {
      const c = pattern.members.find((pm) => pm.path.wildcard || pathElementEquals(pm.path.pathElement, member.pathElement));
      if (!c) continue;
      const childSet = member.set.filterIncludeMatches(c.child);
      if (childSet.size() > 0) out.push({ pathElement: member.pathElement, set: childSet });
    }
    return new SetNodeMap(out);
  }

  iterate(f: (pe: PathElement) => void): void {
    for (const n of this.members) f(n.pathElement);
  }

  leaves(): SetNodeMap {
    return new SetNodeMap(this.members.map((n) => ({ pathElement: n.pathElement, set: n.set.leaves() })));
  }
}
