import type { ListWatch, SharedIndexInformer, SharedInformerFactoryCore, SharedInformerFactoryOptions } from '../cache.js';
import type { ListOptions, ResourceDescriptor } from '../types.js';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX } from './keys.js';
import type { ReflectorTuning } from './reflector.js';
import { SharedIndexInformerImpl } from './shared-informer.js';

export interface SharedInformerFactoryCoreOptions extends SharedInformerFactoryOptions {
  /** Reflector knobs for every informer (clock, backoff, watch timeouts, logger); client-go's defaults when absent. */
  readonly tuning?: ReflectorTuning;
}

/** How a factory names a resource: `apiservices.v1.apiregistration.k8s.io`, `namespaces.v1` for the core group. */
export function informerKey(r: ResourceDescriptor): string {
  return r.group === '' ? `${r.resource}.${r.version}` : `${r.resource}.${r.version}.${r.group}`;
}

/**
 * The shared informer factory (informers.sharedInformerFactory): the first
 * informerFor of a resource creates its informer, later ones get the same, so
 * every consumer shares one list and one watch. The namespace and the list
 * option tweak are the factory's, so the resource alone identifies an informer.
 *
 * Unlike client-go's, an informer asked for after start() starts at once (and
 * the next waitForCacheSync waits for it): client-go's rule "ask for every
 * informer before Start" fails silently when broken (the informer never runs,
 * its lister stays empty), so here it cannot be broken.
 */
class SharedInformerFactoryCoreImpl implements SharedInformerFactoryCore {
  private readonly informers = new Map<string, SharedIndexInformerImpl<unknown>>();
  /** One controller per informer rather than one shared signal, which would gather listeners from every loop. */
  private readonly running = new Map<string, { readonly stop: AbortController; readonly done: Promise<void> }>();
  private started = false;
  private shuttingDown = false;

  constructor(readonly options: SharedInformerFactoryCoreOptions) {}

  informerFor<T>(resource: ResourceDescriptor, listWatch: (namespace: string | undefined) => ListWatch<T>): SharedIndexInformer<T> {
    const key = informerKey(resource);
    const existing = this.informers.get(key);
    if (existing !== undefined) return existing as unknown as SharedIndexInformer<T>;
    const informer = new SharedIndexInformerImpl<T>({
      name: key,
      listWatch: tweaked(listWatch(resource.namespaced ? this.options.namespace : undefined), this.options.tweakListOptions),
      defaultResyncMs: this.options.defaultResyncMs ?? 0,
      indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
      tuning: this.options.tuning,
    });
    const stored = informer as unknown as SharedIndexInformerImpl<unknown>;
    this.informers.set(key, stored);
    if (this.started) this.run(key, stored);
    return informer;
  }

  start(): void {
    this.started = true;
    for (const [key, informer] of this.informers) this.run(key, informer);
  }

  /** Runs one informer unless it runs already or the factory is shutting down. */
  private run(key: string, informer: SharedIndexInformerImpl<unknown>): void {
    if (this.shuttingDown || this.running.has(key)) return;
    const stop = new AbortController();
    this.running.set(key, { stop, done: informer.run(stop.signal) });
  }

  async waitForCacheSync(signal?: AbortSignal): Promise<ReadonlyMap<string, boolean>> {
    const started = [...this.running.keys()].map((key) => [key, this.informers.get(key) as SharedIndexInformerImpl<unknown>] as const);
    const synced = await Promise.all(started.map(([, informer]) => informer.whenSynced(signal)));
    return new Map(started.map(([key], i) => [key, synced[i] ?? false]));
  }

  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const r of this.running.values()) r.stop.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}

/** A factory core for generated SharedInformerFactory classes. */
export function newSharedInformerFactoryCore(options: SharedInformerFactoryCoreOptions = {}): SharedInformerFactoryCore {
  return new SharedInformerFactoryCoreImpl(options);
}

function tweaked<T>(lw: ListWatch<T>, tweak: ((o: ListOptions) => ListOptions) | undefined): ListWatch<T> {
  if (tweak === undefined) return lw;
  return { list: (o) => lw.list(tweak(o)), watch: (o) => lw.watch(tweak(o)) };
}
