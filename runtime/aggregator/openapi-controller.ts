import { RateLimitingQueue, runController, type ReconcileResult } from '../client/index.js';
import type { SwaggerV2Document } from '../server/openapi/index.js';
import { compareForOpenAPIMerge } from './discovery-apiservices.js';
import { backendGetter, followAPIServices, type AggregatedAPIServices } from './discovery-backend.js';
import { fetchRemoteOpenAPI, OPENAPI_TIMEOUT_MS, type RemoteOpenAPI } from './openapi-fetch.js';

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
  readonly apiServices: AggregatedAPIServices;
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
  /** What each APIService's backend last gave, under the group version it was published as. */
  private readonly specs = new Map<string, RemoteOpenAPI & { readonly group: string; readonly version: string }>();
  private readonly failing = new Set<string>();

  constructor(private readonly o: AggregatedOpenAPIControllerOptions) {
    this.resyncPeriodMs = o.resyncPeriodMs ?? OPENAPI_RESYNC_PERIOD_MS;
    this.onError = o.onError ?? ((key, err) => process.stderr.write(`AggregatedOpenAPIController: ${key}: ${err instanceof Error ? err.message : String(err)}\n`));
  }

  /** Downloads every registered APIService's documents, then follows changes and refreshes until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    followAPIServices(signal, this.o.apiServices, {
      enqueue: (name) => this.queue.add(name),
      initially: (s) => !s.local,
      resync: () => this.resync(),
      resyncPeriodMs: this.resyncPeriodMs,
    });
    return runController({ queue: this.queue, signal, workers: 2, reconcile: (name, sig) => this.sync(name, sig), onError: this.onError });
  }

  /** Queues every service-backed APIService for a new check. */
  resync(): void {
    for (const s of this.o.apiServices.list()) if (!s.local) this.queue.add(s.name);
  }

  private async sync(name: string, signal: AbortSignal): Promise<ReconcileResult | void> {
    const apiService = this.o.apiServices.get(name);
    if (apiService === undefined || apiService.local || !apiService.available) {
      this.failing.delete(name);
      const held = this.specs.get(name);
      if (held === undefined) return;
      this.specs.delete(name);
      this.o.openapi.removeRemoteGroupVersion(held.group, held.version);
      this.publishV2();
      return;
    }
    const { group, version } = apiService;
    const cached = this.specs.get(name);
    let fetched: RemoteOpenAPI;
    try {
      fetched = await fetchRemoteOpenAPI({
        get: backendGetter(this.o.apiServices, name, { timeoutMs: this.o.timeoutMs ?? OPENAPI_TIMEOUT_MS, signal }),
        group,
        version,
        ...(cached !== undefined ? { cached } : {}),
      });
    } catch (err) {
      if (!this.failing.has(name)) this.onError(name, err);
      this.failing.add(name);
      return { requeue: true };
    }
    this.failing.delete(name);
    this.specs.set(name, { ...fetched, group, version });
    this.o.openapi.setRemoteGroupVersion(group, version, fetched.v3?.body);
    this.publishV2();
  }

  /** Every held v2 document, in kube-aggregator's merge order of their APIServices. */
  private publishV2(): void {
    const all = this.o.apiServices.list();
    const held = all.filter((s) => this.specs.has(s.name)).sort(compareForOpenAPIMerge(all.filter((s) => !s.local)));
    const documents: SwaggerV2Document[] = [];
    for (const s of held) {
      const v2 = this.specs.get(s.name)?.v2;
      if (v2 !== undefined) documents.push(v2);
    }
    this.o.openapi.setAggregatedSwaggerV2(documents);
  }
}
