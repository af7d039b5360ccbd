// Shared by the ports of client-go's tools/record tests: the events, clocks and sink of
// events_cache_test.go and event_test.go.
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from '../../../runtime/apimachinery/patch/index.js';
import { getEventKey, type Event, type EventSink, type ObjectReference } from '../../../runtime/client/record/index.js';

/** makeObjectReference. */
export function makeObjectReference(kind: string, name: string, namespace: string): ObjectReference {
  return { kind, name, namespace, uid: 'C934D34AFB20242', apiVersion: 'version', fieldPath: 'spec.containers{mycontainer}' };
}

/** makeEvent: timestamps are set by the caller from its clock. */
export function makeEvent(reason: string, message: string, involvedObject: ObjectReference): Event {
  const t = new Date().toISOString().slice(0, 19) + 'Z';
  return { metadata: {}, reason, message, involvedObject, source: { component: 'kubelet', host: 'kublet.node1' }, count: 1, firstTimestamp: t, lastTimestamp: t, type: 'Normal' };
}

export const makeEvents = (n: number, template: Event): Event[] => Array.from({ length: n }, () => structuredClone(template));

export function makeUniqueEvents(n: number): Event[] {
  return Array.from({ length: n }, (_, i) => makeEvent(`reason-${i}`, `message-${i}`, makeObjectReference('Pod', `pod-${i}`, `ns-${i}`)));
}

export function makeSimilarEvents(n: number, template: Event, messagePrefix: string): Event[] {
  return makeEvents(n, template).map((e, i) => ({ ...e, message: `${messagePrefix}-${i}-${e.message ?? ''}` }));
}

export const setCount = (event: Event, count: number): Event => ({ ...structuredClone(event), count });

/** testclocks.SimpleIntervalClock: every reading moves time on by `interval` ms. */
export class SimpleIntervalClock {
  constructor(
    private time: number,
    private readonly interval: number,
  ) {}

  now(): number {
    this.time += this.interval;
    return this.time;
  }
}

/** Go's zero values compare equal to absent ones: drops '', null, undefined and empty objects. */
export function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const n = normalize(x);
    if (n === '' || n === null || n === undefined) continue;
    if (typeof n === 'object' && !Array.isArray(n) && Object.keys(n).length === 0) continue;
    out[k] = n;
  }
  return out;
}

/** validateEvent: timestamps say whether the event was counted, the name has the expected prefix, the rest is equal. */
export function validateEvent(label: string, actual: Event, expected: Event): void {
  const first = actual.firstTimestamp;
  const last = actual.lastTimestamp;
  assert.ok(first && last, `${label}: timestamp wasn't set`);
  const count = expected.count ?? 0;
  if (first === last) assert.ok(count <= 1, `${label}: FirstTimestamp and LastTimestamp must differ to show the event was counted, both ${first}`);
  else assert.notEqual(count, 1, `${label}: FirstTimestamp (${first}) and LastTimestamp (${last}) must be equal for one occurrence`);
  const name = actual.metadata?.name ?? '';
  assert.ok(name.startsWith(expected.metadata?.name ?? ''), `${label}: name '${name}' does not start with '${expected.metadata?.name ?? ''}'`);
  const recv: Event = {
    ...actual,
    metadata: { ...actual.metadata, name: expected.metadata?.name ?? '' },
    firstTimestamp: expected.firstTimestamp ?? null,
    lastTimestamp: expected.lastTimestamp ?? null,
    reportingComponent: expected.reportingComponent ?? '',
  };
  assert.deepEqual(normalize(recv), normalize(expected), label);
}

/** A Go channel's receive side for tests: values in order, a timeout instead of a hang. */
export class Channel<T> {
  readonly #values: T[] = [];
  readonly #waiters: ((v: T) => void)[] = [];

  send(v: T): void {
    const w = this.#waiters.shift();
    if (w !== undefined) w(v);
    else this.#values.push(v);
  }

  receive(timeoutMs = 5000): Promise<T> {
    if (this.#values.length > 0) return Promise.resolve(this.#values.shift() as T);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(new Error(`nothing received within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = (v: T): void => {
        clearTimeout(t);
        resolve(v);
      };
      this.#waiters.push(waiter);
    });
  }

  get pending(): number {
    return this.#values.length;
  }
}

/** testEventSink: each verb answers through its hook, or echoes the event. */
export class TestEventSink implements EventSink {
  constructor(
    private readonly hooks: {
      onCreate?: (e: Event) => Promise<Event> | Event;
      onUpdate?: (e: Event) => Promise<Event> | Event;
      onPatch?: (e: Event, p: Uint8Array) => Promise<Event> | Event;
    } = {},
  ) {}

  async create(e: Event): Promise<Event> {
    return this.hooks.onCreate !== undefined ? await this.hooks.onCreate(e) : e;
  }

  async update(e: Event): Promise<Event> {
    return this.hooks.onUpdate !== undefined ? await this.hooks.onUpdate(e) : e;
  }

  async patch(e: Event, p: Uint8Array): Promise<Event> {
    return this.hooks.onPatch !== undefined ? await this.hooks.onPatch(e, p) : e;
  }
}

/** OnCreateFactory: remembers the created event by key and reports it. */
export const onCreateFactory =
  (cache: Map<string, Event>, created: Channel<Event>) =>
  (event: Event): Event => {
    cache.set(getEventKey(event), event);
    created.send(event);
    return event;
  };

/** OnPatchFactory: applies the strategic merge patch to the remembered event, as the server would. */
export const onPatchFactory =
  (cache: Map<string, Event>, patched: Channel<Event>) =>
  (event: Event, patch: Uint8Array): Event => {
    const cached = cache.get(getEventKey(event));
    if (cached === undefined) throw new Error("unexpected error: couldn't find Event in testCache.");
    const result = applyStrategicMergePatch(JSON.parse(JSON.stringify(cached)) as never, patch, undefined).value as unknown as Event;
    patched.send(result);
    return result;
  };
