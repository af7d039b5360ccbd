import type { Logger } from '../cache/log.js';
import type { Broadcaster } from './broadcaster.js';
import { sprintf } from './format.js';
import { getReference, type ObjectKindsFunc } from './reference.js';
import { formatTime, generateEventName, uniqueUnixNano, type PassiveClock } from './time.js';
import { validateEventType, type Event, type EventRecorder, type EventSource, type ObjectReference, type Referenceable } from './types.js';

/** metav1.NamespaceDefault: where events about cluster-scoped objects go. */
const NAMESPACE_DEFAULT = 'default';

export interface RecorderOptions {
  /** Timestamps of the events; the broadcaster's clock by default. */
  readonly clock?: PassiveClock;
  /** apiVersion and kind of objects that carry none (client-go's scheme). */
  readonly objectKinds?: ObjectKindsFunc;
}

/**
 * recorderImpl: makes events about objects for one source and queues them on the broadcaster
 * without waiting; when the queue is full the event is dropped and logged, as kube does, so a
 * controller never blocks on event recording.
 */
export class Recorder implements EventRecorder {
  constructor(
    private readonly source: EventSource,
    private readonly broadcaster: Broadcaster<Event>,
    private readonly clock: PassiveClock,
    private readonly logger: Logger,
    private readonly objectKinds: ObjectKindsFunc | undefined,
  ) {}

  event(object: Referenceable, eventtype: string, reason: string, message: string): void {
    this.#generateEvent(object, undefined, eventtype, reason, message);
  }

  eventf(object: Referenceable, eventtype: string, reason: string, messageFmt: string, ...args: unknown[]): void {
    this.#generateEvent(object, undefined, eventtype, reason, sprintf(messageFmt, ...args));
  }

  annotatedEventf(object: Referenceable, annotations: Readonly<Record<string, string>>, eventtype: string, reason: string, messageFmt: string, ...args: unknown[]): void {
    this.#generateEvent(object, annotations, eventtype, reason, sprintf(messageFmt, ...args));
  }

  #generateEvent(object: Referenceable, annotations: Readonly<Record<string, string>> | undefined, eventtype: string, reason: string, message: string): void {
    let ref: ObjectReference;
    try {
      ref = getReference(object, this.objectKinds);
    } catch (err) {
      this.logger.error('Could not construct reference, will not report event', { err, eventType: eventtype, reason, message });
      return;
    }
    if (!validateEventType(eventtype)) {
      this.logger.error('Unsupported event type', { eventType: eventtype });
      return;
    }
    const event = this.#makeEvent(ref, annotations, eventtype, reason, message);
    let sent: boolean;
    try {
      sent = this.broadcaster.actionOrDrop(event);
    } catch (err) {
      this.logger.error('Unable to record event (will not retry!)', { err });
      return;
    }
    if (!sent) this.logger.error('Unable to record event: too many queued events, dropped event', { event });
  }

  #makeEvent(ref: ObjectReference, annotations: Readonly<Record<string, string>> | undefined, eventtype: string, reason: string, message: string): Event {
    const now = this.clock.now();
    const t = formatTime(now);
    const metadata: Event['metadata'] = { name: generateEventName(ref.name ?? '', uniqueUnixNano(now)), namespace: ref.namespace || NAMESPACE_DEFAULT };
    if (annotations !== undefined && Object.keys(annotations).length > 0) metadata.annotations = copyRecord(annotations);
    const event: Event = {
      metadata,
      involvedObject: { ...ref },
      reason,
      message,
      firstTimestamp: t,
      lastTimestamp: t,
      count: 1,
      type: eventtype,
      source: { ...this.source },
    };
    if (this.source.host) event.reportingInstance = this.source.host;
    if (this.source.component) event.reportingComponent = this.source.component;
    // Every watcher gets this one object: frozen, so that no handler changes what the others see.
    return deepFreezeEvent(event);
  }
}

/** A null-prototype copy: annotation keys such as `__proto__` stay data. */
function copyRecord(r: Readonly<Record<string, string>>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(r)) out[k] = v;
  return out;
}

function deepFreezeEvent(event: Event): Event {
  Object.freeze(event.involvedObject);
  if (event.source !== undefined) Object.freeze(event.source);
  if (event.metadata?.annotations !== undefined) Object.freeze(event.metadata.annotations);
  Object.freeze(event.metadata);
  return Object.freeze(event);
}
