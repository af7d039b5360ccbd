/**
 * Label sets as k8s.io/apimachinery/pkg/labels: a read-only view that selectors match
 * against, and the plain `Set` (a `metadata.labels` map) that implements it.
 */

/** Labels is what a selector matches: presence and value of a label key. */
export interface Labels {
  has(key: string): boolean;
  get(key: string): string | undefined;
}

/** A label set as it appears in `metadata.labels`. */
export type Set = Readonly<Record<string, string>>;

const emptySet: Set = Object.freeze({});

/** Wraps a label map (possibly absent) as Labels; never copies. */
export function labelsFromSet(set: Set | undefined | null): Labels {
  const s = set ?? emptySet;
  return {
    has: (key) => Object.prototype.hasOwnProperty.call(s, key),
    get: (key) => (Object.prototype.hasOwnProperty.call(s, key) ? s[key] : undefined),
  };
}

/** Canonical `k1=v1,k2=v2` form with keys sorted, as labels.Set.String(). */
export function formatSet(set: Set): string {
  return Object.keys(set)
    .sort()
    .map((k) => `${k}=${set[k]}`)
    .join(',');
}
