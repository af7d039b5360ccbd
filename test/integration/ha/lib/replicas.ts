// Three control-plane replicas on one etcd, each a separate process of the real command (`npm
// start`'s bundle), on its own port and data dir. What must be the same on every replica is
// copied from the first one's data dir before the others start, as kubeadm copies it to each
// control-plane node it joins: the cluster CA (serving and client certificates of every replica
// chain to it: a client trusts every replica, and an admin certificate issued by one is accepted
// by all), the front-proxy CA, and the service-account key pair (a token signed by one replica
// verifies on all). Everything else in a data dir (serving certificate, admin kubeconfig, the
// leader-election identity) is the replica's own.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlane, type Credentials } from '../../harness.js';
import type { EtcdCluster } from '../../../storage/etcdServer.js';

/** The files of <data-dir>/pki every replica shares (kubeadm's "certificates shared by control-plane nodes"). */
export const SHARED_PKI_FILES = ['ca.crt', 'ca.key', 'front-proxy-ca.crt', 'front-proxy-ca.key', 'sa.key', 'sa.pub'] as const;

export class ReplicaSet {
  readonly replicas: ControlPlane[] = [];
  private readonly dataDirs: string[] = [];

  private constructor(
    readonly etcd: EtcdCluster,
    readonly etcdPrefix: string,
    private readonly extraArgs: readonly string[],
    private readonly argsOf: (i: number) => readonly string[],
  ) {}

  /**
   * Starts `count` replicas one after the other (the first makes the shared PKI); `argsOf(i)`
   * adds replica i's own flags (its addresses, say) after the shared ones.
   */
  static async start(etcd: EtcdCluster, count: number, extraArgs: readonly string[], argsOf: (i: number) => readonly string[] = () => []): Promise<ReplicaSet> {
    const set = new ReplicaSet(etcd, `/registry-ha-${process.pid}-${randomBytes(3).toString('hex')}`, extraArgs, argsOf);
    try {
      for (let i = 0; i < count; i++) {
        const dir = mkdtempSync(join(tmpdir(), `ha-replica-${i}-`));
        set.dataDirs.push(dir);
        if (i > 0) {
          mkdirSync(join(dir, 'pki'), { recursive: true, mode: 0o700 });
          for (const f of SHARED_PKI_FILES) copyFileSync(join(set.dataDirs[0]!, 'pki', f), join(dir, 'pki', f));
        }
        set.replicas.push(await set.launch(i));
      }
    } catch (e) {
      await set.close();
      throw e;
    }
    return set;
  }

  private launch(i: number): Promise<ControlPlane> {
    const dataDir = this.dataDirs[i]!;
    return ControlPlane.start({ backend: 'etcd3', bundled: true, etcd: this.etcd, etcdPrefix: this.etcdPrefix, dataDir, extraArgs: [...this.extraArgs, ...this.argsOf(i)], readyTimeoutMs: 180_000 });
  }

  /** The ports the replicas listen on now (a restarted one gets a new port). */
  get ports(): number[] {
    return this.replicas.map((r) => r.port);
  }

  /** kill -9 of replica `i`; resolves once the process has exited. */
  async kill(i: number): Promise<void> {
    const r = this.replicas[i]!;
    process.kill(r.pid, 'SIGKILL');
    await r.terminate();
  }

  /** Starts replica `i` again on its data dir (same identity and certificates, a new port). */
  async restart(i: number): Promise<ControlPlane> {
    await this.replicas[i]!.terminate();
    const next = await this.launch(i);
    this.replicas[i] = next;
    return next;
  }

  /** Replica `i`'s admin credentials, pointed at `server` (the load balancer) instead. */
  credentialsVia(server: string, i = 0): Credentials {
    return { ...this.replicas[i]!.credentials, server };
  }

  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.terminate()));
    for (const d of this.dataDirs) rmSync(d, { recursive: true, force: true });
  }
}
