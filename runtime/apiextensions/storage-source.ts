import { isDeepStrictEqual } from 'node:util';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import * as fields from '../apimachinery/fields/index.js';
import * as labels from '../apimachinery/labels/index.js';
import type { InternalListOptions, KubeObject, Lister, RequestContext, Watcher } from '../registry/rest.js';
import type { Watcher as StorageWatcher } from '../storage/index.js';
import type { CRDEvent, CRDSource } from './source.js';

export interface StorageCRDSourceOptions {
  /** The CRD REST storage (hub objects of apiextensions.k8s.io/v1). */
  readonly storage: Lister & Watcher;
  /** A system context for the storage calls; its signal is the source's. */
  readonly context: (parent: { readonly signal: AbortSignal }) => RequestContext;
  /** Pause before listing again after a watch ended abnormally. Default 1000 ms. */
  readonly relistDelayMs?: number;
  /** Receives failures of list or watch (then retried). Default: ignored. */
  readonly onError?: (err: unknown) => void;
}

const EVERYTHING: InternalListOptions = {
  predicate: { label: labels.everything(), field: fields.everything() },
  resourceVersion: '',
  resourceVersionMatch: '',
  allowWatchBookmarks: true,
  sendInitialEvents: undefined,
  timeoutSeconds: 0,
};

/**
 * A CRDSource over the CRD storage itself, in process: list, then watch from the list's
 * resourceVersion; an ended watch lists again and reports the differences (a reflector with a
 * plain map as its store). What the control plane uses until an informer adapter replaces it,
 * and what tests drive the CRD handler with.
 */
export class StorageCRDSource implements CRDSource {
  private readonly crds = new Map<string, CustomResourceDefinition>();
  private readonly listeners = new Set<(event: CRDEvent) => void>();
  private readonly stopped = new AbortController();
  private synced = false;
  private running: Promise<void> | undefined;
  private readonly syncWaiters: Array<() => void> = [];

  constructor(private readonly opts: StorageCRDSourceOptions) {}

  get(name: string): CustomResourceDefinition | undefined {
    return this.crds.get(name);
  }

  list(): readonly CustomResourceDefinition[] {
    return [...this.crds.values()];
  }

  onChange(listener: (event: CRDEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Starts listing and watching (idempotent); resolves once the first list is in. */
  start(): Promise<void> {
    this.running ??= this.run();
    return this.synced ? Promise.resolve() : new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Stops the watch; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.stopped.abort(new Error('CRD source stopped'));
    await this.running;
  }

  private async run(): Promise<void> {
    const signal = this.stopped.signal;
    const ctx = this.opts.context({ signal });
    while (!signal.aborted) {
      try {
        const list = await this.opts.storage.list(ctx, EVERYTHING);
        this.replace(list.items as unknown as CustomResourceDefinition[]);
        const watcher = await this.opts.storage.watch(ctx, { ...EVERYTHING, resourceVersion: list.metadata.resourceVersion });
        try {
          await this.follow(watcher, signal);
        } finally {
          watcher.stop();
        }
      } catch (err) {
        if (signal.aborted) return;
        this.opts.onError?.(err);
      }
      if (!signal.aborted) await sleep(this.opts.relistDelayMs ?? 1000, signal);
    }
  }

  /** Applies watch events until the watch ends (stop, error, storage gone). */
  private async follow(watcher: StorageWatcher<KubeObject>, signal: AbortSignal): Promise<void> {
    for (;;) {
      const ev = await watcher.receive({ signal });
      if (ev === undefined) return;
      if (ev.type === 'ERROR') throw new Error(`CRD watch ended: ${ev.object.message}`);
      if (ev.type === 'BOOKMARK') continue;
      const crd = ev.object as unknown as CustomResourceDefinition;
      const name = crd.metadata?.name ?? '';
      if (ev.type === 'DELETED') this.delete(name);
      else this.upsert(crd);
    }
  }

  /** The state of a fresh list: differences are reported as events. */
  private replace(items: readonly CustomResourceDefinition[]): void {
    const seen = new Set<string>();
    for (const crd of items) {
      seen.add(crd.metadata?.name ?? '');
      this.upsert(crd);
    }
    for (const name of [...this.crds.keys()]) if (!seen.has(name)) this.delete(name);
    if (!this.synced) {
      this.synced = true;
      for (const resolve of this.syncWaiters.splice(0)) resolve();
    }
  }

  private upsert(crd: CustomResourceDefinition): void {
    const name = crd.metadata?.name ?? '';
    const old = this.crds.get(name);
    if (old !== undefined && isDeepStrictEqual(old, crd)) return;
    this.crds.set(name, crd);
    this.emit(old === undefined ? { type: 'added', crd } : { type: 'updated', crd, old });
  }

  private delete(name: string): void {
    const old = this.crds.get(name);
    if (old === undefined) return;
    this.crds.delete(name);
    this.emit({ type: 'deleted', crd: old });
  }

  private emit(event: CRDEvent): void {
    for (const l of this.listeners) l(event);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
