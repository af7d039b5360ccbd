import type { Endpoints } from '../../../apis/core/v1/endpoints.js';
import type { Service } from '../../../apis/core/v1/service.js';
import type { APIServiceInterface } from '../../../generated/clientset/apiregistration/v1/index.js';
import type { APIServiceInformer } from '../../../generated/informers/apiregistration/v1/apiservice.js';
import type { EndpointsInformer } from '../../../generated/informers/core/v1/endpoints.js';
import type { ServiceInformer } from '../../../generated/informers/core/v1/service.js';
import {
  isDeletedFinalStateUnknown,
  ItemExponentialFailureRateLimiter,
  RateLimitingQueue,
  runController,
  waitForCacheSync,
  type DeepReadonly,
  type ReconcileResult,
  type ResourceEventHandler,
} from '../../client/index.js';
import { isLocal, LEGACY_API_SERVICE_NAME, type CachedAPIService } from '../apiservice.js';
import { readyAddresses, servicePort } from '../service-resolver.js';
import { backendTLSConfig, BackendTransport, sameTLSConfig, type ProxyClientCertificate } from '../transport.js';
import { discoveryCheck } from './discovery-check.js';
import { getCached, onErrorOf } from './lookup.js';
import { updateAvailableCondition, type AvailableVerdict } from './status.js';

/**
 * How often a service-backed APIService is checked again, failing ones sooner with a backoff.
 * kube resyncs every 30 s; 5 s here, so that a backend that died is noticed within seconds
 * even when no request goes to it (a proxied request failing to connect re-checks at once).
 */
export const DEFAULT_AVAILABILITY_CHECK_PERIOD_MS = 5_000;
/** kube's discovery client timeout. */
export const DEFAULT_DISCOVERY_CHECK_TIMEOUT_MS = 5_000;

export interface RemoteAvailableControllerOptions {
  readonly apiServices: APIServiceInformer;
  readonly services: ServiceInformer;
  readonly endpoints: EndpointsInformer;
  readonly client: APIServiceInterface;
  readonly proxyClientCertificate: ProxyClientCertificate;
  /** How often every service-backed APIService is checked again; failing ones are retried sooner, backing off up to it. */
  readonly checkPeriodMs?: number;
  readonly checkTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
  readonly now?: () => Date;
  readonly onError?: (key: string, err: unknown) => void;
}

type Verdict = AvailableVerdict & { readonly status: 'True' | 'False' };

/**
 * kube-aggregator's remote availability controller: the Available condition of every
 * APIService that points at a service, worded as kube's:
 *
 * - False/ServiceNotFound: no such Service;
 * - False/ServicePortError: a ClusterIP Service without the port;
 * - False/EndpointsNotFound: no Endpoints of that name;
 * - False/MissingEndpoints: no ready address with the service port's name;
 * - False/FailedDiscoveryCheck: GET /apis/<group>/<version> on the backend failed (the message
 *   is the last error);
 * - True/Passed `all checks passed`.
 *
 * Checked when the APIService, its Service or its Endpoints change, when the proxy could not
 * reach the backend (recheck()), and every check period; a failing one is retried with a
 * backoff from 100 ms up to the period. The check goes over a transport with the proxy's TLS
 * configuration, so a caBundle that does not verify the server fails it.
 */
export class RemoteAvailableController {
  private readonly queue: RateLimitingQueue<string>;
  private readonly transports = new Map<string, BackendTransport>();
  private readonly periodMs: number;
  private readonly onError: (key: string, err: unknown) => void;

  constructor(private readonly o: RemoteAvailableControllerOptions) {
    this.periodMs = o.checkPeriodMs ?? DEFAULT_AVAILABILITY_CHECK_PERIOD_MS;
    this.queue = new RateLimitingQueue<string>({ rateLimiter: new ItemExponentialFailureRateLimiter<string>(100, this.periodMs) });
    this.onError = onErrorOf(o.onError, 'AvailableConditionController');
    const enqueue = (svc: CachedAPIService): void => this.queue.add(svc.metadata?.name ?? '');
    o.apiServices.informer().addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, svc) => enqueue(svc),
      onDelete: (svc) => enqueue(isDeletedFinalStateUnknown(svc) ? svc.obj : svc),
    });
    const react = (namespace: string, name: string): void => this.enqueueFor(namespace, name);
    o.services.informer().addEventHandler(changesOf<Service>(react));
    o.endpoints.informer().addEventHandler(changesOf<Endpoints>(react));
  }

  /** Checks `name` again now (the proxy could not reach its backend). */
  recheck(name: string): void {
    this.queue.add(name);
  }

  /** Checks until `signal` aborts, once the informers have synced; then closes its connections. */
  async run(signal: AbortSignal): Promise<void> {
    const o = this.o;
    if (!(await waitForCacheSync(signal, [() => o.apiServices.informer().hasSynced(), () => o.services.informer().hasSynced(), () => o.endpoints.informer().hasSynced()]))) return;
    try {
      await runController({ queue: this.queue, signal, workers: 5, reconcile: (name, s) => this.sync(name, s), onError: this.onError });
    } finally {
      for (const t of this.transports.values()) t.destroy();
      this.transports.clear();
    }
  }

  private async sync(name: string, signal: AbortSignal): Promise<ReconcileResult | void> {
    const svc = getCached(this.o.apiServices.lister(), name);
    if (svc === undefined || isLocal(svc)) {
      this.transports.get(name)?.destroy();
      this.transports.delete(name);
      return;
    }
    const verdict = await this.check(name, svc, signal);
    if (signal.aborted) return;
    const written = await updateAvailableCondition(this.o.client, svc, verdict, this.o.now?.() ?? new Date(), signal);
    // Failing: retried with the backoff (the period at most); passing: once a period.
    if (!written || verdict.status === 'False') return { requeue: true };
    return { requeueAfterMs: this.periodMs };
  }

  private async check(name: string, svc: CachedAPIService, signal: AbortSignal): Promise<Verdict> {
    const ref = svc.spec?.service ?? {};
    const namespace = ref.namespace ?? '';
    const serviceName = ref.name ?? '';
    const port = ref.port ?? 443;
    const where = `service/${serviceName} in "${namespace}"`;
    const service = getCached(this.o.services.lister().namespace(namespace), serviceName);
    if (service === undefined) return { status: 'False', reason: 'ServiceNotFound', message: `${where} is not present` };
    const svcPort = servicePort(service, port);
    const portName = svcPort?.name ?? '';
    const eps = getCached(this.o.endpoints.lister().namespace(namespace), serviceName);
    const endpoints = readyAddresses(eps, portName);
    if ((service.spec?.type ?? 'ClusterIP') === 'ClusterIP') {
      if (svcPort === undefined) return { status: 'False', reason: 'ServicePortError', message: `${where} is not listening on port ${port}` };
      if (eps === undefined) return { status: 'False', reason: 'EndpointsNotFound', message: `cannot find endpoints for ${where}` };
      if (endpoints.length === 0) return { status: 'False', reason: 'MissingEndpoints', message: `endpoints for ${where} have no addresses with port name "${portName}"` };
    } else {
      // Other types are only dialled: what stops the resolver is the discovery check's failure.
      const unresolvable = this.unresolvable(service, serviceName, port, endpoints.length);
      if (unresolvable !== undefined) return { status: 'False', reason: 'FailedDiscoveryCheck', message: unresolvable };
    }
    const failure = await discoveryCheck(this.transportFor(name, svc), endpoints, {
      path: name === LEGACY_API_SERVICE_NAME ? '/api/v1' : `/apis/${svc.spec?.group ?? ''}/${svc.spec?.version ?? ''}`,
      timeoutMs: this.o.checkTimeoutMs ?? DEFAULT_DISCOVERY_CHECK_TIMEOUT_MS,
      signal,
    });
    if (failure !== undefined) return { status: 'False', reason: 'FailedDiscoveryCheck', message: failure };
    return { status: 'True', reason: 'Passed', message: 'all checks passed' };
  }

  /** Why the endpoint resolver would find no address for a Service that is not ClusterIP (ResolveEndpoint's errors). */
  private unresolvable(service: DeepReadonly<Service>, name: string, port: number, addresses: number): string | undefined {
    const type = service.spec?.type ?? 'ClusterIP';
    if (type !== 'NodePort' && type !== 'LoadBalancer') return `unsupported service type "${type}"`;
    if (servicePort(service, port) === undefined) return `no service port ${port} found for service "${name}"`;
    if (addresses === 0) return `no endpoints available for service "${name}"`;
    return undefined;
  }

  /** The check's transport for `name`: kept across checks, rebuilt when the APIService's TLS configuration changes. */
  private transportFor(name: string, svc: CachedAPIService): BackendTransport {
    const tls = backendTLSConfig(svc, this.o.proxyClientCertificate);
    const existing = this.transports.get(name);
    if (existing !== undefined && sameTLSConfig(existing.tls, tls)) return existing;
    existing?.retire();
    const transport = new BackendTransport(tls!, { connectTimeoutMs: this.o.connectTimeoutMs ?? DEFAULT_DISCOVERY_CHECK_TIMEOUT_MS });
    this.transports.set(name, transport);
    return transport;
  }

  /** Every service-backed APIService in front of `namespace`/`name`. */
  private enqueueFor(namespace: string, name: string): void {
    for (const svc of this.o.apiServices.lister().list()) {
      const ref = svc.spec?.service;
      if (ref?.namespace === namespace && ref.name === name) this.queue.add(svc.metadata?.name ?? '');
    }
  }
}

/** Reacts to any change of a Service or Endpoints by its namespace and name. */
function changesOf<T extends { metadata?: { namespace?: string; name?: string } }>(react: (namespace: string, name: string) => void): ResourceEventHandler<T> {
  const on = (obj: DeepReadonly<T>): void => {
    const meta = (obj as DeepReadonly<{ metadata?: { namespace?: string; name?: string } }>).metadata;
    react(meta?.namespace ?? '', meta?.name ?? '');
  };
  return { onAdd: on, onUpdate: (_old, obj) => on(obj), onDelete: (obj) => on(isDeletedFinalStateUnknown(obj) ? obj.obj : obj) };
}
