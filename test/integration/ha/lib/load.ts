// The load of the replica tests: writers that create and update ConfigMaps through the load
// balancer and remember what the servers acknowledged, and watchers that behave as client-go's
// reflector: list, then watch from the list's resourceVersion with bookmarks, and when a stream
// breaks, watch again from the last resourceVersion seen (through the balancer: usually another
// replica). verify() then checks what replicas and etcd promise: every acknowledged write is
// readable by a consistent read, and every watcher saw each of them exactly once, in order.
import assert from 'node:assert/strict';
import { Agent, request as httpsRequest } from 'node:https';
import { HttpsClient } from '../../https.js';
import type { Credentials } from '../../harness.js';

/** A write the client could not learn the outcome of, or a 5xx/429: when and why. */
export interface ClientError {
  at: number;
  startedAt: number;
  kind: 'connection' | 'http';
  detail: string;
}

export interface TrackedObject {
  name: string;
  /** Values the object may hold now: the last acknowledged one and any whose outcome is unknown since. */
  allowed: Set<number>;
  /** The resourceVersion the next update is conditioned on (undefined: read it first). */
  rv: string | undefined;
  exists: 'yes' | 'no' | 'unknown';
  updates: number;
}

export interface Ack {
  name: string;
  rv: bigint;
  value: number;
  at: number;
  startedAt: number;
}

interface SeenEvent {
  type: string;
  name: string;
  rv: bigint;
  value: number | undefined;
}

export const rvOf = (obj: Record<string, unknown>): string => String((obj['metadata'] as { resourceVersion?: string } | undefined)?.resourceVersion ?? '');
export const valueOf = (obj: Record<string, unknown>): number | undefined => {
  const v = (obj['data'] as Record<string, string> | undefined)?.['v'];
  return v === undefined ? undefined : Number(v);
};
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class Load {
  readonly acks: Ack[] = [];
  readonly errors: ClientError[] = [];
  readonly objects: TrackedObject[] = [];
  readonly watchers: Watcher[] = [];
  private readonly client: HttpsClient;
  private stopped = false;
  private running: Promise<void>[] = [];
  private seq = 0;

  constructor(
    private readonly creds: Credentials,
    readonly namespace: string,
    private readonly writers = 64,
    private readonly watcherCount = 8,
  ) {
    this.client = new HttpsClient(creds, { maxSockets: writers });
  }

  get cmPath(): string {
    return `/api/v1/namespaces/${this.namespace}/configmaps`;
  }

  /** Creates the namespace, lists its ConfigMaps and starts the watchers from the list's resourceVersion, then the writers. */
  async start(): Promise<void> {
    const ns = await this.client.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.namespace } });
    assert.equal(ns.status, 201, JSON.stringify(ns.body));
    const list = await this.client.json('GET', this.cmPath);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const from = rvOf(list.body);
    for (let i = 0; i < this.watcherCount; i++) {
      const w = new Watcher(this.creds, `${this.cmPath}`, from);
      this.watchers.push(w);
      w.run();
    }
    this.running = Array.from({ length: this.writers }, (_, i) => this.writer(i));
  }

  /** Acknowledged writes since `t` (performance.now()). */
  acksSince(t: number): number {
    return this.acks.filter((a) => a.startedAt >= t).length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private async writer(i: number): Promise<void> {
    let obj: TrackedObject | undefined;
    let n = 0;
    while (!this.stopped) {
      if (obj === undefined || (obj.exists === 'yes' && obj.rv !== undefined && obj.updates >= 4) || obj.exists === 'no') {
        obj = { name: `w${i}-${n++}`, allowed: new Set(), rv: undefined, exists: 'unknown', updates: 0 };
        this.objects.push(obj);
        await this.write(obj, 'POST');
      } else if (obj.rv === undefined) {
        await this.resync(obj);
      } else {
        obj.updates++;
        await this.write(obj, 'PUT');
      }
    }
  }

  /** One create or update; an unknown outcome leaves the value allowed and the object to be read again. */
  private async write(obj: TrackedObject, method: 'POST' | 'PUT'): Promise<void> {
    const value = ++this.seq;
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: obj.name, ...(method === 'PUT' ? { resourceVersion: obj.rv } : {}) }, data: { v: String(value) } };
    const startedAt = performance.now();
    try {
      const r = await this.client.json(method, method === 'POST' ? this.cmPath : `${this.cmPath}/${obj.name}`, body);
      if (r.status === 201 || r.status === 200) {
        obj.allowed = new Set([value]);
        obj.rv = rvOf(r.body);
        obj.exists = 'yes';
        this.acks.push({ name: obj.name, rv: BigInt(obj.rv), value, at: performance.now(), startedAt });
        return;
      }
      this.errors.push({ at: performance.now(), startedAt, kind: 'http', detail: `${method} ${r.status} ${String(r.body['reason'] ?? '')}: ${String(r.body['message'] ?? '').slice(0, 200)}` });
      // A 409 or 4xx is a definite refusal; a 5xx (timeout, storage unavailable) may have been applied.
      if (r.status >= 500) obj.allowed.add(value);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      this.errors.push({ at: performance.now(), startedAt, kind: 'connection', detail: `${method} ${err.code ?? ''} ${err.message}` });
      obj.allowed.add(value);
    }
    obj.rv = undefined;
    if (obj.exists !== 'yes') obj.exists = 'unknown';
    await sleep(50);
  }

  /** Reads the object (a consistent read) to learn what an unknown-outcome write did. */
  private async resync(obj: TrackedObject): Promise<void> {
    try {
      const r = await this.client.json('GET', `${this.cmPath}/${obj.name}`);
      if (r.status === 200) {
        const v = valueOf(r.body);
        assert.ok(v !== undefined && obj.allowed.has(v), `${obj.name} holds ${v}, allowed ${[...obj.allowed].join(',')}`);
        obj.allowed = new Set([v]);
        obj.rv = rvOf(r.body);
        obj.exists = 'yes';
        return;
      }
      if (r.status === 404 && obj.exists === 'unknown') {
        obj.exists = 'no';
        return;
      }
      assert.ok(r.status >= 500 || r.status === 429, `GET ${obj.name}: ${r.status} ${JSON.stringify(r.body)}`);
    } catch (e) {
      if (e instanceof assert.AssertionError) throw e;
    }
    await sleep(100);
  }

  /**
   * After stop(): every tracked object, read consistently, holds an allowed value (no acknowledged
   * write lost), and every watcher saw every acknowledged write and the final state of every
   * object exactly once, in resourceVersion order.
   */
  async verify(timeoutMs = 120_000): Promise<{ objects: number; acks: number; watchBreaks: number; watchRetries: number }> {
    const finalRV = new Map<string, bigint>();
    for (const obj of this.objects) {
      let r = await this.client.json('GET', `${this.cmPath}/${obj.name}`);
      for (let i = 0; r.status >= 500 && i < 20; i++) {
        await sleep(500);
        r = await this.client.json('GET', `${this.cmPath}/${obj.name}`);
      }
      if (r.status === 404) {
        assert.notEqual(obj.exists, 'yes', `${obj.name}: an acknowledged create is lost`);
        continue;
      }
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const v = valueOf(r.body);
      assert.ok(v !== undefined && obj.allowed.has(v), `${obj.name} holds ${v}: an acknowledged write is lost (allowed ${[...obj.allowed].join(',')})`);
      finalRV.set(obj.name, BigInt(rvOf(r.body)));
    }
    const maxRV = [...this.acks.map((a) => a.rv), ...finalRV.values()].reduce((a, b) => (a > b ? a : b), 0n);
    await Promise.all(this.watchers.map((w) => w.until(maxRV, timeoutMs)));
    for (const [wi, w] of this.watchers.entries()) {
      assert.deepEqual(w.fatal, [], `watcher ${wi}: ${w.fatal.join('; ')}`);
      const mine = w.events.filter((e) => /^w\d+-\d+$/.test(e.name));
      for (let i = 1; i < mine.length; i++) assert.ok(mine[i]!.rv > mine[i - 1]!.rv, `watcher ${wi}: event ${i} at ${mine[i]!.rv} after ${mine[i - 1]!.rv} (out of order or duplicated)`);
      const byRV = new Map(mine.map((e) => [e.rv, e]));
      for (const a of this.acks) {
        const e = byRV.get(a.rv);
        assert.ok(e !== undefined, `watcher ${wi}: no event for acknowledged write ${a.name}=${a.value} at ${a.rv}`);
        assert.equal(e.name, a.name);
        assert.equal(e.value, a.value);
      }
      for (const [name, rv] of finalRV) assert.equal(byRV.get(rv)?.name, name, `watcher ${wi}: no event for the final state of ${name} at ${rv}`);
    }
    return {
      objects: this.objects.length,
      acks: this.acks.length,
      watchBreaks: this.watchers.reduce((s, w) => s + w.breaks, 0),
      watchRetries: this.watchers.reduce((s, w) => s + w.retries.length, 0),
    };
  }

  close(): void {
    for (const w of this.watchers) w.close();
    this.client.close();
  }
}

/** client-go's reflector watch loop (without its relist): resume from the last resourceVersion seen. */
export class Watcher {
  readonly events: SeenEvent[] = [];
  /** Streams that ended or broke and were resumed. */
  breaks = 0;
  /** Watch requests answered with an error status before a stream started (retried). */
  readonly retries: string[] = [];
  /** What makes the watch unusable: an expired resourceVersion (410) the reflector would relist on. */
  readonly fatal: string[] = [];
  lastRV: string;
  private closed = false;
  private abort: (() => void) | undefined;
  private readonly agent: Agent;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly creds: Credentials,
    private readonly path: string,
    from: string,
  ) {
    this.lastRV = from;
    this.agent = new Agent({ keepAlive: false, ca: creds.caPEM, ...(creds.certPEM && creds.keyPEM ? { cert: creds.certPEM, key: creds.keyPEM } : {}) });
  }

  run(): void {
    void (async () => {
      while (!this.closed && this.fatal.length === 0) {
        await this.once();
        if (!this.closed) await sleep(100);
      }
    })();
  }

  /** Resolves once an event or bookmark at or past `rv` arrived. */
  async until(rv: bigint, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (BigInt(this.lastRV) < rv) {
      if (this.fatal.length > 0) return;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`watcher at ${this.lastRV} did not reach ${rv} within ${timeoutMs} ms (breaks ${this.breaks}, retries ${this.retries.slice(-3).join('; ')})`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  private once(): Promise<void> {
    const u = new URL(this.creds.server);
    const path = `${this.path}?watch=1&allowWatchBookmarks=true&resourceVersion=${this.lastRV}`;
    return new Promise<void>((resolve) => {
      const req = httpsRequest({ host: u.hostname, port: u.port, path, agent: this.agent, headers: { Accept: 'application/json' } }, (res) => {
        if (res.statusCode !== 200) {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => {
            this.retries.push(`${res.statusCode}: ${text.slice(0, 200)}`);
            resolve();
          });
          res.on('error', () => resolve());
          return;
        }
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString('utf8');
          let i: number;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (line.trim() !== '') this.onEvent(JSON.parse(line) as { type: string; object: Record<string, unknown> });
          }
        });
        let ended = false;
        const done = (): void => {
          if (ended) return;
          ended = true;
          if (!this.closed) this.breaks++;
          resolve();
        };
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      });
      this.abort = () => req.destroy();
      req.on('error', (e) => {
        this.retries.push(`request: ${e.message}`);
        resolve();
      });
      req.end();
    });
  }

  private onEvent(ev: { type: string; object: Record<string, unknown> }): void {
    if (ev.type === 'ERROR') {
      const code = (ev.object as { code?: number }).code;
      // 410 Gone: the resourceVersion is compacted away; the reflector would relist, losing the
      // exactly-once guarantee this test checks: a failure here.
      if (code === 410) this.fatal.push(`410 at ${this.lastRV}: ${String(ev.object['message'])}`);
      else this.retries.push(`ERROR event ${code}: ${String(ev.object['message'])}`);
      this.abort?.();
      return;
    }
    const rv = rvOf(ev.object);
    if (ev.type !== 'BOOKMARK') {
      const name = String((ev.object['metadata'] as { name?: string } | undefined)?.name ?? '');
      this.events.push({ type: ev.type, name, rv: BigInt(rv), value: valueOf(ev.object) });
    }
    this.lastRV = rv;
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  close(): void {
    this.closed = true;
    this.abort?.();
    this.agent.destroy();
  }
}
