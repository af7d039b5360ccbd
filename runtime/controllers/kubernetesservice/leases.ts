import type { Interface as StorageInterface, StoredObject } from '../../storage/index.js';

/** How long an API server's lease lives without renewal (kube's --endpoint-reconciler lease TTL). */
const LEASE_TTL_SECONDS = 15;

/**
 * The API servers' leases of kube's lease endpoint reconciler (pkg/controlplane/reconcilers/
 * lease.go): each server keeps `/masterleases/<ip>` alive with a TTL, and the `kubernetes`
 * Endpoints list the IPs whose lease lives, so several replicas sharing one store are all
 * listed and a stopped one drops out.
 */
export class APIServerLeases {
  constructor(private readonly storage: StorageInterface) {}

  /**
   * Renews this server's lease. The generation is bumped on every renewal, as kube's is: the
   * storage skips an update that changes nothing, and the TTL would then not be refreshed.
   */
  async renew(ip: string): Promise<void> {
    await this.storage.guaranteedUpdate(`/masterleases/${ip}`, {
      ignoreNotFound: true,
      tryUpdate: (input) => {
        const generation = typeof input?.metadata?.generation === 'number' ? input.metadata.generation + 1 : 1;
        const object: StoredObject = { apiVersion: 'v1', kind: 'Endpoints', metadata: { ...input?.metadata, name: ip, generation }, subsets: [{ addresses: [{ ip }] }] };
        return { object, ttlSeconds: LEASE_TTL_SECONDS };
      },
    });
  }

  /** The IPs of the live leases, sorted. */
  async ips(): Promise<string[]> {
    const list = await this.storage.getList('/masterleases', { recursive: true });
    return list.items
      .map((o) => String(o.metadata?.name ?? ''))
      .filter((ip) => ip !== '')
      .sort();
  }

  /** Drops this server's lease (shutdown); absent is fine. */
  async remove(ip: string): Promise<void> {
    await this.storage.delete(`/masterleases/${ip}`).catch(() => undefined);
  }
}
