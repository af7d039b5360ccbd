import { stderrLogger, type Logger } from '../cache/log.js';
import { realClock, type Clock } from '../workqueue/clock.js';
import { Broadcaster, type BroadcasterWatcher } from './broadcaster.js';
import { EventCorrelator, type CorrelatorOptions } from './correlator.js';
import { DEFAULT_SLEEP_DURATION_MS, recordToSink, type RecordToSinkContext } from './record-to-sink.js';
import { Recorder, type RecorderOptions } from './recorder.js';
import type { Event, EventRecorder, EventSink, EventSource, ObjectReference } from './types.js';

/** How many events wait per watcher, and in the incoming queue, before new ones are dropped (maxQueuedEvents). */
export const MAX_QUEUED_EVENTS = 1000;

export interface BroadcasterOptions {
  /** The correlator of each sink; its clock defaults to `clock`. */
  readonly correlator?: CorrelatorOptions;
  /** Pause between tries of an event, in ms (WithSleepDuration); 10 s by default. */
  readonly sleepDuration?: number;
  /** Shuts the broadcaster down when aborted (WithContext): calling shutdown is then optional. */
  readonly signal?: AbortSignal;
  /** Event timestamps and retry sleeps. */
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** In [0, 1): randomises the first retry; Math.random by default. */
  readonly random?: () => number;
}

/** What a start* call returns: stops that consumer (watch.Interface's Stop). */
export interface EventWatch {
  stop(): void;
}

/**
 * EventBroadcaster: takes the events recorders make and hands each to every consumer started on
 * it: sinks (the API server), handlers, logs. Consumers run one event at a time, each with its
 * own bounded queue.
 */
export interface EventBroadcaster {
  /** Calls `handler` for every event from now on; a returned promise is awaited before the next event. */
  startEventWatcher(handler: (event: Event) => void | Promise<void>): EventWatch;
  /** Writes events to `sink` through a correlator of its own (aggregation, counting, spam filter) with kube's retries. */
  startRecordingToSink(sink: EventSink): EventWatch;
  /** Passes each event to `logf` as client-go's StartLogging formats it. */
  startLogging(logf: (message: string) => void): EventWatch;
  /** Logs each event as "Event occurred" with its fields (StartStructuredLogging). */
  startStructuredLogging(): EventWatch;
  /** A recorder whose events name `source` (component, host) as their reporter. */
  newRecorder(source: EventSource, options?: RecorderOptions): EventRecorder;
  /** Stops every consumer: no further tries of an event, no further events. Idempotent. */
  shutdown(): void;
}

/** NewBroadcaster. */
export function newBroadcaster(options: BroadcasterOptions = {}): EventBroadcaster {
  return new EventBroadcasterImpl(options);
}

const emptyWatch: EventWatch = { stop: () => {} };

class EventBroadcasterImpl implements EventBroadcaster {
  readonly #broadcaster = new Broadcaster<Event>(MAX_QUEUED_EVENTS);
  readonly #cancel = new AbortController();
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #sink: Omit<RecordToSinkContext, 'signal'>;
  readonly #unlink: () => void;

  constructor(private readonly options: BroadcasterOptions) {
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger ?? stderrLogger;
    this.#sink = { sleepDuration: options.sleepDuration ?? DEFAULT_SLEEP_DURATION_MS, clock: this.#clock, random: options.random ?? Math.random, logger: this.#logger };
    const parent = options.signal;
    const onAbort = (): void => this.shutdown();
    parent?.addEventListener('abort', onAbort, { once: true });
    this.#unlink = () => parent?.removeEventListener('abort', onAbort);
    if (parent?.aborted === true) this.shutdown();
  }

  startRecordingToSink(sink: EventSink): EventWatch {
    const correlator = new EventCorrelator({ clock: this.#clock, ...this.options.correlator });
    const ctx: RecordToSinkContext = { ...this.#sink, signal: this.#cancel.signal };
    return this.startEventWatcher((event) => recordToSink(sink, event, correlator, ctx));
  }

  startLogging(logf: (message: string) => void): EventWatch {
    return this.startEventWatcher((e) => logf(`Event(${goSyntaxReference(e.involvedObject ?? {})}): type: '${e.type ?? ''}' reason: '${e.reason ?? ''}' ${e.message ?? ''}`));
  }

  startStructuredLogging(): EventWatch {
    return this.startEventWatcher((e) => {
      const o = e.involvedObject ?? {};
      this.#logger.info('Event occurred', {
        object: o.namespace ? `${o.namespace}/${o.name ?? ''}` : (o.name ?? ''),
        fieldPath: o.fieldPath ?? '',
        kind: o.kind ?? '',
        apiVersion: o.apiVersion ?? '',
        type: e.type ?? '',
        reason: e.reason ?? '',
        message: e.message ?? '',
      });
    });
  }

  startEventWatcher(handler: (event: Event) => void | Promise<void>): EventWatch {
    let watcher: BroadcasterWatcher<Event>;
    try {
      watcher = this.#broadcaster.watch();
    } catch (err) {
      // As in client-go: no error for the caller, an empty watch it can stop.
      this.#logger.error('Unable start event watcher (will not retry!)', { err });
      return emptyWatch;
    }
    void this.#consume(watcher, handler);
    return { stop: () => watcher.stop() };
  }

  async #consume(watcher: BroadcasterWatcher<Event>, handler: (event: Event) => void | Promise<void>): Promise<void> {
    const signal = this.#cancel.signal;
    for (;;) {
      const next = await watcher.next(signal);
      if (next === undefined || signal.aborted) {
        watcher.stop();
        return;
      }
      try {
        await handler(next.item);
      } catch (err) {
        // One failing handler must not end the consumer, nor take the process down.
        this.#logger.error('Observed a panic in an event handler', { err });
      }
    }
  }

  newRecorder(source: EventSource, options: RecorderOptions = {}): EventRecorder {
    return new Recorder({ ...source }, this.#broadcaster, options.clock ?? this.#clock, this.#logger, options.objectKinds);
  }

  shutdown(): void {
    this.#broadcaster.shutdown();
    this.#cancel.abort();
    this.#unlink();
  }
}

/** Go's %#v of a v1.ObjectReference, as client-go's StartLogging prints it. */
function goSyntaxReference(r: ObjectReference): string {
  const q = (s: string | undefined): string => JSON.stringify(s ?? '');
  return `v1.ObjectReference{Kind:${q(r.kind)}, Namespace:${q(r.namespace)}, Name:${q(r.name)}, UID:${q(r.uid)}, APIVersion:${q(r.apiVersion)}, ResourceVersion:${q(r.resourceVersion)}, FieldPath:${q(r.fieldPath)}}`;
}
