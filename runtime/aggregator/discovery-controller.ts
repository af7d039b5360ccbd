import { RateLimitingQueue, runController, type ReconcileResult } from '../client/index.js';
import type { DiscoveryRegistry, GroupVersionPriorities, ResourceDescription } from '../server/discovery/index.js';
import { apiServicePriority, priorityTable, serviceKey } from './discovery-apiservices.js';
import { backendGetter, followAPIServices, type AggregatedAPIService, type AggregatedAPIServices } from './discovery-backend.js';
import { DISCOVERY_TIMEOUT_MS, fetchServiceDiscovery, type ServiceDiscovery } from './discovery-fetch.js';

/** kube-aggregator refreshes every backend's discovery once a minute. */
export const DISCOVERY_RESYNC_PERIOD_MS = 60_000;

export interface AggregatedDiscoveryControllerOptions {
  readonly apiServices: AggregatedAPIServices;
  /** Where backends' group versions are published: the discovery manager's `aggregator` source. */
  readonly discovery: DiscoveryRegistry;
  /** Where the order of every APIService goes (DiscoveryManager.setPriorities). */
  readonly priorities: { setPriorities(priorities: GroupVersionPriorities): void };
  /** How often every service-backed APIService is fetched again; default one minute. */
  readonly resyncPeriodMs?: number;
  /** Limit of one download; default kube's 5 s. */
  readonly timeoutMs?: number;
  /** A backend starting to fail, and reconcile errors; default a line on stderr. */
  readonly onError?: (key: string, err: unknown) => void;
}

interface CachedService {
  readonly discovery: ServiceDiscovery | undefined;
  /** The value of the change counter just before the request that produced `discovery` was sent. */
  readonly fetchedAt: number;
  /** The last attempt failed. */
  readonly stale: boolean;
}

/**
 * kube-aggregator's discovery manager: keeps the `aggregator` source of the discovery model in
 * line with the registered APIServices. An available service-backed APIService publishes the
 * group version it names from its backend's discovery (fetched once per Service port with
 * ETags, legacy fallback, see fetchServiceDiscovery) as Current; while the backend cannot be
 * reached, or the APIService is not available, the last resources stay, marked Stale (a
 * backend never reached shows its group version without resources). Local APIServices publish
 * nothing here (their servers describe themselves) but, like every APIService, give their
 * group version its priority. Fetches follow APIService changes and a periodic resync.
 */
export class AggregatedDiscoveryController {
  private readonly queue = new RateLimitingQueue<string>();
  private readonly resyncPeriodMs: number;
  private readonly onError: (key: string, err: unknown) => void;
  /** Change counter: orders APIService changes against fetches (kube compares timestamps). */
  private clock = 0;
  private readonly dirtyAt = new Map<string, number>();
  private readonly services = new Map<string, CachedService>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  /** What each APIService last published, kept while its backend fails. */
  private readonly published = new Map<string, readonly ResourceDescription[]>();
  private readonly failing = new Set<string>();

  constructor(private readonly o: AggregatedDiscoveryControllerOptions) {
    this.resyncPeriodMs = o.resyncPeriodMs ?? DISCOVERY_RESYNC_PERIOD_MS;
    this.onError = o.onError ?? ((key, err) => process.stderr.write(`AggregatedDiscoveryController: ${key}: ${err instanceof Error ? err.message : String(err)}\n`));
  }

  /** Publishes every registered APIService, then follows changes and refreshes until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    followAPIServices(signal, this.o.apiServices, {
      enqueue: (name) => this.markDirty(name),
      initially: () => true,
      resync: () => this.resync(),
      resyncPeriodMs: this.resyncPeriodMs,
    });
    return runController({ queue: this.queue, signal, workers: 2, reconcile: (name) => this.sync(name), onError: this.onError });
  }

  /** Marks every service-backed APIService for a new fetch (kube's one-minute poll). */
  resync(): void {
    for (const s of this.o.apiServices.list()) if (!s.local) this.markDirty(s.name);
  }

  private markDirty(name: string): void {
    this.dirtyAt.set(name, ++this.clock);
    this.queue.add(name);
  }

  private async sync(name: string): Promise<ReconcileResult | void> {
    this.o.priorities.setPriorities(priorityTable(this.o.apiServices.list()));
    const apiService = this.o.apiServices.get(name);
    if (apiService === undefined || apiService.local) {
      if (apiService === undefined) this.dirtyAt.delete(name);
      this.published.delete(name);
      this.failing.delete(name);
      // An APIService's name is `<version>.<group>` of its spec (validation holds it to that).
      const dot = name.indexOf('.');
      this.o.discovery.removeGroupVersion(name.slice(dot + 1), name.slice(0, dot));
      return;
    }
    const { group, version } = apiService;
    const publish = (resources: readonly ResourceDescription[], freshness: 'Current' | 'Stale'): void => {
      this.o.discovery.setGroupVersion(group, version, resources, { ...apiServicePriority(apiService), freshness });
      this.published.set(name, resources);
    };
    if (!apiService.available) {
      publish(this.published.get(name) ?? [], 'Stale');
      return;
    }
    try {
      const discovery = await this.fresh(apiService);
      publish(discovery.groupVersions.get(`${group}/${version}`) ?? [], 'Current');
      this.failing.delete(name);
    } catch (err) {
      publish(this.published.get(name) ?? [], 'Stale');
      if (!this.failing.has(name)) this.onError(name, err);
      this.failing.add(name);
      // Retried with the queue's backoff, quietly, as long as it fails.
      return { requeue: true };
    }
  }

  /**
   * The backend's discovery as of after the APIService's last change: the cached answer when it
   * was fetched later and did not fail, else a new fetch (one at a time per backend).
   */
  private async fresh(apiService: AggregatedAPIService): Promise<ServiceDiscovery> {
    const { name, group, version } = apiService;
    const key = serviceKey(apiService)!;
    for (let pending = this.inflight.get(key); pending !== undefined; pending = this.inflight.get(key)) await pending.catch(() => undefined);
    const cached = this.services.get(key);
    const dirtyAt = this.dirtyAt.get(name) ?? 0;
    const covers = cached?.discovery !== undefined && (cached.discovery.format === 'aggregated' || cached.discovery.groupVersions.has(`${group}/${version}`));
    if (cached !== undefined && covers && !cached.stale && cached.fetchedAt > dirtyAt) return cached.discovery!;
    const fetchedAt = ++this.clock;
    const previous = cached?.discovery;
    const attempt = (async () => {
      try {
        const discovery = await fetchServiceDiscovery({
          get: backendGetter(this.o.apiServices, name, { timeoutMs: this.o.timeoutMs ?? DISCOVERY_TIMEOUT_MS }),
          group,
          version,
          ...(previous !== undefined ? { cached: previous } : {}),
        });
        this.services.set(key, { discovery, fetchedAt, stale: false });
        return discovery;
      } catch (err) {
        this.services.set(key, { discovery: previous, fetchedAt, stale: true });
        throw err;
      }
    })();
    this.inflight.set(key, attempt);
    try {
      return await attempt;
    } finally {
      this.inflight.delete(key);
    }
  }
}
