import type { APIServiceInformer } from '../../generated/informers/apiregistration/v1/apiservice.js';
import { isDeletedFinalStateUnknown, ListerNotFoundError, RateLimitingQueue, runController, type ReconcileResult } from '../client/index.js';
import type { SwaggerV2Document } from '../server/openapi/index.js';
import { apiServiceGroupVersion, availability, compareForOpenAPIMerge, isLocalAPIService, type CachedAPIService } from './discovery-apiservices.js';
import type { BackendResolver } from './discovery-backend.js';
import { fetchRemoteOpenAPI, type RemoteOpenAPI } from './openapi-fetch.js';

/** kube-aggregator downloads every backend's OpenAPI again once a minute. */
export const OPENAPI_RESYNC_PERIOD_MS = 60_000;

/** Where aggregated servers' documents go: the OpenAPIService's remote half. */
export interface AggregatedOpenAPIRegistry {
  /** `body` undefined: served remotely without a v3 document (a local one stays hidden). */
  setRemoteGroupVersion(group: string, version: string, body: Buffer | undefined): void;
  removeRemoteGroupVersion(group: string, version: string): void;
  setAggregatedSwaggerV2(documents: readonly SwaggerV2Document[]): void;
}

export interface AggregatedOpenAPIControllerOptions {
  readonly informer: APIServiceInformer;
  readonly backends: BackendResolver;
  readonly openapi: AggregatedOpenAPIRegistry;
  /** How often every service-backed APIService's OpenAPI is checked again; default one minute. */
  readonly resyncPeriodMs?: number;
  /** Limit of one download; default kube's 60 s. */
  readonly timeoutMs?: number;
  /** A backend starting to fail, and reconcile errors; default a line on stderr. */
  readonly onError?: (key: string, err: unknown) => void;
}

/**
 * kube-aggregator's OpenAPI v2 and v3 aggregation controllers in one: for each service-backed
 * APIService, its backend's OpenAPI v3 document of the APIService's group version is served as
 * ours at /openapi/v3/<apis/group/version> (listed in our root with its hash), and the
 * backend's /openapi/v2, reduced to that group version, is merged into our /openapi/v2 in
 * APIService priority order. A failed download keeps the last documents (retried with backoff
 * and on the periodic resync); they are removed when the APIService goes, turns local, or is
 * Available=False.
 */
export class AggregatedOpenAPIController {
  private readonly queue = new RateLimitingQueue<string>();
  private readonly resyncPeriodMs: number;
  private readonly onError: (key: string, err: unknown) => void;
  private readonly specs = new Map<string, RemoteOpenAPI>();
  private readonly failing = new Set<string>();

  constructor(private readonly o: AggregatedOpenAPIControllerOptions) {
    this.resyncPeriodMs = o.resyncPeriodMs ?? OPENAPI_RESYNC_PERIOD_MS;
    this.onError = o.onError ?? ((key, err) => process.stderr.write(`AggregatedOpenAPIController: ${key}: ${err instanceof Error ? err.message : String(err)}\n`));
    const enqueue = (s: CachedAPIService): void => {
      if (s.metadata?.name !== undefined) this.queue.add(s.metadata.name);
    };
    o.informer.informer().addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, s) => enqueue(s),
      onDelete: (s) => enqueue(isDeletedFinalStateUnknown(s) ? s.obj : s),
    });
  }

  /** Downloads and merges until `signal` aborts; the APIService informer must be started by its owner. */
  run(signal: AbortSignal): Promise<void> {
    const timer = setInterval(() => this.resync(), this.resyncPeriodMs);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    return runController({ queue: this.queue, signal, reconcile: (name, sig) => this.sync(name, sig), onError: this.onError });
  }

  /** Queues every service-backed APIService for a new check. */
  resync(): void {
    for (const s of this.o.informer.lister().list()) if (!isLocalAPIService(s) && s.metadata?.name !== undefined) this.queue.add(s.metadata.name);
  }

  private async sync(name: string, signal: AbortSignal): Promise<ReconcileResult | void> {
    const apiService = this.get(name);
    const { group, version } = apiServiceGroupVersion(name);
    if (apiService === undefined || isLocalAPIService(apiService) || availability(apiService) === 'False') {
      this.failing.delete(name);
      if (!this.specs.delete(name)) return;
      this.o.openapi.removeRemoteGroupVersion(group, version);
      this.publishV2();
      return;
    }
    const cached = this.specs.get(name);
    let fetched: RemoteOpenAPI;
    try {
      const transport = await this.o.backends.transportFor(apiService);
      fetched = await fetchRemoteOpenAPI({
        transport,
        group,
        version,
        ...(cached !== undefined ? { cached } : {}),
        ...(this.o.timeoutMs !== undefined ? { timeoutMs: this.o.timeoutMs } : {}),
        signal,
      });
    } catch (err) {
      if (!this.failing.has(name)) this.onError(name, err);
      this.failing.add(name);
      return { requeue: true };
    }
    this.failing.delete(name);
    this.specs.set(name, fetched);
    this.o.openapi.setRemoteGroupVersion(group, version, fetched.v3?.body);
    this.publishV2();
  }

  /** Every held v2 document, in kube-aggregator's merge order of their APIServices. */
  private publishV2(): void {
    const all = this.o.informer.lister().list();
    const byName = new Map(all.map((s) => [s.metadata?.name ?? '', s]));
    const held = [...this.specs.keys()].map((name) => byName.get(name)).filter((s): s is CachedAPIService => s !== undefined);
    held.sort(compareForOpenAPIMerge(all.filter((s) => !isLocalAPIService(s))));
    const documents: SwaggerV2Document[] = [];
    for (const s of held) {
      const v2 = this.specs.get(s.metadata?.name ?? '')?.v2;
      if (v2 !== undefined) documents.push(v2);
    }
    this.o.openapi.setAggregatedSwaggerV2(documents);
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
