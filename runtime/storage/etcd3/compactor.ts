import type { Etcd3 } from 'etcd3';
import type { EtcdKV } from './kv.js';

/** The key API servers sharing an etcd coordinate compaction through (kube's compact_rev_key). */
export const compactRevKey = 'compact_rev_key';

/**
 * Compactor compacts etcd periodically, keeping about one interval of history (kube's
 * StartCompactorPerEndpoint). Each round records the current revision under compact_rev_key
 * with a CAS on the key's version, and compacts to the revision recorded the round before;
 * several servers on one etcd thus compact once per interval between them.
 */
export class Compactor {
  private timer: NodeJS.Timeout | undefined;
  private version = 0;
  private lastRev = 0;

  constructor(
    private readonly client: Etcd3,
    private readonly kv: EtcdKV,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.round().catch(() => undefined), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One compaction round; exposed for tests. */
  async round(): Promise<void> {
    const key = Buffer.from(compactRevKey);
    const resp = await this.client.kv.txn({
      compare: [{ key, target: 'Version', result: 'Equal', version: this.version }],
      success: [{ request_put: { key, value: Buffer.from(String(this.lastRev)) } }],
      failure: [{ request_range: { key } }],
    });
    const current = Number(resp.header.revision);
    if (!resp.succeeded) {
      // Another server compacted this round: adopt its clock.
      this.version = Number(resp.responses[0]?.response_range?.kvs[0]?.version ?? 0);
      this.lastRev = current;
      return;
    }
    this.version++;
    const target = this.lastRev;
    this.lastRev = current;
    if (target > 0) await this.kv.compact(target);
  }
}
