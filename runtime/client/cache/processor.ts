import type { DeletedFinalStateUnknown, ResourceEventHandler, ResourceEventHandlerRegistration } from '../cache.js';
import type { DeepReadonly } from '../types.js';
import type { Logger } from './log.js';

/** What the informer tells its handlers, one variant per callback. */
export type Notification<T> =
  | { readonly kind: 'add'; readonly obj: DeepReadonly<T>; readonly isInInitialList: boolean }
  | { readonly kind: 'update'; readonly oldObj: DeepReadonly<T>; readonly newObj: DeepReadonly<T> }
  | { readonly kind: 'delete'; readonly obj: DeepReadonly<T> | DeletedFinalStateUnknown<T> };

/**
 * Relays notifications to one handler (client-go's processorListener): an
 * unbounded buffer drained by its own loop, so a handler that is slow (returns
 * a promise that takes time) only delays itself. Also tracks the handler's
 * resync schedule and whether it has processed its initial adds.
 */
export class ProcessorListener<T> implements ResourceEventHandlerRegistration {
  private buffer: Notification<T>[] = [];
  private head = 0;
  private wake: (() => void) | undefined;
  private stopped = false;
  private pendingInitial = 0;
  private nextResync = 0;
  private resyncPeriodMs: number;

  constructor(
    private readonly handler: ResourceEventHandler<T>,
    /** The period asked for; the effective one may be raised to the informer's check period. */
    readonly requestedResyncPeriodMs: number,
    resyncPeriodMs: number,
    now: number,
    private readonly upstreamHasSynced: () => boolean,
    private readonly logger: Logger,
    private readonly onRemove: (l: ProcessorListener<T>) => void,
  ) {
    this.resyncPeriodMs = resyncPeriodMs;
    this.determineNextResync(now);
  }

  /** Buffers a notification; never blocks and never calls the handler synchronously. */
  add(n: Notification<T>): void {
    if (this.stopped) return;
    if (n.kind === 'add' && n.isInInitialList) this.pendingInitial++;
    this.buffer.push(n);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Delivers buffered notifications in order until stop(); never rejects. */
  async run(): Promise<void> {
    while (!this.stopped) {
      if (this.head >= this.buffer.length) {
        this.buffer = [];
        this.head = 0;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        continue;
      }
      const n = this.buffer[this.head++] as Notification<T>;
      await this.deliver(n);
      if (n.kind === 'add' && n.isInInitialList) this.pendingInitial--;
    }
  }

  /** Ends run() after the notification in progress; the rest of the buffer is dropped. */
  stop(): void {
    this.stopped = true;
    this.buffer = [];
    this.head = 0;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  hasSynced(): boolean {
    return this.upstreamHasSynced() && this.pendingInitial === 0;
  }

  remove(): void {
    this.onRemove(this);
  }

  shouldResync(now: number): boolean {
    return this.resyncPeriodMs > 0 && now >= this.nextResync;
  }

  determineNextResync(now: number): void {
    this.nextResync = now + this.resyncPeriodMs;
  }

  setResyncPeriod(ms: number): void {
    this.resyncPeriodMs = ms;
  }

  private async deliver(n: Notification<T>): Promise<void> {
    try {
      let pending: void | Promise<void>;
      switch (n.kind) {
        case 'add':
          pending = this.handler.onAdd?.(n.obj, n.isInInitialList);
          break;
        case 'update':
          pending = this.handler.onUpdate?.(n.oldObj, n.newObj);
          break;
        case 'delete':
          pending = this.handler.onDelete?.(n.obj);
          break;
      }
      if (pending !== undefined) await pending;
    } catch (err) {
      // A failing handler must not stop notifications to itself or anyone else (HandleCrash without the crash).
      this.logger.error('event handler failed', { notification: n.kind, err });
    }
  }
}

/**
 * Fans notifications out to the listeners (client-go's sharedProcessor).
 * Resync notifications go only to the listeners whose resync was due at the
 * last shouldResync(); every listener starts out in that set.
 */
export class SharedProcessor<T> {
  private readonly listeners = new Map<ProcessorListener<T>, boolean>();
  private readonly runs: Promise<void>[] = [];
  private started = false;

  addListener(l: ProcessorListener<T>): void {
    this.listeners.set(l, true);
    if (this.started) this.runs.push(l.run());
  }

  removeListener(l: ProcessorListener<T>): void {
    if (!this.listeners.delete(l)) return;
    l.stop();
  }

  distribute(n: Notification<T>, isSync: boolean): void {
    for (const [l, syncing] of this.listeners) if (!isSync || syncing) l.add(n);
  }

  run(): void {
    this.started = true;
    for (const l of this.listeners.keys()) this.runs.push(l.run());
  }

  /** Stops every listener and resolves when their loops have ended. */
  async stop(): Promise<void> {
    for (const l of this.listeners.keys()) l.stop();
    this.listeners.clear();
    this.started = false;
    await Promise.all(this.runs);
  }

  /** Marks which listeners are due for a resync at `now`; true when any is. */
  shouldResync(now: number): boolean {
    let any = false;
    for (const l of this.listeners.keys()) {
      const due = l.shouldResync(now);
      this.listeners.set(l, due);
      if (due) {
        any = true;
        l.determineNextResync(now);
      }
    }
    return any;
  }

  resyncCheckPeriodChanged(checkPeriodMs: number): void {
    for (const l of this.listeners.keys()) l.setResyncPeriod(determineResyncPeriod(l.requestedResyncPeriodMs, checkPeriodMs));
  }
}

/** A handler's effective resync period: none when the informer never resyncs, never below its check period. */
export function determineResyncPeriod(desiredMs: number, checkMs: number): number {
  if (desiredMs === 0) return 0;
  if (checkMs === 0) return 0;
  return Math.max(desiredMs, checkMs);
}
