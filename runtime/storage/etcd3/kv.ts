import type { Etcd3, IKeyValue, IRangeResponse } from 'etcd3';
import { type GetResponse, type KV, type KVWatch, type KVWatchHandler, type KVWatchRequest, type ListRequest, type ListResponse, type PutOptions, type TxnResponse } from '../kv.js';
import { txnRequestSize } from './client.js';
import { mapEtcdError, mapEtcdReadError, mapEtcdWriteError, neverSent, retryableRead, sendLimitError } from './errors.js';
import { LeaseManager } from './leases.js';
import { RangeBatcher, etcdRangeTxn } from './rangeBatcher.js';
import { EtcdWatch, toKeyValue } from './watch.js';

export interface EtcdKVOptions {
  /** Keys per range request when a list is split into pages (replies stay under gRPC's 4 MiB default). */
  listPageSize?: number;
  /** Key read by healthCheck (kube reads `<prefix>/health`). */
  healthKey?: string;
  /**
   * The most one read may take, retries included (default 10 s, the client's per-call deadline):
   * a retry never restarts the clock, so a hung etcd fails a read once, not once per attempt.
   */
  requestTimeoutMs?: number;
}

const defaultPageSize = 500;
const defaultRequestTimeoutMs = 10_000;
/** Tries of a write that failed before reaching etcd (connection refused): never a write that may have committed. */
const unsentRetries = 3;
/** etcd's Go client: a read failing with Unavailable is sent again up to 100 times, 25 ms (±10%) apart, within its deadline. */
const readRetries = 100;
const readRetryPauseMs = 25;

/**
 * EtcdKV implements the KV contract on etcd through the etcd3 client: creates and updates are
 * single `If(mod_revision == r) Then(put) Else(range)` transactions, deletes likewise; lists are
 * paged at one pinned revision; each watch is an EtcdWatch stream that resumes after breaks.
 */
export class EtcdKV implements KV {
  private readonly leases: LeaseManager;
  private readonly watches = new Set<EtcdWatch>();
  private observedCompactRev = 0;
  private readonly pageSize: number;
  /** Consistent single-key reads (gets, and the current revision before a read from the watch cache). */
  private readonly reads: RangeBatcher;

  constructor(
    readonly client: Etcd3,
    private readonly opts: EtcdKVOptions = {},
  ) {
    this.leases = new LeaseManager(client);
    this.pageSize = opts.listPageSize ?? defaultPageSize;
    this.reads = new RangeBatcher(etcdRangeTxn(client));
  }

  async get(key: string, opts: { revision?: number } = {}): Promise<GetResponse> {
    if (opts.revision) {
      const resp = await this.range({ key: Buffer.from(key), revision: opts.revision }, opts.revision);
      const kv = resp.kvs[0];
      return { kv: kv ? toKeyValue(kv) : undefined, revision: opts.revision };
    }
    const k = Buffer.from(key);
    const { kv, revision } = await this.read((deadline) => this.reads.get(k, deadline), 0);
    return { kv: kv ? toKeyValue(kv) : undefined, revision };
  }

  async list(req: ListRequest): Promise<ListResponse> {
    const limit = req.limit && req.limit > 0 ? req.limit : Infinity;
    const end = Buffer.from(req.rangeEnd);
    let revision = req.revision ?? 0;
    let start = Buffer.from(req.key);
    let count = -1;
    let page = this.pageSize;
    const kvs: IKeyValue[] = [];
    for (;;) {
      const want = Math.min(page, limit - kvs.length);
      let resp: IRangeResponse;
      try {
        resp = await this.range({ key: start, range_end: end, revision: revision || undefined, limit: want }, revision);
      } catch (e) {
        // A page of large objects exceeded the gRPC receive limit: retry it smaller.
        if (/RESOURCE_EXHAUSTED|ResourceExhausted|larger than max/i.test((e as Error).message) && page > 1) {
          page = Math.max(1, Math.floor(page / 2));
          continue;
        }
        throw e;
      }
      if (revision === 0) revision = Number(resp.header.revision);
      if (count < 0) count = Number(resp.count);
      kvs.push(...resp.kvs);
      const last = resp.kvs[resp.kvs.length - 1];
      if (!resp.more || kvs.length >= limit || !last) break;
      start = Buffer.concat([last.key, Buffer.from([0])]);
    }
    return { kvs: kvs.map(toKeyValue), count: Math.max(count, 0), revision };
  }

  async count(key: string, rangeEnd: string): Promise<number> {
    const resp = await this.range({ key: Buffer.from(key), range_end: Buffer.from(rangeEnd), count_only: true }, 0);
    return Number(resp.count);
  }

  async optimisticPut(key: string, value: Buffer, expectedRevision: number, opts: PutOptions = {}): Promise<TxnResponse> {
    const k = Buffer.from(key);
    // A lease grant that failed left the object unwritten, so its error is mapped as a read's:
    // sending the request again is safe (a granted lease nobody uses just expires).
    const lease = opts.ttlSeconds ? await this.call(() => this.leases.getLease(opts.ttlSeconds ?? 0)) : undefined;
    return this.txn(k, expectedRevision, { request_put: { key: k, value, lease } });
  }

  async optimisticDelete(key: string, expectedRevision: number): Promise<TxnResponse> {
    const k = Buffer.from(key);
    return this.txn(k, expectedRevision, { request_delete_range: { key: k } });
  }

  watch(req: KVWatchRequest, handler: KVWatchHandler): KVWatch {
    const w = new EtcdWatch(this.client, req, handler, (x) => this.watches.delete(x));
    this.watches.add(w);
    return w;
  }

  async requestProgress(): Promise<void> {
    for (const w of this.watches) w.requestProgress();
  }

  async supportsRequestWatchProgress(): Promise<boolean> {
    this.progressSupport ??= this.client.maintenance
      .status({})
      .then((st) => progressRequestsOrdered(st.version))
      .catch(() => {
        this.progressSupport = undefined;
        return false;
      });
    return this.progressSupport;
  }
  private progressSupport: Promise<boolean> | undefined;

  async compact(revision: number): Promise<void> {
    try {
      await this.call((options) => this.client.kv.compact({ revision, physical: true }, options));
    } catch (e) {
      // Compacting at or below the current compaction is a no-op for us.
      if (!/has been compacted/.test((e as Error).message)) throw e;
    }
    this.observedCompactRev = Math.max(this.observedCompactRev, revision);
  }

  compactRevision(): number {
    return this.observedCompactRev;
  }

  async healthCheck(): Promise<void> {
    await this.range({ key: Buffer.from(this.opts.healthKey ?? '/registry/health') }, 0);
  }

  async close(): Promise<void> {
    for (const w of [...this.watches]) w.cancel();
    this.client.close();
  }

  private range(req: Parameters<Etcd3['kv']['range']>[0], revision: number): Promise<IRangeResponse> {
    return this.read((deadline) => this.client.kv.range(req, { deadline }), revision);
  }

  private async read<R>(fn: (deadline: number) => Promise<R>, revision: number): Promise<R> {
    const deadline = Date.now() + (this.opts.requestTimeoutMs ?? defaultRequestTimeoutMs);
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn(deadline);
      } catch (e) {
        // Reads are idempotent: as etcd's client, send again what etcd could not serve now
        // (leader changed, no leader, no connection; another member may answer), within the one
        // deadline; the last error is the caller's.
        const pause = readRetryPauseMs * (0.9 + 0.2 * Math.random());
        if (retryableRead(e) && attempt < readRetries && Date.now() + pause < deadline) {
          await sleep(pause);
          continue;
        }
        throw mapEtcdReadError(e, revision);
      }
    }
  }

  private async txn(key: Buffer, expectedRevision: number, op: NonNullable<Parameters<Etcd3['kv']['txn']>[0]['success']>[number]): Promise<TxnResponse> {
    const request = {
      compare: [{ key, target: 'Mod' as const, result: 'Equal' as const, mod_revision: expectedRevision }],
      success: [op],
      failure: [{ request_range: { key } }],
    };
    const resp = await this.call(
      (options) => this.client.kv.txn(request, options),
      (e) => sendLimitError(e, () => txnRequestSize(request)) ?? mapEtcdWriteError(e),
    );
    if (resp.succeeded) return { succeeded: true, revision: Number(resp.header.revision) };
    const kv = resp.responses[0]?.response_range?.kvs[0];
    return { succeeded: false, revision: Number(resp.header.revision), kv: kv ? toKeyValue(kv) : undefined };
  }

  /**
   * Runs a call, retrying only failures that prove the request never left this process, all
   * within one deadline (as range does); `mapError` is mapEtcdWriteError for a put or delete,
   * whose outcome a lost connection or a deadline leaves unknown.
   */
  private async call<R>(fn: (options: { deadline: number }) => Promise<R>, mapError: (e: unknown) => Error = mapEtcdError): Promise<R> {
    const deadline = Date.now() + (this.opts.requestTimeoutMs ?? defaultRequestTimeoutMs);
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn({ deadline });
      } catch (e) {
        const pause = 100 * (attempt + 1);
        if (neverSent(e) && attempt < unsentRetries && Date.now() + pause < deadline) {
          await sleep(pause);
          continue;
        }
        throw mapError(e);
      }
    }
  }
}

/**
 * etcd answers progress requests in order with events from 3.4.31 and 3.5.13 on (etcd-io/etcd
 * #15220); older servers may report a revision before the events up to it.
 */
export function progressRequestsOrdered(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((p) => Number.parseInt(p, 10) || 0);
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 31;
  if (minor === 5) return patch >= 13;
  return minor > 5;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
