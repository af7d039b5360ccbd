/**
 * Field sets as k8s.io/apimachinery/pkg/fields: the selectable fields of one object,
 * e.g. `{ 'metadata.name': 'foo', 'metadata.namespace': 'ns' }`. A missing field reads as "".
 */
export type Set = Readonly<Record<string, string>>;

/** Fields is what a field selector matches against. */
export interface Fields {
  has(field: string): boolean;
  get(field: string): string;
}

const emptySet: Set = Object.freeze({});

/** Wraps a field map (possibly absent) as Fields; never copies. */
export function fieldsFromSet(set: Set | undefined | null): Fields {
  const s = set ?? emptySet;
  return {
    has: (f) => Object.prototype.hasOwnProperty.call(s, f),
    get: (f) => (Object.prototype.hasOwnProperty.call(s, f) ? (s[f] ?? '') : ''),
  };
}
