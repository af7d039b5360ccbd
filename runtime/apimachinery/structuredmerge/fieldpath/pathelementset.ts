/**
 * fieldpath.PathElementSet: path elements kept sorted (comparePathElements)
 * so membership is a binary search and set operations are linear merges.
 */
import { comparePathElements, pathElementEquals, type PathElement } from './element.js';

/**
 * The index of `pe` in `items` sorted by `elementOf`, or the bitwise
 * complement of where it would be inserted.
 */
export function searchSorted<T>(items: readonly T[], pe: PathElement, elementOf: (item: T) => PathElement): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = comparePathElements(elementOf(items[mid]!), pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return ~lo;
}

const self = (pe: PathElement): PathElement => pe;

export class PathElementSet {
  /** Sorted and distinct; read it, never modify it (use insert). */
  readonly members: PathElement[];

  /** A set of already sorted, distinct elements (taken, not copied). */
  constructor(sorted: PathElement[] = []) {
    this.members = sorted;
  }

  /** Copy: path elements are immutable, so a shallow copy is a full one. */
  copy(): PathElementSet {
    return new PathElementSet(this.members.slice());
  }

  insert(pe: PathElement): void {
    const at = searchSorted(this.members, pe, self);
    if (at < 0) this.members.splice(~at, 0, pe);
  }

  has(pe: PathElement): boolean {
    return searchSorted(this.members, pe, self) >= 0;
  }

  size(): number {
    return this.members.length;
  }

  union(s2: PathElementSet): PathElementSet {
    return mergeSorted(this.members, s2.members, true, true);
  }

  intersection(s2: PathElementSet): PathElementSet {
    return mergeSorted(this.members, s2.members, false, false);
  }

  difference(s2: PathElementSet): PathElementSet {
    return mergeSorted(this.members, s2.members, true, false, false);
  }

  equals(s2: PathElementSet): boolean {
    const a = this.members;
    const b = s2.members;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pathElementEquals(a[i]!, b[i]!)) return false;
    return true;
  }

  iterate(f: (pe: PathElement) => void): void {
    for (const pe of this.members) f(pe);
  }

  [Symbol.iterator](): IterableIterator<PathElement> {
    return this.members[Symbol.iterator]();
  }
}

/**
 * One linear walk of two sorted lists: elements only in `a` are kept when
 * `keepA`, only in `b` when `keepB`, in both when `keepBoth`.
 */
function mergeSorted(a: readonly PathElement[], b: readonly PathElement[], keepA: boolean, keepB: boolean, keepBoth = true): PathElementSet {
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(a[i]!, b[j]!);
    if (c < 0) {
      if (keepA) out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (keepB) out.push(b[j]!);
      j++;
    } else {
      if (keepBoth) out.push(a[i]!);
      i++;
      j++;
    }
  }
  if (keepA) while (i < a.length) out.push(a[i++]!);
  if (keepB) while (j < b.length) out.push(b[j++]!);
  return new PathElementSet(out);
}
