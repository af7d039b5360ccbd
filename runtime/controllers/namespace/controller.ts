import type { Namespace } from '../../../apis/core/v1/types.js';
import { isNotFound } from '../../apimachinery/errors/index.js';
import { formatTime } from '../../registry/generic/index.js';
import type { DeleteOptions, KubeObject, RequestContext, ResourceStorage, StandardStorage, ValidateObjectFunc } from '../../registry/rest.js';
import { LIST_EVERYTHING } from '../../registry/resources.js';
import { deletionConditions, mergeConditions, type DeletionOutcome } from './conditions.js';

/** A namespaced resource whose content the controller removes from terminating namespaces. */
export interface NamespacedResource {
  readonly group: string;
  readonly resource: string;
  readonly storage: StandardStorage;
}

/**
 * What the controller needs of the namespaces' REST storage (the control plane's NamespaceStorage
 * is one): declared here so controllers import no command.
 */
export interface NamespaceFinalizing {
  readonly storages: Pick<ResourceStorage, 'main'>;
  delete(ctx: RequestContext, name: string, validate: ValidateObjectFunc, opts: DeleteOptions): Promise<{ object: KubeObject; deleted: boolean }>;
  removeKubernetesFinalizer(name: string): Promise<Namespace>;
  setDeletionConditions(name: string, merge: (current: Namespace) => Namespace['status'] | undefined): Promise<Namespace>;
}

export interface NamespaceControllerOptions {
  readonly namespaces: NamespaceFinalizing;
  /** The namespaced resources installed right now (CRDs come and go). */
  readonly resources: () => readonly NamespacedResource[];
  /**
   * Group versions whose resources cannot be discovered right now (an unavailable aggregated
   * API), as `<group>/<version>: <why>`: their content cannot be deleted, so the namespace waits.
   */
  readonly discoveryFailures?: () => readonly string[];
  /** Clock of the conditions' lastTransitionTime. */
  readonly now?: () => Date;
  /** A context for the controller's own calls, in `namespace`. */
  readonly context: (namespace: string, parent: { readonly signal: AbortSignal }) => RequestContext;
  readonly maxBackoffMs?: number;
}

/**
 * The namespace controller (pkg/controller/namespace): for every namespace with a
 * deletionTimestamp it deletes the content of every namespaced resource, waits until nothing is
 * left (objects with finalizers take their time), then drops the `kubernetes` finalizer and
 * deletes the namespace. Each pass writes kube's deletion conditions to the namespace's status
 * (what could not be discovered or deleted, what is left, which finalizers hold it). Failures
 * and remaining content are retried with capped exponential backoff.
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
      const outcome = await this.removeContent(name, signal);
      await this.writeConditions(name, outcome);
      if (outcome.discoveryFailures.length > 0 || outcome.contentErrors.length > 0 || outcome.remaining.size > 0) throw new Error('content remains');
      await this.opts.namespaces.removeKubernetesFinalizer(name);
      const ctx = this.opts.context('', { signal });
      await this.opts.namespaces.delete(ctx, name, async () => {}, {
        dryRun: false,
        gracePeriodSeconds: undefined,
        preconditions: undefined,
        propagationPolicy: undefined,
        orphanDependents: undefined,
      });
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

  /**
   * Deletes everything in the namespace (deleteAllContent): every resource is tried even when
   * another fails; what is left is counted by resource and by finalizer.
   */
  private async removeContent(namespace: string, signal: AbortSignal): Promise<DeletionOutcome> {
    const contentErrors: string[] = [];
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const r of this.opts.resources()) {
      const ctx = this.opts.context(namespace, { signal });
      const deleteOpts = { dryRun: false, gracePeriodSeconds: undefined, preconditions: undefined, propagationPolicy: 'Background' as const, orphanDependents: undefined };
      try {
        await r.storage.deleteCollection(ctx, async () => {}, deleteOpts, LIST_EVERYTHING);
        const left = await r.storage.list(ctx, LIST_EVERYTHING);
        if (left.items.length === 0) continue;
        remaining.set(`${r.resource}.${r.group}`, left.items.length);
        for (const item of left.items) {
          const held = item.metadata?.finalizers;
          for (const f of Array.isArray(held) ? (held as unknown[]) : []) finalizers.set(String(f), (finalizers.get(String(f)) ?? 0) + 1);
        }
      } catch (err) {
        if (signal.aborted) throw err;
        contentErrors.push(err instanceof Error ? err.message : String(err));
      }
    }
    return { discoveryFailures: this.opts.discoveryFailures?.() ?? [], contentErrors, remaining, finalizers };
  }

  /** Updates the namespace's deletion conditions when they changed (kube always computes them, writes only changes). */
  private async writeConditions(name: string, outcome: DeletionOutcome): Promise<void> {
    const next = deletionConditions(outcome);
    const now = formatTime((this.opts.now ?? (() => new Date()))());
    await this.opts.namespaces.setDeletionConditions(name, (ns) => {
      const conditions = mergeConditions(ns.status?.conditions ?? [], next, now);
      return conditions === undefined ? undefined : { ...ns.status, conditions };
    });
  }
}
