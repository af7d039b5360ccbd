import { createHash } from 'node:crypto';

/**
 * kube's cached token authenticator (k8s.io/apiserver/pkg/authentication/token/cache), the part
 * kube-apiserver uses: successes are remembered for a TTL (its TokenSuccessCacheTTL, 10 s),
 * failures are not (TokenFailureCacheTTL 0). Keyed by a hash of the audiences and the token,
 * so the cache never holds a token; bounded, the oldest entry going first.
 */
export class TokenSuccessCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 4096,
  ) {}

  static key(token: string, audiences: readonly string[]): string {
    const h = createHash('sha256');
    for (const a of audiences) h.update(`${a.length}:${a}`);
    return h.update('|').update(token).digest('base64url');
  }

  get(key: string, nowMs: number): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.expiresAt <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Remembers a success until the TTL passes, or `notAfterMs` (the token's expiry) if sooner. */
  set(key: string, value: V, nowMs: number, notAfterMs = Infinity): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: Math.min(nowMs + this.ttlMs, notAfterMs) });
  }
}
