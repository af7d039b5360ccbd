// Helpers of the informer integration tests: clients to a control plane (directly or through
// a TcpProxy), a RESTClient decorator counting list and watch requests, an event handler that
// replays add/update/delete calls into the state they imply, and polling with long timeouts.
import { loadClientConfig, restClientForConfig, type HTTPRESTClient } from '../../../runtime/client/index.js';
import { DeletedFinalStateUnknown, type DeepReadonly, type ResourceEventHandler, type RESTClient, type RESTRequest, type Watch } from '../../../runtime/client/index.js';
import type { RESTClientOptions } from '../../../runtime/client/index.js';

/** The admin client of a control plane; with `host`, through that address (a proxy) instead. */
export function adminClient(kubeconfigPath: string, o: { host?: string; options?: RESTClientOptions } = {}): HTTPRESTClient {
  const cc = loadClientConfig({ path: kubeconfigPath });
  return restClientForConfig({ ...o.options, ...cc.rest, ...(o.host === undefined ? {} : { host: o.host }) });
}

/** Passes every call on, counting list GETs and watches (what a relist or a resume costs). */
export class CountingRESTClient implements RESTClient {
  lists = 0;
  watches = 0;
  constructor(private readonly inner: RESTClient) {}

  request<R>(req: RESTRequest): Promise<R> {
    if (req.method === 'GET' && req.query?.['resourceVersion'] !== undefined) this.lists++;
    return this.inner.request<R>(req);
  }

  watch<T>(req: Omit<RESTRequest, 'method' | 'body' | 'contentType'>): Promise<Watch<T>> {
    this.watches++;
    return this.inner.watch<T>(req);
  }
}

interface Meta {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
}

export const keyOf = (o: DeepReadonly<Meta>): string => (o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata?.name ?? ''));
export const rvOf = (o: DeepReadonly<Meta>): string => o.metadata?.resourceVersion ?? '';

/** What a handler was told, in order. */
export type Notification =
  | { readonly kind: 'add'; readonly key: string; readonly rv: string; readonly initial: boolean }
  | { readonly kind: 'update'; readonly key: string; readonly oldRV: string; readonly rv: string }
  | { readonly kind: 'delete'; readonly key: string; readonly rv: string; readonly tombstone: boolean };

/**
 * A handler that keeps the state its notifications imply (key → resourceVersion) and records
 * every call breaking the sequence a consumer relies on: an add of a key it holds, an update
 * whose old object is not the one it holds, a delete of a key it does not hold.
 */
export class ReplayingHandler<T extends Meta> implements ResourceEventHandler<T> {
  readonly state = new Map<string, string>();
  readonly log: Notification[] = [];
  readonly violations: string[] = [];

  onAdd(obj: DeepReadonly<T>, isInInitialList: boolean): void {
    const key = keyOf(obj as DeepReadonly<Meta>);
    const rv = rvOf(obj as DeepReadonly<Meta>);
    if (this.state.has(key)) this.violations.push(`add of ${key}@${rv} already held at ${this.state.get(key)}`);
    this.state.set(key, rv);
    this.log.push({ kind: 'add', key, rv, initial: isInInitialList });
  }

  onUpdate(oldObj: DeepReadonly<T>, newObj: DeepReadonly<T>): void {
    const key = keyOf(newObj as DeepReadonly<Meta>);
    const oldRV = rvOf(oldObj as DeepReadonly<Meta>);
    const rv = rvOf(newObj as DeepReadonly<Meta>);
    if (this.state.get(key) !== oldRV) this.violations.push(`update of ${key} from ${oldRV} but held ${this.state.get(key)}`);
    this.state.set(key, rv);
    this.log.push({ kind: 'update', key, oldRV, rv });
  }

  onDelete(obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void {
    const tombstone = obj instanceof DeletedFinalStateUnknown;
    const last = (tombstone ? obj.obj : obj) as DeepReadonly<Meta>;
    const key = tombstone ? obj.key : keyOf(last);
    if (!this.state.has(key)) this.violations.push(`delete of ${key} not held`);
    this.state.delete(key);
    this.log.push({ kind: 'delete', key, rv: rvOf(last), tombstone });
  }
}

/** key → resourceVersion of objects. */
export function stateOf(objs: readonly DeepReadonly<Meta>[]): Map<string, string> {
  return new Map(objs.map((o) => [keyOf(o), rvOf(o)]));
}

/** The differences between two states, for failure messages (at most `max` lines). */
export function diffStates(want: ReadonlyMap<string, string>, got: ReadonlyMap<string, string>, max = 10): string[] {
  const out: string[] = [];
  for (const [k, rv] of want) if (got.get(k) !== rv) out.push(`${k}: want ${rv}, got ${got.get(k) ?? 'absent'}`);
  for (const [k, rv] of got) if (!want.has(k)) out.push(`${k}: want absent, got ${rv}`);
  return out.length > max ? [...out.slice(0, max), `… ${out.length - max} more`] : out;
}

export function sameState(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

/**
 * Polls `check` until it returns true (every 100 ms, or as soon as its promise settles when
 * slower), failing with `describe()` after `timeoutMs`. Conditions, never timings, are asserted.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number, describe: () => string | Promise<string>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let ok = false;
    let failure: unknown;
    try {
      ok = await check();
    } catch (e) {
      failure = e;
    }
    if (ok) return;
    if (Date.now() > deadline) {
      const why = failure === undefined ? '' : ` (last check threw: ${String(failure)})`;
      throw new Error(`condition not met within ${timeoutMs} ms${why}: ${await describe()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
export async function inParallel<I>(items: readonly I[], limit: number, fn: (item: I, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i] as I, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A small deterministic PRNG (mulberry32), so a failing churn run can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
