// Writers and readers on one replica that record every request's answer and what each ConfigMap
// may hold: the value of the last acknowledged write plus any written since whose outcome is
// unknown (a timeout or the etcd client's error), and the values whose writes the server said
// never left (ServerTimeout with Retry-After), which must never be stored.
import { classify, type Answer, type Op } from './answers.js';
import { rvOf, sleep, valueOf, type TrackedObject } from './load.js';
import type { HttpsClient, RawResponse } from '../../https.js';

export interface Sent {
  replica: string;
  op: Op;
  startedAt: number;
  ms: number;
  answer: Answer | 'connection' | 'wrong';
  detail: string;
}

/** An object of load.ts's, and the values answered as never sent (which it must not hold). */
export interface Tracked extends TrackedObject {
  unsent: Set<number>;
}

export interface Ack {
  name: string;
  rv: bigint;
  value: number;
  at: number;
}

/** Shared by the loads of both replicas: one sequence of values, so each write is told apart. */
export class Ledger {
  readonly sent: Sent[] = [];
  readonly objects: Tracked[] = [];
  readonly acks: Ack[] = [];
  /** Values of writes whose outcome the answer left open. */
  readonly uncertain: number[] = [];
  seq = 0;
}

export class TrackedLoad {
  private stopped = false;
  private running: Promise<void>[] = [];

  constructor(
    readonly replica: string,
    private readonly client: HttpsClient,
    private readonly namespace: string,
    private readonly ledger: Ledger,
    /** An object that exists, for the readers. */
    private readonly fixed: string,
  ) {}

  private get cms(): string {
    return `/api/v1/namespaces/${this.namespace}/configmaps`;
  }

  start(writers: number): void {
    this.running = [...Array.from({ length: writers }, (_, i) => this.writer(i)), this.creator(), this.reader()];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private async send(op: Op, method: string, path: string, body?: unknown): Promise<{ r: RawResponse; answer: Sent['answer'] } | undefined> {
    const startedAt = performance.now();
    const rec: Sent = { replica: this.replica, op, startedAt, ms: 0, answer: 'connection', detail: '' };
    this.ledger.sent.push(rec);
    try {
      const r = await this.client.request({
        method,
        path,
        headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        timeoutMs: 180_000,
      });
      rec.ms = performance.now() - startedAt;
      try {
        rec.answer = classify(op, r);
      } catch (e) {
        rec.answer = 'wrong';
        rec.detail = (e as Error).message.slice(0, 500);
      }
      if (rec.answer !== '2xx' && rec.answer !== 'wrong') rec.detail = r.text.slice(0, 300);
      return { r, answer: rec.answer };
    } catch (e) {
      rec.ms = performance.now() - startedAt;
      rec.detail = (e as Error).message;
      return undefined;
    }
  }

  private async writer(i: number): Promise<void> {
    let obj: Tracked | undefined;
    let n = 0;
    while (!this.stopped) {
      if (obj === undefined || obj.exists === 'no' || (obj.exists === 'yes' && obj.rv !== undefined && obj.updates >= 4)) {
        obj = { name: `${this.replica.toLowerCase()}${i}-${n++}`, allowed: new Set(), unsent: new Set(), rv: undefined, exists: 'unknown', updates: 0 };
        this.ledger.objects.push(obj);
        await this.write(obj, 'create');
      } else if (obj.rv === undefined) {
        await this.resync(obj);
      } else {
        obj.updates++;
        await this.write(obj, 'update');
      }
      await sleep(100);
    }
  }

  private async write(obj: Tracked, op: 'create' | 'update'): Promise<void> {
    const value = ++this.ledger.seq;
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: obj.name, ...(op === 'update' ? { resourceVersion: obj.rv } : {}) }, data: { v: String(value) } };
    const res = await (op === 'create' ? this.send(op, 'POST', this.cms, body) : this.send(op, 'PUT', `${this.cms}/${obj.name}`, body));
    if (res?.answer === '2xx') {
      const parsed = JSON.parse(res.r.text) as Record<string, unknown>;
      obj.allowed = new Set([value]);
      obj.rv = rvOf(parsed);
      obj.exists = 'yes';
      this.ledger.acks.push({ name: obj.name, rv: BigInt(obj.rv), value, at: performance.now() });
      return;
    }
    if (res?.answer === 'ServerTimeout') obj.unsent.add(value);
    // Conflict is a definite refusal; anything else may have been applied.
    else if (res?.answer !== 'Conflict') {
      obj.allowed.add(value);
      this.ledger.uncertain.push(value);
    }
    obj.rv = undefined;
    if (obj.exists !== 'yes') obj.exists = 'unknown';
  }

  /**
   * Creates only, never reading back: the writers stop writing while they cannot learn what an
   * uncertain write did, so this one keeps writes going to B through the whole partition.
   */
  private async creator(): Promise<void> {
    for (let n = 0; !this.stopped; n++) {
      const obj: Tracked = { name: `${this.replica.toLowerCase()}c-${n}`, allowed: new Set(), unsent: new Set(), rv: undefined, exists: 'unknown', updates: 0 };
      this.ledger.objects.push(obj);
      await this.write(obj, 'create');
      await sleep(200);
    }
  }

  /** A consistent read to learn what writes of unknown outcome did. */
  private async resync(obj: Tracked): Promise<void> {
    const res = await this.send('get', 'GET', `${this.cms}/${obj.name}`);
    if (res?.answer === '2xx') {
      const parsed = JSON.parse(res.r.text) as Record<string, unknown>;
      const v = valueOf(parsed);
      if (v === undefined || !obj.allowed.has(v)) {
        this.ledger.sent.push({ replica: this.replica, op: 'get', startedAt: performance.now(), ms: 0, answer: 'wrong', detail: `${obj.name} holds ${v}, allowed ${[...obj.allowed].join(',')}` });
      } else obj.allowed = new Set([v]);
      obj.rv = rvOf(parsed);
      obj.exists = 'yes';
    } else if (res?.answer === 'NotFound' && obj.exists === 'unknown') obj.exists = 'no';
  }

  /** A consistent get, a consistent list and a list from the watch cache, over and over. */
  private async reader(): Promise<void> {
    while (!this.stopped) {
      await this.send('get', 'GET', `${this.cms}/${this.fixed}`);
      await this.send('list', 'GET', this.cms);
      await this.send('list-rv0', 'GET', `${this.cms}?resourceVersion=0`);
      await sleep(200);
    }
  }
}
