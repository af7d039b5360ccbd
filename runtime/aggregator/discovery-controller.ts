import type { APIServiceInformer } from '../../generated/informers/apiregistration/v1/apiservice.js';
import { isDeletedFinalStateUnknown, ListerNotFoundError, RateLimitingQueue, runController, type ReconcileResult } from '../client/index.js';
import type { DiscoveryRegistry, GroupVersionPriorities, ResourceDescription } from '../server/discovery/index.js';
import {
  apiServiceGroupVersion,
  apiServicePriority,
  availability,
  isLocalAPIService,
  priorityTable,
  serviceKey,
  type CachedAPIService,
} from './discovery-apiservices.js';
import type { BackendResolver } from './discovery-backend.js';
import { fetchServiceDiscovery, type ServiceDiscovery } from './discovery-fetch.js';

/** kube-aggregator refreshes every backend's discovery once a minute. */
export const DISCOVERY_RESYNC_PERIOD_MS = 60_000;

export interface AggregatedDiscoveryControllerOptions {
  readonly informer: APIServiceInformer;
  readonly backends: BackendResolver;
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
 * line with APIServices. A service-backed APIService publishes the group version it names from
 * its backend's discovery (fetched once per Service port with ETags, legacy fallback, see
 * fetchServiceDiscovery) as Current; while the backend cannot be reached, or its APIService is
 * Available=False, the last resources stay, marked Stale (a backend never reached shows its
 * group version without resources). Local APIServices publish nothing here (their servers
 * describe themselves) but, like every APIService, give their group version its priority.
 * Fetches follow APIService changes and a periodic resync.
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
    o.informer.informer().addEventHandler({
      onAdd: (s) => this.markDirty(s.metadata?.name),
      onUpdate: (_old, s) => this.markDirty(s.metadata?.name),
      onDelete: (s) => this.markDirty((isDeletedFinalStateUnknown(s) ? s.obj : s).metadata?.name),
    });
  }

  /** Publishes and refreshes until `signal` aborts; the APIService informer must be started by its owner. */
  run(signal: AbortSignal): Promise<void> {
    this.o.priorities.setPriorities(priorityTable(this.o.informer.lister().list()));
    const timer = setInterval(() => this.resync(), this.resyncPeriodMs);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    return runController({
      queue: this.queue,
      signal,
      workers: 2,
      reconcile: (name, sig) => this.sync(name, sig),
      onError: this.onError,
    });
  }

  /** Marks every service-backed APIService for a new fetch (kube's one-minute poll). */
  resync(): void {
    for (const s of this.o.informer.lister().list()) if (!isLocalAPIService(s)) this.markDirty(s.metadata?.name);
  }

  private markDirty(name: string | undefined): void {
    if (name === undefined) return;
    this.dirtyAt.set(name, ++this.clock);
    this.queue.add(name);
  }

  private async sync(name: string, signal: AbortSignal): Promise<ReconcileResult | void> {
    this.o.priorities.setPriorities(priorityTable(this.o.informer.lister().list()));
    const apiService = this.get(name);
    const { group, version } = apiServiceGroupVersion(name);
    if (apiService === undefined || isLocalAPIService(apiService)) {
      this.o.discovery.removeGroupVersion(group, version);
      this.published.delete(name);
      this.dirtyAt.delete(name);
      this.failing.delete(name);
      return;
    }
    const publish = (resources: readonly ResourceDescription[], freshness: 'Current' | 'Stale'): void => {
      this.o.discovery.setGroupVersion(group, version, resources, { ...apiServicePriority(apiService), freshness });
      this.published.set(name, resources);
    };
    if (availability(apiService) === 'False') {
      publish(this.published.get(name) ?? [], 'Stale');
      return;
    }
    try {
      const discovery = await this.fresh(name, apiService, group, version, signal);
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
  private async fresh(name: string, apiService: CachedAPIService, group: string, version: string, signal: AbortSignal): Promise<ServiceDiscovery> {
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
        const transport = await this.o.backends.transportFor(apiService);
        const discovery = await fetchServiceDiscovery({
          transport,
          group,
          version,
          ...(previous !== undefined ? { cached: previous } : {}),
          ...(this.o.timeoutMs !== undefined ? { timeoutMs: this.o.timeoutMs } : {}),
          signal,
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

  private get(name: string): CachedAPIService | undefined {
    try {
      return this.o.informer.lister().get(name);
    } catch (err) {
      if (err instanceof ListerNotFoundError) return undefined;
      throw err;
    }
  }
}
