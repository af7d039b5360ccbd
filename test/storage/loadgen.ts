import * as fields from '../../runtime/apimachinery/fields/index.js';
import * as labels from '../../runtime/apimachinery/labels/index.js';
import type { Interface } from '../../runtime/storage/interfaces.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';

export interface OpRecord {
  start: number;
  end: number;
  ok: boolean;
  error?: string;
}

/**
 * Concurrent creators for fault tests: records every call's start, end and outcome, and the
 * keys whose create was acknowledged (with the returned resourceVersion).
 */
export class LoadGenerator {
  readonly acked = new Map<string, number>();
  readonly ops: OpRecord[] = [];
  readonly inflight = new Set<OpRecord>();
  private running = false;
  private loops: Promise<void>[] = [];
  private seq = 0;

  constructor(
    private readonly store: Interface,
    private readonly opts: { workers: number; namePrefix: string; pauseMs?: number },
  ) {}

  start(): void {
    this.running = true;
    this.loops = Array.from({ length: this.opts.workers }, (_, w) => this.loop(w));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(w: number): Promise<void> {
    while (this.running) {
      const name = `${this.opts.namePrefix}-${w}-${this.seq++}`;
      const rec: OpRecord = { start: Date.now(), end: 0, ok: false };
      this.inflight.add(rec);
      try {
        const out = await this.store.create(`/configmaps/default/${name}`, obj(name));
        rec.ok = true;
        this.acked.set(name, Number(out.metadata?.resourceVersion));
      } catch (e) {
        rec.error = (e as Error).message;
        // Back off a little after a failure instead of spinning.
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        rec.end = Date.now();
        this.inflight.delete(rec);
        this.ops.push(rec);
      }
      if (this.opts.pauseMs) await new Promise((r) => setTimeout(r, this.opts.pauseMs));
    }
  }
}

export function obj(name: string): StoredObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { v: 'x'.repeat(200) } };
}

/**
 * A client-go style reflector on a storage: list, then watch from the list's revision with
 * bookmarks; re-watch from the last revision when a watch ends, relist on 410, retry on 429.
 * `seen` is the client's view of object names.
 */
export class Reflector {
  readonly seen = new Set<string>();
  relists = 0;
  rewatches = 0;
  private rv = '';
  private running = true;
  private current: { stop(): void } | undefined;
  readonly done: Promise<void>;

  constructor(private readonly store: Interface) {
    this.done = this.run();
  }

  stop(): void {
    this.running = false;
    this.current?.stop();
  }

  private async run(): Promise<void> {
    let needList = true;
    while (this.running) {
      try {
        if (needList) {
          const list = await this.store.getList('/configmaps/', { recursive: true, resourceVersion: '0' });
          this.seen.clear();
          for (const o of list.items) this.seen.add(String(o.metadata?.name));
          this.rv = list.resourceVersion;
          this.relists++;
          needList = false;
        }
        const w = await this.store.watch('/configmaps/', {
          recursive: true,
          resourceVersion: this.rv,
          predicate: { label: labels.everything(), field: fields.everything(), allowWatchBookmarks: true },
        });
        this.current = w;
        this.rewatches++;
        for await (const ev of w) {
          if (ev.type === 'ERROR') {
            if (ev.object.code === 410) needList = true;
            break;
          }
          this.rv = String(ev.object.metadata?.resourceVersion ?? this.rv);
          const name = String(ev.object.metadata?.name);
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.seen.add(name);
          else if (ev.type === 'DELETED') this.seen.delete(name);
        }
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }
}

/** Polls cond every 20 ms until true; returns the time it took, or throws after timeoutMs. */
export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await cond()) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
