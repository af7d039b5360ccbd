/**
 * Conversion between one version of a kind and its hub version, written by
 * hand beside the types (`apis/<group>/<version>/conversion.ts`, exported as
 * `<Kind>Conversion`) where the version's shape differs from the hub's. The
 * generator requires one exactly where the schemas differ, and uses
 * apiVersion rewriting where they do not.
 *
 * Both functions receive an object they may not mutate and return a new one
 * whose apiVersion names the target version.
 */
export interface Conversion<Spoke, Hub> {
  toHub(from: Spoke): Hub;
  fromHub(from: Hub): Spoke;
}

/** Hand-written defaulting (`set<Kind>Defaults` in defaults.ts): mutates the object in place. */
export type Defaulter<T> = (obj: T) => void;
