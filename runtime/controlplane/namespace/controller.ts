import type { Namespace } from '../../../apis/core/v1/types.js';
import { isNotFound } from '../../apimachinery/errors/index.js';
import type { RequestContext, StandardStorage } from '../../registry/rest.js';
import { LIST_EVERYTHING } from '../resources.js';
import type { NamespaceStorage } from './rest.js';

/** A namespaced resource whose content the controller removes from terminating namespaces. */
export interface NamespacedResource {
  readonly group: string;
  readonly resource: string;
  readonly storage: StandardStorage;
}

export interface NamespaceControllerOptions {
  readonly namespaces: NamespaceStorage;
  /** The namespaced resources installed right now (CRDs come and go). */
  readonly resources: () => readonly NamespacedResource[];
  /** A context for the controller's own calls, in `namespace`. */
  readonly context: (namespace: string, parent: { readonly signal: AbortSignal }) => RequestContext;
  readonly maxBackoffMs?: number;
}

/**
 * The namespace controller (pkg/controller/namespace): for every namespace with a
 * deletionTimestamp it deletes the content of every namespaced resource, waits until nothing is
 * left (objects with finalizers take their time), then drops the `kubernetes` finalizer and
 * deletes the namespace. Failures are retried with capped exponential backoff.
 */
export class NamespaceController {
  private readonly stopController = new AbortController();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly attempts = new Map<string, number>();
  private loop: Promise<void> | undefined;

  constructor(private readonly opts: NamespaceControllerOptions) {}

  start(): void {
    this.loop ??= this.watchLoop();
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    await this.loop;
  }

  private async watchLoop(): Promise<void> {
    const signal = this.stopController.signal;
    while (!signal.aborted) {
      try {
        const ctx = this.opts.context('', { signal });
        const watcher = await this.opts.namespaces.storages.main.watch(ctx, LIST_EVERYTHING);
        const onAbort = (): void => watcher.stop();
        signal.addEventListener('abort', onAbort, { once: true });
        for await (const ev of watcher) {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') {
            const ns = ev.object as Namespace;
            if (ns.metadata?.deletionTimestamp && ns.metadata.name) this.enqueue(ns.metadata.name, 0);
          }
        }
        signal.removeEventListener('abort', onAbort);
      } catch {
        // The storage went away or the watch expired: start over after a pause.
      }
      if (!signal.aborted) await new Promise((r) => setTimeout(r, 1000).unref());
    }
  }

  private enqueue(name: string, delayMs: number): void {
    if (this.pending.has(name) || this.stopController.signal.aborted) return;
    const timer = setTimeout(() => {
      this.pending.delete(name);
      void this.sync(name);
    }, delayMs);
    timer.unref();
    this.pending.set(name, timer);
  }

  private async sync(name: string): Promise<void> {
    const signal = this.stopController.signal;
    try {
      const done = await this.removeContent(name, signal);
      if (!done) throw new Error('content remains');
      await this.opts.namespaces.removeKubernetesFinalizer(name);
      const ctx = this.opts.context('', { signal });
      await this.opts.namespaces.delete(ctx, name, async () => {}, { dryRun: false, gracePeriodSeconds: undefined, preconditions: undefined, propagationPolicy: undefined, orphanDependents: undefined });
      this.attempts.delete(name);
    } catch (err) {
      if (isNotFound(err) || signal.aborted) {
        this.attempts.delete(name);
        return;
      }
      const attempt = (this.attempts.get(name) ?? 0) + 1;
      this.attempts.set(name, attempt);
      this.enqueue(name, Math.min(this.opts.maxBackoffMs ?? 30_000, 100 * 2 ** attempt));
    }
  }

  /** Deletes everything in the namespace; true when nothing is left. */
  private async removeContent(namespace: string, signal: AbortSignal): Promise<boolean> {
    let empty = true;
    for (const r of this.opts.resources()) {
      const ctx = this.opts.context(namespace, { signal });
      const deleteOpts = { dryRun: false, gracePeriodSeconds: undefined, preconditions: undefined, propagationPolicy: 'Background' as const, orphanDependents: undefined };
      await r.storage.deleteCollection(ctx, async () => {}, deleteOpts, LIST_EVERYTHING);
      const left = await r.storage.list(ctx, LIST_EVERYTHING);
      if (left.items.length > 0) empty = false;
    }
    return empty;
  }
}
