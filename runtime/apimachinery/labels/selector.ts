import { labelsFromSet, type Labels, type Set } from './labels.js';
import { Requirement } from './requirement.js';

/**
 * Selector as k8s.io/apimachinery/pkg/labels.Selector: an AND of requirements. Immutable;
 * `add` returns a new selector.
 */
export interface Selector {
  matches(labels: Labels): boolean;
  /** Matches a plain label map (absent means no labels). */
  matchesSet(set: Set | undefined | null): boolean;
  /** True when the selector selects everything. */
  empty(): boolean;
  toString(): string;
  add(...reqs: Requirement[]): Selector;
  /** The requirements, and false for the Nothing selector (which has none yet selects nothing). */
  requirements(): { requirements: readonly Requirement[]; selectable: boolean };
  /** The single value the selector forces `label` to have, if it forces one. */
  requiresExactMatch(label: string): string | undefined;
}

const byKey = (a: Requirement, b: Requirement): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

class InternalSelector implements Selector {
  constructor(private readonly reqs: readonly Requirement[]) {}

  matches(ls: Labels): boolean {
    for (const r of this.reqs) if (!r.matches(ls)) return false;
    return true;
  }

  matchesSet(set: Set | undefined | null): boolean {
    return this.reqs.length === 0 || this.matches(labelsFromSet(set));
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  toString(): string {
    return this.reqs.map((r) => r.toString()).join(',');
  }

  add(...reqs: Requirement[]): Selector {
    // Stable sort by key keeps the parse order of requirements sharing a key, as Go's sort.Sort does
    // for the inputs the parser produces.
    return new InternalSelector([...this.reqs, ...reqs].sort(byKey));
  }

  requirements(): { requirements: readonly Requirement[]; selectable: boolean } {
    return { requirements: this.reqs, selectable: true };
  }

  requiresExactMatch(label: string): string | undefined {
    for (const r of this.reqs) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) {
        return r.values[0];
      }
      return undefined;
    }
    return undefined;
  }
}

class NothingSelector implements Selector {
  matches(): boolean {
    return false;
  }
  matchesSet(): boolean {
    return false;
  }
  empty(): boolean {
    return false;
  }
  toString(): string {
    return '';
  }
  add(): Selector {
    return this;
  }
  requirements(): { requirements: readonly Requirement[]; selectable: boolean } {
    return { requirements: [], selectable: false };
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
}

const everythingSelector: Selector = new InternalSelector([]);
const nothingSelector: Selector = new NothingSelector();

/** Selects every object. */
export function everything(): Selector {
  return everythingSelector;
}

/** Selects no object. */
export function nothing(): Selector {
  return nothingSelector;
}

export function matchesNothing(s: Selector): boolean {
  return s === nothingSelector;
}

/** Builds a selector from sorted-or-not requirements (sorted by key here). */
export function selectorFromRequirements(reqs: readonly Requirement[]): Selector {
  return new InternalSelector([...reqs].sort(byKey));
}

/** SelectorFromSet: `k=v` for every entry, without validating keys or values. */
export function selectorFromSet(set: Set | undefined | null): Selector {
  if (!set) return everythingSelector;
  const keys = Object.keys(set);
  if (keys.length === 0) return everythingSelector;
  return new InternalSelector(keys.sort().map((k) => Requirement.unchecked(k, '=', [set[k] ?? ''])));
}

/** ValidatedSelectorFromSet: as selectorFromSet, but throws InvalidSelectorError on bad keys or values. */
export function validatedSelectorFromSet(set: Set | undefined | null): Selector {
  if (!set) return everythingSelector;
  const keys = Object.keys(set);
  if (keys.length === 0) return everythingSelector;
  return new InternalSelector(keys.sort().map((k) => Requirement.create(k, '=', [set[k] ?? ''])));
}
