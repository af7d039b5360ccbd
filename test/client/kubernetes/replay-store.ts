// The replay server's objects: the recorded ones it starts with, kept as the bytes kube wrote
// until a write replaces them, and an event log for watches (one resourceVersion counter for
// all resources, as etcd's revision). Keys are Maps: names and namespaces from requests are data.
import type { JSONObject, RecordedObject, RecordedResource } from './recorded.js';

export interface Stored {
  /** The recorded bytes while the object is unchanged: what kube wrote, served as is. */
  readonly text?: string;
  readonly object: JSONObject;
}

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredEvent {
  readonly rv: number;
  readonly type: EventType;
  readonly resource: RecordedResource;
  readonly object: JSONObject;
}

/** Where a watch of one resource is: its namespace (empty for all) and how it sends an event. */
export interface WatchSink {
  readonly resource: RecordedResource;
  readonly namespace: string;
  send(event: StoredEvent): void;
}

export function resourceKey(r: Pick<RecordedResource, 'group' | 'version' | 'resource'>): string {
  return `${r.group}/${r.version}/${r.resource}`;
}

export function metaOf(obj: JSONObject): JSONObject {
  const m = obj['metadata'];
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as JSONObject) : {};
}

function stringField(obj: JSONObject, field: string): string {
  const v = obj[field];
  return typeof v === 'string' ? v : '';
}

export class ReplayStore {
  /** The last resourceVersion handed out; recorded objects keep theirs (kube's fuzzer wrote `resourceVersionValue`). */
  rv = 100;
  /** Events older than this are compacted: a watch from before it gets 410 Expired. */
  oldest = 100;
  private readonly objects = new Map<string, Map<string, Stored>>();
  private readonly log: StoredEvent[] = [];
  readonly sinks = new Set<WatchSink>();

  seed(recorded: readonly RecordedObject[]): void {
    for (const r of recorded) this.bucket(r.resource).set(this.keyOf(r.resource, r.object), { text: r.text, object: r.object });
  }

  get(r: RecordedResource, namespace: string, name: string): Stored | undefined {
    return this.bucket(r).get(`${r.namespaced ? namespace : ''}/${name}`);
  }

  /** The objects of a resource, in a namespace or all (''), sorted by key as etcd lists them. */
  list(r: RecordedResource, namespace: string): Stored[] {
    const out: [string, Stored][] = [];
    for (const [key, s] of this.bucket(r)) if (namespace === '' || key.startsWith(`${namespace}/`)) out.push([key, s]);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, s]) => s);
  }

  /** Stores a write at the next resourceVersion and tells the watches of its resource. */
  write(r: RecordedResource, type: EventType, object: JSONObject): JSONObject {
    this.rv += 1;
    const stored: JSONObject = { ...object, metadata: { ...metaOf(object), resourceVersion: String(this.rv) } };
    const key = this.keyOf(r, stored);
    if (type === 'DELETED') this.bucket(r).delete(key);
    else this.bucket(r).set(key, { object: stored });
    const event: StoredEvent = { rv: this.rv, type, resource: r, object: stored };
    this.log.push(event);
    for (const sink of this.sinks) if (sink.resource === r && (sink.namespace === '' || sink.namespace === stringField(metaOf(stored), 'namespace'))) sink.send(event);
    return stored;
  }

  /** The events of a resource after `rv`, for a watch that starts there. */
  since(r: RecordedResource, namespace: string, rv: number): StoredEvent[] {
    return this.log.filter((e) => e.rv > rv && e.resource === r && (namespace === '' || stringField(metaOf(e.object), 'namespace') === namespace));
  }

  /** Forgets the events up to now, as etcd's compaction does: watches from before now get 410. */
  compact(): void {
    this.oldest = this.rv;
    this.log.length = 0;
  }

  private keyOf(r: RecordedResource, obj: JSONObject): string {
    const meta = metaOf(obj);
    return `${r.namespaced ? stringField(meta, 'namespace') : ''}/${stringField(meta, 'name')}`;
  }

  private bucket(r: RecordedResource): Map<string, Stored> {
    let b = this.objects.get(resourceKey(r));
    if (b === undefined) this.objects.set(resourceKey(r), (b = new Map()));
    return b;
  }
}
