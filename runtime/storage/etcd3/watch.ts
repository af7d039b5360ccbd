import type { Etcd3, IWatchResponse, IKeyValue } from 'etcd3';
import { CompactedError, type KVEvent, type KVWatch, type KVWatchHandler, type KVWatchRequest, type KeyValue } from '../kv.js';

// The etcd3 package types the stream by its messages only; at run time it is grpc-js's
// ClientDuplexStream, a Node stream, whose pause() stops reading and so applies HTTP/2 flow control.
type WatchStream = Awaited<ReturnType<Etcd3['watchClient']['watch']>> & Pick<NodeJS.ReadableStream, 'pause' | 'resume'>;

/** Backoff between reconnect attempts after the stream breaks (etcd down, leader lost…). */
const minBackoffMs = 100;
const maxBackoffMs = 1000;
/** A stream silent this long is asked for progress; one silent twice as long is restarted. */
const livenessMs = 10_000;

export function toKeyValue(kv: IKeyValue): KeyValue {
  return {
    key: kv.key.toString(),
    value: kv.value,
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
  };
}

/**
 * EtcdWatch is one watch on its own gRPC stream. It always asks for previous values, resumes
 * from the revision after the last one it delivered when the stream breaks (so no event is
 * lost or repeated), turns a compacted start into CompactedError (the etcd3 client's own
 * watcher drops compact_revision), and supports progress requests. Pausing stops reading the
 * stream, so gRPC flow control holds etcd back (the backpressure of kube's etcd3 watcher).
 */
export class EtcdWatch implements KVWatch {
  private stream: WatchStream | undefined;
  private nextRev: number;
  private cancelled = false;
  private backoff = minBackoffMs;
  private lastHeard = Date.now();
  private readonly liveness: NodeJS.Timeout;
  private pendingEvents: KVEvent[] = [];
  private paused = false;

  constructor(
    private readonly client: Etcd3,
    private readonly req: KVWatchRequest,
    private readonly handler: KVWatchHandler,
    private readonly onClose: (w: EtcdWatch) => void,
  ) {
    this.nextRev = req.startRevision;
    this.liveness = setInterval(() => this.checkLiveness(), livenessMs / 2);
    this.liveness.unref();
    void this.connect();
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    clearInterval(this.liveness);
    this.closeStream();
    this.onClose(this);
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.stream?.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    // A paused stream is silent by choice: liveness counts from now.
    this.lastHeard = Date.now();
    this.stream?.resume();
  }

  requestProgress(): void {
    try {
      this.stream?.write({ progress_request: {} });
    } catch {
      // A broken stream reconnects on its own.
    }
  }

  private async connect(): Promise<void> {
    if (this.cancelled) return;
    let stream: WatchStream;
    try {
      stream = (await this.client.watchClient.watch()) as WatchStream;
    } catch {
      this.scheduleReconnect();
      return;
    }
    // Cancelling a stream makes it emit 'error' (CANCELLED); it must always have a listener.
    stream.on('error', () => undefined);
    if (this.cancelled) {
      stream.cancel();
      return;
    }
    this.stream = stream;
    this.lastHeard = Date.now();
    let failed = false;
    const fail = (): void => {
      if (failed || this.stream !== stream) return;
      failed = true;
      this.closeStream();
      this.scheduleReconnect();
    };
    stream.on('data', (res) => {
      if (this.stream === stream) this.onResponse(res);
    });
    if (this.paused) stream.pause();
    stream.on('error', fail);
    stream.on('end', fail);
    stream.write({
      create_request: {
        key: Buffer.from(this.req.key),
        range_end: this.req.rangeEnd !== undefined ? Buffer.from(this.req.rangeEnd) : undefined,
        start_revision: this.nextRev,
        prev_kv: true,
        progress_notify: this.req.progressNotify ?? false,
      },
    });
  }

  private onResponse(res: IWatchResponse): void {
    this.lastHeard = Date.now();
    this.backoff = minBackoffMs;
    if (res.canceled) {
      const compactRev = Number(res.compact_revision);
      this.cancel();
      if (compactRev > 0) this.handler.onError(new CompactedError(this.nextRev, compactRev));
      else this.handler.onError(new Error(`etcd watch canceled: ${res.cancel_reason || 'unknown reason'}`));
      return;
    }
    const revision = Number(res.header.revision);
    if (res.events.length === 0) {
      if (res.created || res.fragment) return;
      // A progress notification: everything up to `revision` has been delivered.
      this.nextRev = Math.max(this.nextRev, revision + 1);
      this.handler.onProgress?.(revision);
      return;
    }
    for (const e of res.events) {
      const prevKv = e.prev_kv ? toKeyValue(e.prev_kv) : undefined;
      if (e.type === 'Put') this.pendingEvents.push({ type: 'PUT', kv: toKeyValue(e.kv), prevKv });
      else this.pendingEvents.push({ type: 'DELETE', key: e.kv.key.toString(), modRevision: Number(e.kv.mod_revision), prevKv });
    }
    if (res.fragment) return;
    const events = this.pendingEvents;
    this.pendingEvents = [];
    const last = events[events.length - 1];
    if (last) this.nextRev = (last.type === 'PUT' ? last.kv.modRevision : last.modRevision) + 1;
    this.handler.onEvents(events, revision);
  }

  private checkLiveness(): void {
    if (this.cancelled || !this.stream || this.paused) return;
    const silent = Date.now() - this.lastHeard;
    if (silent > livenessMs * 2) {
      this.closeStream();
      this.scheduleReconnect();
    } else if (silent > livenessMs) {
      this.requestProgress();
    }
  }

  private scheduleReconnect(): void {
    if (this.cancelled) return;
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, maxBackoffMs);
    this.pendingEvents = [];
    setTimeout(() => void this.connect(), delay).unref();
  }

  private closeStream(): void {
    const s = this.stream;
    this.stream = undefined;
    if (!s) return;
    try {
      s.end();
      s.cancel();
    } catch {
      // Already closed.
    }
  }
}
