/**
 * fieldpath.PathElementMap / PathElementValueMap: a map keyed by path
 * element (sorted array, binary search), used by typed merge and compare
 * to pair list elements.
 */
import type { PathElement } from './element.js';
import { searchSorted } from './pathelementset.js';

interface Entry<T> {
  readonly pathElement: PathElement;
  value: T;
}

const entryElement = <T>(e: Entry<T>): PathElement => e.pathElement;

export class PathElementMap<T> {
  private readonly members: Entry<T>[] = [];

  /** Insert: a second insert of the same element replaces the value. */
  insert(pe: PathElement, value: T): void {
    const at = searchSorted(this.members, pe, entryElement);
    if (at >= 0) this.members[at]!.value = value;
    else this.members.splice(~at, 0, { pathElement: pe, value });
  }

  /** The value of `pe`, or undefined. */
  get(pe: PathElement): T | undefined {
    const at = searchSorted(this.members, pe, entryElement);
    return at >= 0 ? this.members[at]!.value : undefined;
  }

  has(pe: PathElement): boolean {
    return searchSorted(this.members, pe, entryElement) >= 0;
  }

  size(): number {
    return this.members.length;
  }
}
