import { isDeletedFinalStateUnknown } from '../../client/cache.js';
import { newSharedIndexInformer, type SharedIndexInformerImpl } from '../../client/cache/index.js';
import type { Logger } from '../../client/cache/index.js';
import type { InstalledResource } from '../../registry/resources.js';
import type { GraphBuilder } from './graph-builder.js';
import { storageListWatch } from './list-watch.js';
import type { ObjectMetadata } from './metadata.js';
import type { ContextFunc, ServedResources } from './operations.js';

interface Monitor {
  readonly resource: InstalledResource;
  readonly informer: SharedIndexInformerImpl<ObjectMetadata>;
  readonly stop: AbortController;
  readonly done: Promise<void>;
}

export interface MonitorsOptions {
  readonly resources: ServedResources;
  readonly context: ContextFunc;
  readonly builder: GraphBuilder;
  /** Handlers see every object again this often (repairs missed events). */
  readonly resyncPeriodMs: number;
  readonly logger?: Logger;
}

/**
 * One metadata informer per served resource (kube's monitors, kept in step with discovery by
 * GarbageCollector.Sync): sync() starts monitors for resources that appeared (a CRD became
 * served) and stops those of resources that went, whose objects the graph then verifies live.
 */
export class Monitors {
  private readonly monitors = new Map<string, Monitor>();
  private readonly stopping = new Set<Promise<void>>();

  constructor(private readonly opts: MonitorsOptions) {}

  /** Brings the monitors in line with the served resources; cheap when nothing changed. */
  sync(): void {
    const served = new Map(this.opts.resources.all().map((r) => [key(r), r]));
    for (const [k, m] of this.monitors) {
      const r = served.get(k);
      // A resource served by new storages (its CRD was recreated) gets a new monitor.
      if (r === undefined || r.rest !== m.resource.rest) this.remove(k, m, { verify: true });
    }
    for (const [k, r] of served) if (!this.monitors.has(k)) this.add(k, r);
  }

  /** Resolves true once every current monitor has synced, false if `signal` aborts first. */
  async synced(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const pending = [...this.monitors.values()].filter((m) => !m.informer.hasSynced());
      if (pending.length === 0) return true;
      // A monitor that stops before syncing (its resource went) resolves false: look again.
      await Promise.all(pending.map((m) => m.informer.whenSynced(signal)));
      if (signal.aborted) return false;
    }
  }

  /** Stops every monitor and resolves when their loops have ended. */
  async stop(): Promise<void> {
    for (const [k, m] of this.monitors) this.remove(k, m, { verify: false });
    await Promise.all(this.stopping);
  }

  private add(k: string, resource: InstalledResource): void {
    const kind = { group: resource.group, kind: resource.kind, namespaced: resource.namespaced };
    const informer = newSharedIndexInformer<ObjectMetadata>({
      listWatch: storageListWatch(resource.rest.main, this.opts.context),
      name: `garbagecollector ${k}`,
      defaultResyncMs: this.opts.resyncPeriodMs,
      ...(this.opts.logger !== undefined ? { tuning: { logger: this.opts.logger } } : {}),
    });
    const builder = this.opts.builder;
    informer.addEventHandler({
      onAdd: (obj) => builder.observe(kind, obj),
      onUpdate: (_old, obj) => builder.observe(kind, obj),
      onDelete: (obj) => builder.forget(isDeletedFinalStateUnknown(obj) ? obj.obj : obj),
    });
    const stop = new AbortController();
    const done = informer.run(stop.signal).catch(() => {});
    this.monitors.set(k, { resource, informer, stop, done });
  }

  /** Stops a monitor; with `verify`, what it saw is verified live (its resource went). */
  private remove(k: string, m: Monitor, o: { verify: boolean }): void {
    this.monitors.delete(k);
    m.stop.abort();
    this.stopping.add(m.done);
    void m.done.then(() => this.stopping.delete(m.done));
    if (o.verify)
      this.opts.builder.unobserve(
        m.informer
          .getIndexer()
          .list()
          .map((obj) => obj.metadata.uid ?? ''),
      );
  }
}

function key(r: { group: string; resource: string }): string {
  return `${r.resource}.${r.group}`;
}
