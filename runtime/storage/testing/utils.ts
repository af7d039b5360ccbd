import assert from 'node:assert/strict';
import { encodeContinue } from '../continue.js';
import { isNotFound } from '../errors.js';
import type { Interface, WatchEvent, Watcher } from '../interfaces.js';
import type { ObjectMeta, StoredObject } from '../../apimachinery/object.js';
import type { TransformContext, ValueTransformer } from '../transformer.js';
import { CorruptDataError } from '../kvstore/codec.js';
import type * as fields from '../../apimachinery/fields/index.js';
import * as labels from '../../apimachinery/labels/index.js';
import type { AttrFunc, SelectionPredicate } from '../selectionPredicate.js';
import { defaultClusterScopedAttr, defaultNamespaceScopedAttr } from '../selectionPredicate.js';

/** The example.Pod of the Go suite, as a JSON object. */
export interface Pod extends StoredObject {
  metadata: ObjectMeta;
  spec?: { nodeName?: string; restartPolicy?: string; terminationGracePeriodSeconds?: number; schedulerName?: string };
  status?: { phase?: string };
}

export type PodStore = Interface<Pod>;

/** wait.ForeverTestTimeout: how long a test waits for an event it expects. */
export const foreverTestTimeout = 30_000;

export function computePodKey(obj: Pod): string {
  return `/pods/${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

export function pod(name: string, namespace = '', extra: Partial<Pod> = {}): Pod {
  const metadata: ObjectMeta = { name };
  if (namespace) metadata.namespace = namespace;
  return { ...extra, metadata: { ...metadata, ...(extra.metadata ?? {}) } };
}

/** A mutable deep copy (objects served by a cache are frozen). */
export function clone<T>(v: T): T {
  return structuredClone(v) as T;
}

/** The object with a different resourceVersion, copied. */
export function withRV<T extends StoredObject>(obj: T, rv: string | undefined): T {
  const c = clone(obj);
  c.metadata ??= {};
  if (rv === undefined || rv === '') delete c.metadata.resourceVersion;
  else c.metadata.resourceVersion = rv;
  return c;
}

export function rvOf(obj: StoredObject | undefined): string {
  return obj?.metadata?.resourceVersion ?? '';
}

export function mustAtoi(s: string): number {
  const n = Number(s);
  assert.ok(Number.isInteger(n), `not an integer: ${s}`);
  return n;
}

/** testPropagateStore: deletes then creates obj, returning its key and the stored object. */
export async function testPropagateStore(store: PodStore, obj: Pod): Promise<{ key: string; stored: Pod }> {
  const key = computePodKey(obj);
  try {
    await store.delete(key);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  return { key, stored: await store.create(key, clone(obj)) };
}

export function expectNoDiff(msg: string, expected: unknown, actual: unknown): void {
  assert.deepStrictEqual(normalize(actual), normalize(expected), msg);
}

export function expectContains(msg: string, alternatives: readonly unknown[], got: unknown): void {
  const g = normalize(got);
  for (const alt of alternatives) {
    try {
      assert.deepStrictEqual(g, normalize(alt));
      return;
    } catch {
      // try the next alternative
    }
  }
  assert.fail(`${msg}: differs from all alternatives: got ${JSON.stringify(got)}, alternatives ${JSON.stringify(alternatives)}`);
}

/** Frozen and unfrozen objects compare equal; undefined stands for Go's zero object. */
function normalize(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

const dummyPrefix = 'adapter';

export function encodeContinueOrDie(key: string, resourceVersion: number): string {
  return encodeContinue(dummyPrefix + key, dummyPrefix, resourceVersion);
}

export function decodeToken(token: string): unknown {
  return JSON.parse(Buffer.from(token, 'base64url').toString());
}

/** Receives the next event or fails after `timeoutMs` without consuming anything. */
export async function receiveWithin<T>(w: Watcher<T>, timeoutMs: number): Promise<WatchEvent<T> | undefined | 'timeout'> {
  // A referenced timer: it keeps the event loop alive while the backend's own timers are unref'd.
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  try {
    return await w.receive({ signal: ac.signal });
  } catch (e) {
    if (ac.signal.aborted) return 'timeout';
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

export async function testCheckEventType(w: Watcher<Pod>, type: WatchEvent['type']): Promise<void> {
  const ev = await receiveWithin(w, foreverTestTimeout);
  assert.notEqual(ev, 'timeout', `time out after waiting ${foreverTestTimeout}ms on the watch`);
  assert.equal((ev as WatchEvent<Pod> | undefined)?.type, type, `event type: ${JSON.stringify(ev)}`);
}

export async function testCheckResultFunc(w: Watcher<Pod>, check: (ev: WatchEvent<Pod>) => void): Promise<void> {
  const ev = await receiveWithin(w, foreverTestTimeout);
  assert.notEqual(ev, 'timeout', `time out after waiting ${foreverTestTimeout}ms on the watch`);
  assert.ok(ev !== undefined && ev !== 'timeout', 'watch closed, expected an event');
  check(ev);
}

export async function testCheckResult(w: Watcher<Pod>, expected: WatchEvent<Pod>): Promise<void> {
  await testCheckResultFunc(w, (ev) => expectNoDiff('incorrect event', expected, ev));
}

export async function testCheckResultsInStrictOrder(w: Watcher<Pod>, expected: readonly WatchEvent<Pod>[]): Promise<void> {
  for (const e of expected) await testCheckResult(w, e);
}

/** The watch must end (iterator finished) within the timeout, with no further event. */
export async function testCheckStop(w: Watcher<Pod>): Promise<void> {
  const ev = await receiveWithin(w, foreverTestTimeout);
  assert.notEqual(ev, 'timeout', 'time out waiting for the watch to close');
  assert.equal(ev, undefined, `watch should have been closed, got ${JSON.stringify(ev)}`);
}

export async function testCheckNoMoreResultsWithIgnoreFunc(w: Watcher<Pod>, ignore?: (ev: WatchEvent<Pod>) => boolean): Promise<void> {
  const ev = await receiveWithin(w, 100);
  if (ev === 'timeout') return;
  if (ev && ignore?.(ev)) return;
  assert.fail(`unexpected event ${JSON.stringify(ev)}, expected no events`);
}

/**
 * Expected events in order, ignoring some, and nothing else within 150 ms after them. (The Go
 * helper gives every event only 150 ms; here each expected event may take the usual timeout, so
 * a busy machine cannot fail the test, and the short window only checks for extra events.)
 */
export async function testCheckResultWithIgnoreFunc(w: Watcher<Pod>, expected: readonly WatchEvent<Pod>[], ignore: (ev: WatchEvent<Pod>) => boolean): Promise<void> {
  for (const want of expected) {
    for (;;) {
      const ev = await receiveWithin(w, foreverTestTimeout);
      assert.ok(ev !== 'timeout' && ev !== undefined, `did not receive the expected event ${JSON.stringify(want)}`);
      if (ignore(ev)) continue;
      expectNoDiff('incorrect event', want, ev);
      break;
    }
  }
  for (;;) {
    const ev = await receiveWithin(w, 150);
    if (ev === 'timeout' || ev === undefined) return;
    if (!ignore(ev)) assert.fail(`expected no more events, got ${JSON.stringify(ev)}`);
  }
}

export function resourceVersionNotOlderThan(sentinel: string): (rv: string) => void {
  return (rv) => {
    assert.ok(mustAtoi(rv) >= mustAtoi(sentinel), `expected a resourceVersion no smaller than ${sentinel}, but got ${rv}`);
  };
}

export function sortPods(pods: Pod[]): Pod[] {
  return [...pods].sort((a, b) => (computePodKey(a) < computePodKey(b) ? -1 : computePodKey(a) > computePodKey(b) ? 1 : 0));
}

export function deepEqualSafePodSpec(): NonNullable<Pod['spec']> {
  return { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' };
}

/** PrefixTransformer adds and checks a prefix on every stored value; counts reads. */
export class PrefixTransformer implements ValueTransformer {
  reads = 0;
  err: Error | undefined;
  constructor(
    public prefix: Buffer,
    public stale = false,
  ) {}
  transformFromStorage(data: Buffer, ctx: TransformContext): { data: Buffer; stale: boolean } {
    this.reads++;
    assert.ok(ctx, 'no context provided');
    if (!data.subarray(0, this.prefix.length).equals(this.prefix)) {
      throw new Error(`value does not have expected prefix ${JSON.stringify(this.prefix.toString())}: ${data.toString()},`);
    }
    if (this.err) throw this.err;
    return { data: data.subarray(this.prefix.length), stale: this.stale };
  }
  transformToStorage(data: Buffer, ctx: TransformContext): Buffer {
    assert.ok(ctx, 'no context provided');
    if (this.err) throw this.err;
    return data.length > 0 ? Buffer.concat([this.prefix, data]) : data;
  }
  getReadsAndReset(): number {
    const r = this.reads;
    this.reads = 0;
    return r;
  }
  copy(): PrefixTransformer {
    return new PrefixTransformer(this.prefix, this.stale);
  }
}

export const failingTransformer: ValueTransformer = {
  transformFromStorage: () => {
    throw new Error('failed transformation');
  },
  transformToStorage: (data) => data,
};

/** Wraps a transformer so reads of selected keys fail with the injected error. */
export function errInjectingTransformer(inner: ValueTransformer, inject: (key: string) => Error | undefined): ValueTransformer {
  return {
    transformFromStorage(data, ctx) {
      const e = inject(ctx.key);
      if (e) throw e;
      return inner.transformFromStorage(data, ctx);
    },
    transformToStorage: (data, ctx) => inner.transformToStorage(data, ctx),
  };
}

/** The error the Go tests inject as a corrupt object. */
export function corruptErr(): Error {
  return new CorruptDataError('bits flipped');
}

export function basePod(name: string): Pod {
  return baseNamespacedPod(name, '');
}
export function basePodUpdated(name: string): Pod {
  return baseNamespacedPodUpdated(name, '');
}
export function basePodAssigned(name: string, nodeName: string): Pod {
  return baseNamespacedPodAssigned(name, '', nodeName);
}
export function baseNamespacedPod(name: string, namespace: string): Pod {
  return pod(name, namespace);
}
export function baseNamespacedPodUpdated(name: string, namespace: string): Pod {
  return pod(name, namespace, { status: { phase: 'Running' } });
}
export function baseNamespacedPodAssigned(name: string, namespace: string, nodeName: string): Pod {
  return pod(name, namespace, { spec: { nodeName } });
}
export function makePod(namePrefix: string): Pod {
  return pod(`pod-${namePrefix}`);
}

export function createPodPredicate(field: fields.Selector, namespaceScoped: boolean, indexFields?: string[]): SelectionPredicate<Pod> {
  const getAttrs: AttrFunc<Pod> = indexFields
    ? (p: Pod) => ({
        labels: {},
        fields: namespaceScoped
          ? ({ 'spec.nodeName': p.spec?.nodeName ?? '', 'metadata.name': p.metadata.name ?? '', 'metadata.namespace': p.metadata.namespace ?? '' } as fields.Set)
          : ({ 'spec.nodeName': p.spec?.nodeName ?? '', 'metadata.name': p.metadata.name ?? '' } as fields.Set),
      })
    : namespaceScoped
      ? defaultNamespaceScopedAttr
      : defaultClusterScopedAttr;
  const pred: SelectionPredicate<Pod> = { label: labels.everything(), field, getAttrs };
  if (indexFields) pred.indexFields = indexFields;
  return pred;
}

/** getAttrs exposing metadata.name (and nodeName) as fields, as many Go tests define inline. */
export function nameAttrs(p: Pod): { labels: labels.Set; fields: fields.Set } {
  return { labels: {}, fields: { 'metadata.name': p.metadata.name ?? '', 'spec.nodeName': p.spec?.nodeName ?? '' } };
}

export function labelAttrs(p: Pod): { labels: labels.Set; fields: fields.Set } {
  return { labels: p.metadata.labels ?? {}, fields: {} };
}
