/**
 * One event of a server's life (kube's lifecycleSignal): signalled once, never reset; anyone
 * may ask whether it happened or wait for it.
 */
export class LifecycleSignal {
  #signaled = false;
  #waiters: Array<() => void> = [];

  constructor(readonly name: string) {}

  get signaled(): boolean {
    return this.#signaled;
  }

  /** Idempotent. */
  signal(): void {
    if (this.#signaled) return;
    this.#signaled = true;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Resolves once signalled (at once if it already was). */
  wait(): Promise<void> {
    if (this.#signaled) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/**
 * The events of a graceful shutdown, in kube's order (lifecycleSignals of
 * k8s.io/apiserver/pkg/server): Serving signals them, filters read them.
 *
 * shutdownInitiated (SIGTERM: /readyz fails) → afterShutdownDelayDuration (--shutdown-delay-duration
 * later) and preShutdownHooksStopped → notAcceptingNewRequest (new requests are refused: 503, or
 * 429 with --shutdown-send-retry-after) → inFlightRequestsDrained (every non-long-running request
 * answered, watches ended) → httpServerStoppedListening.
 */
export class LifecycleSignals {
  readonly shutdownInitiated = new LifecycleSignal('ShutdownInitiated');
  readonly afterShutdownDelayDuration = new LifecycleSignal('AfterShutdownDelayDuration');
  readonly preShutdownHooksStopped = new LifecycleSignal('PreShutdownHooksStopped');
  readonly notAcceptingNewRequest = new LifecycleSignal('NotAcceptingNewRequest');
  readonly inFlightRequestsDrained = new LifecycleSignal('InFlightRequestsDrained');
  readonly httpServerStoppedListening = new LifecycleSignal('HTTPServerStoppedListening');
}
