import type { Handler } from '../apimachinery/request/http.js';
import type { PathRecorderMux } from '../server/mux.js';
import { APIREGISTRATION_GROUP, isAvailable, isLocal, LEGACY_API_SERVICE_NAME, proxyPath, type CachedAPIService } from './apiservice.js';
import { requestBackend, type BackendRequest, type BackendResponse } from './backend-client.js';
import { newGroupHandler } from './group-handler.js';
import { ProxyHandler, type ProxyHandlingInfo, type ServiceReference } from './proxy-handler.js';
import type { ResolvedEndpoint, ServiceResolver } from './service-resolver.js';
import { backendTLSConfig, BackendTransport, sameTLSConfig, type BackendTLSConfig, type ProxyClientCertificate } from './transport.js';

/** An APIService as the aggregator handles it now. */
export interface RegisteredAPIService {
  readonly name: string;
  readonly group: string;
  readonly version: string;
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
  /** No spec.service: served by this server's own chain. */
  readonly local: boolean;
  /** The Available condition is True (requests are proxied only then). */
  readonly available: boolean;
  /** The service in front of the aggregated server; absent for local ones. */
  readonly service?: ServiceReference;
  /** How the aggregator talks TLS to it; absent for local ones. */
  readonly tls?: BackendTLSConfig;
  /** The object as last seen (frozen). */
  readonly apiService: CachedAPIService;
}

/** A change of the handled APIServices; `updated` also for status changes (availability). */
export type APIServiceEvent =
  | { readonly type: 'added'; readonly apiService: RegisteredAPIService }
  | { readonly type: 'updated'; readonly apiService: RegisteredAPIService; readonly previous: RegisteredAPIService }
  | { readonly type: 'removed'; readonly apiService: RegisteredAPIService };

/**
 * What the rest of the aggregator (merged discovery and OpenAPI) reads: which APIServices are
 * handled, which are available, and how to reach the server behind one.
 */
export interface APIServiceRegistry {
  /** Every handled APIService, by name. */
  list(): readonly RegisteredAPIService[];
  get(name: string): RegisteredAPIService | undefined;
  /**
   * Calls `listener` for every change from now on, synchronously, in order; a listener that
   * throws does not stop the others. Returns the unsubscribe.
   */
  subscribe(listener: (event: APIServiceEvent) => void): () => void;
  /**
   * Where a request to a service-backed APIService would go now: an endpoint of its service
   * (throws ServiceResolutionError when there is none) and the TLS configuration.
   */
  resolveBackend(name: string): { readonly url: string; readonly endpoint: ResolvedEndpoint; readonly tls: BackendTLSConfig };
  /**
   * Sends a request to the server behind a service-backed APIService, over the proxy's own
   * transport (front-proxy certificate, caBundle), as system:kube-aggregator unless another user
   * is given; resolves with the whole answer, whatever its status. Rejects with
   * ServiceResolutionError or BackendRequestError.
   */
  requestBackend(name: string, r: BackendRequest): Promise<BackendResponse>;
}

export interface HandlerManagerOptions {
  /** The aggregator's mux, where the handlers are added and removed while serving. */
  readonly mux: PathRecorderMux;
  /**
   * What this server's chain answers for paths the aggregator does not proxy (kube's
   * delegateHandler): the discovery documents, then the servers behind the aggregator.
   */
  readonly localDelegate: Handler;
  readonly resolver: ServiceResolver;
  readonly proxyClientCertificate: ProxyClientCertificate;
  /** Dial and TLS handshake limit of proxied requests; default 5 s. */
  readonly connectTimeoutMs?: number;
  /** A proxied request could not reach the backend of `name`. */
  readonly onUnreachable?: (name: string) => void;
  readonly onListenerError?: (err: unknown) => void;
}

interface Entry {
  readonly handler: ProxyHandler;
  readonly registered: RegisteredAPIService;
  readonly transport: BackendTransport | undefined;
}

/**
 * The aggregator's APIService handling (APIAggregator.AddAPIService / RemoveAPIService): per
 * APIService a proxy handler at `/apis/<group>/<version>` and below it (`/api` for `v1.`), per
 * group a discovery handler at `/apis/<group>`, registered on the mux while serving; per
 * service-backed APIService a transport, kept while its TLS configuration stays the same and
 * rebuilt when it changes. APIServices of the aggregator's own group are served by it and
 * never handled here.
 */
export class APIServiceHandlerManager implements APIServiceRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly handledGroups = new Set<string>();
  private readonly listeners = new Set<(event: APIServiceEvent) => void>();

  constructor(private readonly o: HandlerManagerOptions) {}

  /** Adds or updates the handling of an APIService (call from one controller at a time). */
  addAPIService(svc: CachedAPIService): void {
    const name = svc.metadata?.name ?? '';
    const group = svc.spec?.group ?? '';
    if (group === APIREGISTRATION_GROUP) return;
    const existing = this.entries.get(name);
    const tls = backendTLSConfig(svc, this.o.proxyClientCertificate);
    let transport = existing?.transport;
    if (!sameTLSConfig(transport?.tls, tls)) {
      transport?.retire();
      transport = tls === undefined ? undefined : new BackendTransport(tls, { connectTimeoutMs: this.o.connectTimeoutMs ?? 5_000 });
    }
    const registered = describe(svc, tls);
    const handler =
      existing?.handler ?? new ProxyHandler({ name, localDelegate: this.o.localDelegate, resolver: this.o.resolver, ...(this.o.onUnreachable ? { onUnreachable: this.o.onUnreachable } : {}) });
    handler.update(handlingInfo(registered, transport));
    this.entries.set(name, { handler, registered, transport });
    if (existing === undefined) {
      const path = proxyPath(name);
      this.o.mux.handle(path, handler.serve, { replace: true });
      this.o.mux.handlePrefix(`${path}/`, handler.serve, { replace: true, listed: false });
      if (name !== LEGACY_API_SERVICE_NAME) this.handleGroup(group);
      this.emit({ type: 'added', apiService: registered });
    } else {
      this.emit({ type: 'updated', apiService: registered, previous: existing.registered });
    }
  }

  /**
   * Stops handling an APIService: its paths go back to the chain (for `v1.`, whose paths are
   * the chain's own discovery paths, the handler stays and serves locally). The group handler
   * stays: with no APIService of the group left it hands every request on.
   */
  removeAPIService(name: string): void {
    const entry = this.entries.get(name);
    if (entry === undefined) return;
    this.entries.delete(name);
    entry.transport?.retire();
    if (name === LEGACY_API_SERVICE_NAME) {
      entry.handler.update({ local: true });
    } else {
      const path = proxyPath(name);
      this.o.mux.unregister(path);
      this.o.mux.unregister(`${path}/`);
    }
    this.emit({ type: 'removed', apiService: entry.registered });
  }

  /** Whether `name` is handled (has a proxy handler). */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  list(): readonly RegisteredAPIService[] {
    return [...this.entries.values()].map((e) => e.registered).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): RegisteredAPIService | undefined {
    return this.entries.get(name)?.registered;
  }

  subscribe(listener: (event: APIServiceEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  resolveBackend(name: string): { url: string; endpoint: ResolvedEndpoint; tls: BackendTLSConfig } {
    const { transport, service } = this.remote(name);
    const endpoint = this.o.resolver.resolveEndpoint(service.namespace, service.name, service.port);
    const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
    return { url: `https://${host}:${endpoint.port}`, endpoint, tls: transport.tls };
  }

  requestBackend(name: string, r: BackendRequest): Promise<BackendResponse> {
    try {
      const { transport } = this.remote(name);
      return requestBackend(transport, this.resolveBackend(name).endpoint, r);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Closes every backend connection. */
  close(): void {
    for (const e of this.entries.values()) e.transport?.destroy();
  }

  private remote(name: string): { transport: BackendTransport; service: ServiceReference } {
    const entry = this.entries.get(name);
    const service = entry?.registered.service;
    if (entry?.transport === undefined || service === undefined) throw new Error(`APIService "${name}" is not handled by a service`);
    return { transport: entry.transport, service };
  }

  private handleGroup(group: string): void {
    if (this.handledGroups.has(group)) return;
    this.handledGroups.add(group);
    const handler = newGroupHandler({ group, apiServices: () => [...this.entries.values()].map((e) => e.registered.apiService), localDelegate: this.o.localDelegate });
    this.o.mux.handle(`/apis/${group}`, handler, { replace: true });
    this.o.mux.handle(`/apis/${group}/`, handler, { replace: true, listed: false });
  }

  private emit(event: APIServiceEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        (this.o.onListenerError ?? ((e: unknown) => process.stderr.write(`APIService listener failed: ${String(e)}\n`)))(err);
      }
    }
  }
}

function describe(svc: CachedAPIService, tls: BackendTLSConfig | undefined): RegisteredAPIService {
  const spec = svc.spec;
  const ref = spec?.service;
  return {
    name: svc.metadata?.name ?? '',
    group: spec?.group ?? '',
    version: spec?.version ?? '',
    groupPriorityMinimum: spec?.groupPriorityMinimum ?? 0,
    versionPriority: spec?.versionPriority ?? 0,
    local: isLocal(svc),
    available: isAvailable(svc),
    ...(ref !== undefined && ref !== null ? { service: { namespace: ref.namespace ?? '', name: ref.name ?? '', port: ref.port ?? 443 } } : {}),
    ...(tls !== undefined ? { tls } : {}),
    apiService: svc,
  };
}

function handlingInfo(r: RegisteredAPIService, transport: BackendTransport | undefined): ProxyHandlingInfo {
  if (r.service === undefined || transport === undefined) return { local: true };
  return { local: false, available: r.available, service: r.service, transport };
}
