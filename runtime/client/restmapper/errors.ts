import { goSlice, groupVersionString, gvkString, gvrString, type GroupKind, type GroupVersionKind, type GroupVersionResource } from './schema.js';

/**
 * The errors of a REST mapper, with apimachinery's meta package texts word for word (kubectl
 * prints them: `error: the server doesn't have a resource type "x"` is built from these).
 */

/** What an ambiguous match matched: resources, kinds, or both (either may be left out). */
type Matches = [matchingResources?: readonly GroupVersionResource[], matchingKinds?: readonly GroupVersionKind[]];

/** A partial resource or kind that matched more than one resource or kind: the message lists them. */
abstract class AmbiguousMatchError extends Error {
  readonly matchingResources: readonly GroupVersionResource[];
  readonly matchingKinds: readonly GroupVersionKind[];

  constructor(partial: string, ...[resources = [], kinds = []]: Matches) {
    super(ambiguousMessage(partial, resources, kinds));
    this.matchingResources = resources;
    this.matchingKinds = kinds;
  }
}

/** A partial resource matched more than one resource or kind. */
export class AmbiguousResourceError extends AmbiguousMatchError {
  override readonly name = 'AmbiguousResourceError';

  constructor(
    readonly partialResource: GroupVersionResource,
    ...matches: Matches
  ) {
    super(gvrString(partialResource), ...matches);
  }
}

/** A group kind matched more than one kind. */
export class AmbiguousKindError extends AmbiguousMatchError {
  override readonly name = 'AmbiguousKindError';

  constructor(
    readonly partialKind: GroupVersionKind,
    ...matches: Matches
  ) {
    super(gvkString(partialKind), ...matches);
  }
}

function ambiguousMessage(partial: string, resources: readonly GroupVersionResource[], kinds: readonly GroupVersionKind[]): string {
  const r = goSlice(resources.map(gvrString));
  const k = goSlice(kinds.map(gvkString));
  if (kinds.length > 0 && resources.length > 0) return `${partial} matches multiple resources ${r} and kinds ${k}`;
  if (kinds.length > 0) return `${partial} matches multiple kinds ${k}`;
  if (resources.length > 0) return `${partial} matches multiple resources ${r}`;
  return `${partial} matches multiple resources or kinds`;
}

/**
 * Nothing matched what was asked: the two "no match" errors kubectl tells apart from the others
 * (meta.IsNoMatchError), one shape with the message of what was asked.
 */
abstract class NoMatchError extends Error {}

/** No resource matched a partial resource. */
export class NoResourceMatchError extends NoMatchError {
  override readonly name = 'NoResourceMatchError';

  constructor(readonly partialResource: GroupVersionResource) {
    super(`no matches for ${gvrString(partialResource)}`);
  }
}

/** No kind matched a group kind in the versions searched. */
export class NoKindMatchError extends NoMatchError {
  override readonly name = 'NoKindMatchError';

  constructor(
    readonly groupKind: GroupKind,
    readonly searchedVersions: readonly string[] = [],
  ) {
    super(noKindMessage(groupKind, searchedVersions));
  }
}

function noKindMessage(gk: GroupKind, versions: readonly string[]): string {
  // A sorted set of group versions, as sets.NewString(...).List().
  const searched = [...new Set(versions.map((v) => groupVersionString({ group: gk.group, version: v })))].sort();
  const q = (s: string): string => JSON.stringify(s);
  if (searched.length === 0) return `no matches for kind ${q(gk.kind)} in group ${q(gk.group)}`;
  if (searched.length === 1) return `no matches for kind ${q(gk.kind)} in version ${q(searched[0] ?? '')}`;
  return `no matches for kind ${q(gk.kind)} in versions [${searched.map(q).join(' ')}]`;
}

/** Several mappers failed with errors other than "no match" (utilerrors.NewAggregate). */
export class AggregateError extends Error {
  override readonly name = 'AggregateError';

  constructor(readonly errors: readonly Error[]) {
    super(errors.length === 1 ? (errors[0]?.message ?? '') : `[${errors.map((e) => e.message).join(', ')}]`);
  }
}

export function isNoMatchError(err: unknown): boolean {
  return err instanceof NoMatchError;
}

export function isAmbiguousError(err: unknown): boolean {
  return err instanceof AmbiguousMatchError;
}
