import { resourcePath } from '../resource-client.js';
import type { RESTClient, ResourceDescriptor } from '../types.js';
import { RequestConstructionError } from './record-to-sink.js';
import type { Event, EventSink } from './types.js';

const EVENTS: ResourceDescriptor = { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };

/**
 * EventSinkImpl over the events client: core/v1 events written into each event's own namespace
 * (CreateWithEventNamespace and friends). With a `namespace`, events of other namespaces are
 * refused, as an events client bound to a namespace refuses them.
 */
export class RESTEventSink implements EventSink {
  constructor(
    private readonly client: RESTClient,
    private readonly namespace = '',
  ) {}

  async create(event: Event): Promise<Event> {
    this.#check(event, 'create');
    return await this.client.request<Event>({ method: 'POST', path: this.#collection(event), body: encode(event) });
  }

  async update(event: Event): Promise<Event> {
    this.#check(event, 'update');
    return await this.client.request<Event>({ method: 'PUT', path: this.#item(event), body: encode(event) });
  }

  async patch(event: Event, data: Uint8Array): Promise<Event> {
    this.#check(event, 'patch');
    return await this.client.request<Event>({ method: 'PATCH', path: this.#item(event), body: data, contentType: 'application/strategic-merge-patch+json' });
  }

  /** A plain Error, so recordToSink retries it, as client-go's fmt.Errorf is retried. */
  #check(event: Event, verb: string): void {
    const ns = event.metadata?.namespace ?? '';
    if (this.namespace !== '' && ns !== this.namespace) throw new Error(`can't ${verb} an event with namespace '${ns}' in namespace '${this.namespace}'`);
  }

  #collection(event: Event): string {
    return resourcePath(EVENTS, event.metadata?.namespace);
  }

  #item(event: Event): string {
    return `${this.#collection(event)}/${encodeURIComponent(event.metadata?.name ?? '')}`;
  }
}

/** The body as JSON, encoded here so that an unencodable event fails as a request that cannot be built. */
function encode(event: Event): string {
  try {
    return JSON.stringify({ ...event, apiVersion: 'v1', kind: 'Event' });
  } catch (err) {
    throw new RequestConstructionError(`unable to encode the event: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
