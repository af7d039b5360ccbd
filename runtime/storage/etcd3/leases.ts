import type { Etcd3 } from 'etcd3';

/**
 * LeaseManager hands out etcd leases for TTL'd writes and reuses a recent lease for requests
 * with the same TTL (kube's lease_manager.go): one lease per key would flood etcd. A reused
 * lease is granted a little longer, so keys may outlive their TTL by up to the reuse window.
 */
export class LeaseManager {
  private readonly leases = new Map<number, { id: string; grantedAt: number; pending?: Promise<string> }>();

  constructor(
    private readonly client: Etcd3,
    private readonly reuseDurationSeconds = 60,
    private readonly reuseDurationPercent = 0.05,
  ) {}

  async getLease(ttlSeconds: number): Promise<string> {
    const reuse = Math.min(this.reuseDurationSeconds, Math.ceil(ttlSeconds * this.reuseDurationPercent));
    const now = Date.now();
    const cached = this.leases.get(ttlSeconds);
    if (cached && now - cached.grantedAt < reuse * 1000) return cached.pending ?? cached.id;
    const pending = this.client.leaseClient.leaseGrant({ TTL: ttlSeconds + reuse }).then((r) => r.ID);
    this.leases.set(ttlSeconds, { id: '', grantedAt: now, pending });
    try {
      const id = await pending;
      this.leases.set(ttlSeconds, { id, grantedAt: now });
      return id;
    } catch (e) {
      this.leases.delete(ttlSeconds);
      throw e;
    }
  }
}
