import type { Etcd3 } from 'etcd3';
import { newEtcdClient } from './client.js';

/** kube's storagebackend.DefaultHealthcheckTimeout and DefaultReadinessTimeout. */
export const DEFAULT_HEALTHCHECK_TIMEOUT_MS = 2000;

export interface EtcdCheckConfig {
  endpoints: readonly string[];
  /** The storage prefix; the check reads `<prefix>/health`, as kube does. */
  prefix: string;
  /** --etcd-healthcheck-timeout or --etcd-readycheck-timeout: no check takes longer. */
  timeoutMs: number;
}

/**
 * One etcd health check (kube's newETCD3Check, behind `/livez/etcd`, `/readyz/etcd` and
 * `/readyz/etcd-readiness`). Its own client, so storage calls queued on a stalled connection
 * never delay it; every read has the timeout as its deadline, so a hung etcd (SIGSTOP, lost
 * packets) fails the check after the timeout instead of after gRPC's keepalive. Probes are
 * rate limited to one per half timeout (burst one), as kube's: a check within that window gets
 * the result of the last probe sent (waiting for it while it runs, which kube does not: a check
 * right after start never reports the client as not yet connected), so a flood of /readyz
 * requests never floods etcd.
 */
export class EtcdCheck {
  private client: Etcd3 | undefined;
  private closed = false;
  private readonly healthKey: Buffer;
  private readonly intervalMs: number;
  private nextAllowed = 0;
  /** The outcome of the most recently sent probe: undefined when healthy. */
  private last: Promise<Error | undefined> | undefined;

  constructor(private readonly config: EtcdCheckConfig) {
    this.healthKey = Buffer.from(`/${config.prefix}/health`.replace(/\/+/g, '/'));
    this.intervalMs = config.timeoutMs / 2;
  }

  /** Resolves when etcd answered a read in time; rejects with kube's `error getting data from etcd: …` otherwise. */
  async check(): Promise<void> {
    const now = performance.now();
    if (this.last === undefined || now >= this.nextAllowed) {
      this.nextAllowed = now + this.intervalMs;
      this.last = this.probe();
    }
    const error = await this.last;
    if (error) throw error;
  }

  /** Closes the check's client; checks after it fail without connecting again. */
  close(): void {
    this.closed = true;
    this.client?.close();
    this.client = undefined;
  }

  private async probe(): Promise<Error | undefined> {
    if (this.closed) return new Error('error getting data from etcd: the etcd client is closed');
    this.client ??= newEtcdClient({ endpoints: this.config.endpoints, requestTimeoutMs: this.config.timeoutMs });
    const client = this.client;
    let timer: NodeJS.Timeout | undefined;
    // The gRPC deadline ends the call; the timer bounds the check even where a deadline does not
    // apply (a connection still being set up). Go's wording, as kube's check reports it.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('context deadline exceeded')), this.config.timeoutMs);
    });
    const read = client.kv.range({ key: this.healthKey }, { deadline: Date.now() + this.config.timeoutMs });
    read.catch(() => undefined);
    try {
      await Promise.race([read, deadline]);
      return undefined;
    } catch (err) {
      const reason = isDeadline(err) ? 'context deadline exceeded' : err instanceof Error ? err.message : String(err);
      return new Error(`error getting data from etcd: ${reason}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  }
}

function isDeadline(err: unknown): boolean {
  return err instanceof Error && (err.message === 'context deadline exceeded' || err.name === 'GRPCDeadlineExceededError' || /DEADLINE_EXCEEDED/.test(err.message));
}
