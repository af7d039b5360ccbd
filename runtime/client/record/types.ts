import type { ObjectMeta } from '../../../apis/meta/v1/types.js';

/**
 * The parts of core/v1 Event the recorder writes and reads back, declared here because the client
 * layer names no group's types (ARCHITECTURE.md): core/v1 Events of the generated clients and this
 * shape are assignable both ways, so a typed events client can serve as an EventSink. Optional
 * fields are omitted rather than empty, as Go's `omitempty` sends them.
 */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventSource {
  component?: string;
  host?: string;
}

export interface Event {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  involvedObject?: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  /** RFC 3339, seconds precision (metav1.Time). */
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}

/** The two event types kube accepts (core/v1 EventTypeNormal, EventTypeWarning). */
export const EVENT_TYPE_NORMAL = 'Normal';
export const EVENT_TYPE_WARNING = 'Warning';

/** util.ValidateEventType: only Normal and Warning are recorded. */
export function validateEventType(eventtype: string): boolean {
  return eventtype === EVENT_TYPE_NORMAL || eventtype === EVENT_TYPE_WARNING;
}

/**
 * Where events are stored (client-go's EventSink). Each call writes into the event's own
 * namespace. Rejections carry the server's StatusError, as the REST client's do: recordToSink
 * retries everything else.
 */
export interface EventSink {
  create(event: Event): Promise<Event>;
  update(event: Event): Promise<Event>;
  /** A strategic merge patch of `event` (its namespace and name locate it). */
  patch(event: Event, data: Uint8Array): Promise<Event>;
}

/** Any object the recorder can reference: one with apiVersion, kind and metadata, a list, or a reference itself. */
export type Referenceable = object;

/**
 * Records events about objects on behalf of one source (client-go's EventRecorder). Calls never
 * block nor throw: events that cannot be made or queued are logged and dropped.
 */
export interface EventRecorder {
  /** `eventtype` is Normal or Warning; `reason` is short, UpperCamelCase; `message` is for humans. */
  event(object: Referenceable, eventtype: string, reason: string, message: string): void;
  /** Like `event`, the message formatted with Go's verbs (%v, %s, %d, %q…). */
  eventf(object: Referenceable, eventtype: string, reason: string, messageFmt: string, ...args: unknown[]): void;
  annotatedEventf(object: Referenceable, annotations: Readonly<Record<string, string>>, eventtype: string, reason: string, messageFmt: string, ...args: unknown[]): void;
}
