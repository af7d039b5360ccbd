import type { Etcd3, IKeyValue } from 'etcd3';

/** One linearizable single-key read: the key's value (if any) at the revision etcd served it. */
export interface BatchedRange {
  readonly kv: IKeyValue | undefined;
  readonly revision: number;
}

/**
 * Sends one transaction whose success branch is a range of each key, with no compare: etcd runs
 * it at one revision, as linearizable as a lone range. The response's i-th entry answers keys[i].
 */
export type RangeTxn = (keys: readonly Buffer[], deadline: number) => Promise<{ revision: number; kvs: readonly (IKeyValue | undefined)[] }>;

/** The RangeTxn of an etcd3 client: one transaction, no compare, a range per key. */
export function etcdRangeTxn(client: Etcd3): RangeTxn {
  return async (keys, deadline) => {
    const resp = await client.kv.txn({ compare: [], success: keys.map((key) => ({ request_range: { key } })), failure: [] }, { deadline });
    return { revision: Number(resp.header.revision), kvs: resp.responses.map((r) => r.response_range?.kvs[0]) };
  };
}

interface Waiter {
  readonly key: Buffer;
  readonly deadline: number;
  readonly resolve: (r: BatchedRange) => void;
  readonly reject: (e: unknown) => void;
}

/** etcd's default --max-txn-ops; a server configured lower answers "too many operations" and the batch shrinks. */
const defaultMaxOps = 128;

/**
 * RangeBatcher folds concurrent consistent reads of single keys into one etcd transaction, the
 * way a group commit folds writes: while one transaction is in flight, the reads that arrive
 * queue, and the next transaction carries them all. Each gRPC call costs this process far more
 * CPU than the bytes it carries (the etcd3 client's layers, grpc-js, one HTTP/2 stream), and
 * etcd pays per request too, so under load many GETs cost about one. With nothing in flight a
 * read is sent at once, so an idle server's latency is unchanged.
 *
 * Still linearizable: a read is only ever answered by a transaction sent after it arrived, and
 * etcd serves a transaction with every write committed before it (etcd's own ReadIndex batches
 * linearizable reads the same way). Reads at a given revision are not batched; they do not need it.
 */
export class RangeBatcher {
  private queue: Waiter[] = [];
  private inFlight = false;
  private maxOps: number;

  constructor(
    private readonly send: RangeTxn,
    opts: { maxOps?: number } = {},
  ) {
    this.maxOps = opts.maxOps ?? defaultMaxOps;
  }

  get(key: Buffer, deadline: number): Promise<BatchedRange> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, deadline, resolve, reject });
      if (!this.inFlight) void this.flush();
    });
  }

  /** Sends what has queued, as transactions of at most maxOps ranges, then again while reads keep arriving. */
  private async flush(): Promise<void> {
    this.inFlight = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        const sends: Promise<void>[] = [];
        for (let i = 0; i < batch.length; i += this.maxOps) sends.push(this.sendBatch(batch.slice(i, i + this.maxOps)));
        await Promise.all(sends);
      }
    } finally {
      this.inFlight = false;
    }
  }

  private async sendBatch(batch: readonly Waiter[]): Promise<void> {
    let deadline = Infinity;
    for (const w of batch) deadline = Math.min(deadline, w.deadline);
    try {
      const resp = await this.send(
        batch.map((w) => w.key),
        deadline,
      );
      batch.forEach((w, i) => w.resolve({ kv: resp.kvs[i], revision: resp.revision }));
    } catch (e) {
      if (batch.length > 1 && tooManyOps(e)) {
        // The server allows fewer operations per transaction than assumed: remember it, resend.
        // Halving from this batch's size, not from maxOps: batches refused together must not shrink it once each.
        this.maxOps = Math.min(this.maxOps, Math.max(1, batch.length >> 1));
        await this.resend(batch, this.maxOps);
      } else if (batch.length > 1 && tooLarge(e)) {
        // The answers together exceed the gRPC receive limit: halves fit, down to a single key
        // (whose own error is then the caller's, as for an unbatched read).
        await this.resend(batch, Math.ceil(batch.length / 2));
      } else {
        for (const w of batch) w.reject(e);
      }
    }
  }

  private async resend(batch: readonly Waiter[], size: number): Promise<void> {
    const parts: Promise<void>[] = [];
    for (let i = 0; i < batch.length; i += size) parts.push(this.sendBatch(batch.slice(i, i + size)));
    await Promise.all(parts);
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function tooManyOps(e: unknown): boolean {
  return /too many operations in txn request/i.test(message(e));
}

function tooLarge(e: unknown): boolean {
  return /RESOURCE_EXHAUSTED|larger than max/i.test(message(e));
}
