import type { KubeObject } from '../../registry/rest.js';
import type { WatchEvent } from '../types.js';
import type { HistoryEvent } from './history.js';
import { apiVersionOf, type FakeResource } from './resources.js';
import { matches, type Selection } from './selection.js';
import { WatchChannel } from './watch.js';

/** Annotation of the BOOKMARK that ends the initial events of a watch-list. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/**
 * One open watch: filters the tracker's changes by namespace and selectors
 * as the watch cache does (an object that starts or stops matching is
 * ADDED or DELETED) and hands each watcher its own copy of every object.
 */
export class FakeWatcher {
  readonly channel: WatchChannel<KubeObject>;

  constructor(
    readonly resource: FakeResource,
    readonly namespace: string,
    readonly selection: Selection,
    /** Changes at or before this resourceVersion are not delivered. */
    readonly afterRV: number,
    onStop: () => void,
  ) {
    this.channel = new WatchChannel<KubeObject>(onStop);
  }

  /** Sends a change, if this watch sees it. */
  deliver(ev: HistoryEvent): void {
    if (ev.rv <= this.afterRV || !this.#inNamespace(ev.object)) return;
    const now = ev.type !== 'DELETED' && matches(this.resource, this.selection, ev.object);
    const before = ev.prev !== undefined && matches(this.resource, this.selection, ev.prev);
    let type: 'ADDED' | 'MODIFIED' | 'DELETED' | undefined;
    if (ev.type === 'DELETED') type = before ? 'DELETED' : undefined;
    else if (now) type = before ? 'MODIFIED' : 'ADDED';
    else if (before) type = 'DELETED';
    if (type !== undefined) this.channel.push({ type, object: structuredClone(ev.object) });
  }

  /** The synthetic ADDED events of the current state that start a watch from "" or "0", or a watch-list. */
  sendInitial(objects: Iterable<KubeObject>): void {
    for (const obj of objects) {
      if (this.#inNamespace(obj) && matches(this.resource, this.selection, obj)) {
        this.channel.push({ type: 'ADDED', object: structuredClone(obj) });
      }
    }
  }

  /** A BOOKMARK at rv; `initialEventsEnd` marks the end of a watch-list's initial events. */
  bookmark(rv: number, initialEventsEnd: boolean): void {
    const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
    if (initialEventsEnd) metadata['annotations'] = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
    const object: KubeObject = { apiVersion: apiVersionOf(this.resource.descriptor), kind: this.resource.descriptor.kind, metadata };
    this.channel.push({ type: 'BOOKMARK', object });
  }

  /** Sends the ERROR event and closes the stream, as the server does after an error. */
  fail(event: Extract<WatchEvent<KubeObject>, { type: 'ERROR' }>): void {
    this.channel.push(event);
    this.channel.end();
  }

  #inNamespace(obj: KubeObject): boolean {
    return !this.resource.descriptor.namespaced || this.namespace === '' || obj.metadata?.namespace === this.namespace;
  }
}
