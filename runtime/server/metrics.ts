import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { InFlightRecorder, RequestKind } from '../endpoints/filters/maxinflight.js';
import type { RequestMetricLabels, RequestMetricsRecorder } from '../endpoints/filters/metrics.js';
import type { Logger } from '../endpoints/filters/log.js';
import type { Handler } from '../apimachinery/request/http.js';

/** Counts stored objects per resource (`customresourcedefinitions.apiextensions.k8s.io`, `namespaces`). */
export type StorageObjectCounter = () => Promise<ReadonlyMap<string, number>>;

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

/** kube's apiserver_request_duration_seconds buckets (SLO-oriented, up to the 60 s request timeout). */
const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/**
 * The API server's Prometheus metrics on a private registry, under kube-apiserver's names:
 * apiserver_request_total, apiserver_request_duration_seconds,
 * apiserver_current_inflight_requests, apiserver_storage_objects, plus the process metrics.
 * Share one instance between the servers of a delegation chain: the head records and serves it.
 */
export class APIServerMetrics implements RequestMetricsRecorder, InFlightRecorder {
  readonly registry = new Registry();
  private readonly requests: Counter<(typeof REQUEST_LABELS)[number] | 'code'>;
  private readonly durations: Histogram<(typeof REQUEST_LABELS)[number]>;
  private readonly inflight: Gauge<'request_kind'>;
  private readonly storageCounters = new Set<StorageObjectCounter>();

  constructor(opts: { processMetrics?: boolean; logger?: Logger } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...REQUEST_LABELS, 'code'],
      registers,
    });
    this.durations = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: [...REQUEST_LABELS],
      buckets: REQUEST_DURATION_BUCKETS,
      registers,
    });
    this.inflight = new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'],
      registers,
    });
    this.inflight.set({ request_kind: 'mutating' }, 0);
    this.inflight.set({ request_kind: 'readOnly' }, 0);
    const counters = this.storageCounters;
    const logger = opts.logger;
    new Gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      labelNames: ['resource'],
      registers,
      async collect() {
        this.reset();
        for (const counter of counters) {
          try {
            for (const [resource, n] of await counter()) this.set({ resource }, n);
          } catch (err) {
            logger?.error('counting storage objects failed', { err });
          }
        }
      },
    });
    if (opts.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(labels: RequestMetricLabels, code: number, seconds: number): void {
    this.requests.inc({ ...labels, code: String(code) });
    this.durations.observe(labels, seconds);
  }

  setInFlight(kind: RequestKind, count: number): void {
    this.inflight.set({ request_kind: kind }, count);
  }

  /**
   * Adds a source for apiserver_storage_objects, asked at every scrape; counts of several
   * sources are merged (a resource counted twice keeps the later value). Returns its removal.
   */
  registerStorageObjectCounts(counter: StorageObjectCounter): () => void {
    this.storageCounters.add(counter);
    return () => this.storageCounters.delete(counter);
  }

  /** GET /metrics in the Prometheus text format. */
  handler(): Handler {
    return async (_req, res) => {
      const body = await this.registry.metrics();
      res.writeBytes(200, body, this.registry.contentType);
    };
  }
}
