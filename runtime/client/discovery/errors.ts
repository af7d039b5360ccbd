import type { GroupsAndResources } from './types.js';

/**
 * Some group versions could not be discovered (discovery.ErrGroupDiscoveryFailed): their
 * errors by group version, and what was found anyway. Callers such as the REST mapper go on
 * with the partial answer, as client-go's do.
 */
export class ErrGroupDiscoveryFailed extends Error {
  override readonly name = 'ErrGroupDiscoveryFailed';

  constructor(
    readonly groups: ReadonlyMap<string, Error>,
    /** What the other group versions answered. */
    readonly partial?: GroupsAndResources,
  ) {
    const lines = [...groups].map(([gv, err]) => `${gv}: ${err.message}`).sort();
    super(`unable to retrieve the complete list of server APIs: ${lines.join(', ')}`);
  }
}

export function isGroupDiscoveryFailedError(err: unknown): err is ErrGroupDiscoveryFailed {
  return err instanceof ErrGroupDiscoveryFailed;
}

/** The aggregated document marked a group version Stale: its server could not be reached. */
export class StaleGroupVersionError extends Error {
  override readonly name = 'StaleGroupVersionError';

  constructor(readonly groupVersion: string) {
    super(`stale GroupVersion discovery: ${groupVersion}`);
  }
}
