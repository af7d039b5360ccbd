/**
 * The cancellation of one request (Go's request context Done channel): aborted when the client
 * goes away, the request times out or the server stops. Every request gets one, but an
 * AbortSignal — costly to create in node, and costlier to combine with AbortSignal.any — is
 * made only when something asks for `signal` (a watch, a storage call, an admission lookup).
 * Most gets and creates never do, so they pay for a few fields instead of an event target.
 */
export class Cancellation {
  #aborted = false;
  #reason: unknown = undefined;
  #controller: AbortController | undefined;
  #listeners: Array<(reason: unknown) => void> | undefined;

  /** A cancellation that also aborts when any of `parents` does (a request's deadline, say). */
  constructor(parents: readonly Cancellation[] = []) {
    for (const p of parents) {
      if (p.aborted) {
        this.abort(p.reason);
        break;
      }
      p.onAbort((reason) => this.abort(reason));
    }
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** The AbortSignal view, created on first use (already aborted if the cancellation is). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts once; later calls keep the first reason. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const l of listeners) l(reason);
  }

  /** Calls `listener` once on abort (at once if already aborted). */
  onAbort(listener: (reason: unknown) => void): void {
    if (this.#aborted) listener(this.#reason);
    else (this.#listeners ??= []).push(listener);
  }
}
