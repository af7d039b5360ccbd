import type { CachedCRD } from './deps.js';

/** How long a written object may stand in for the informer's copy (client-go's default for this use). */
const DEFAULT_TTL_MS = 60_000;

/**
 * The objects a controller just wrote, consulted before the informer has caught up with them
 * (client-go's integer-resourceVersion MutationCache). Without it, a controller that reserves
 * names could read a stale cache right after its own write and hand one name to two CRDs.
 * An entry stands until the informer holds the same or a newer resourceVersion, or it expires.
 */
export class MutationCache {
  private readonly written = new Map<string, { readonly crd: CachedCRD; readonly expiresAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = DEFAULT_TTL_MS,
  ) {}

  /** Records what a write returned. */
  mutation(crd: CachedCRD): void {
    const name = crd.metadata?.name;
    if (name === undefined) return;
    this.written.set(name, { crd, expiresAt: this.now() + this.ttlMs });
  }

  /** The newer of the informer's copy and the recorded write. */
  newest(cached: CachedCRD): CachedCRD {
    const name = cached.metadata?.name ?? '';
    const entry = this.written.get(name);
    if (entry === undefined) return cached;
    if (this.now() >= entry.expiresAt || revision(cached) >= revision(entry.crd)) {
      this.written.delete(name);
      return cached;
    }
    return entry.crd;
  }
}

function revision(crd: CachedCRD): bigint {
  const rv = crd.metadata?.resourceVersion ?? '';
  return /^\d+$/.test(rv) ? BigInt(rv) : 0n;
}
