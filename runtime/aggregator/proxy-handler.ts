import { newInternalError } from '../apimachinery/errors/index.js';
import type { APIRequest, APIResponse, Handler } from '../apimachinery/request/http.js';
import { apiServiceUnavailable, serviceUnresolvable, transportBuildFailed } from './errors.js';
import { proxyRequest, type ProxyTarget } from './proxy-request.js';
import { isUpgradeRequest, proxyUpgrade } from './proxy-upgrade.js';
import type { ServiceResolver } from './service-resolver.js';
import type { BackendTransport } from './transport.js';

/** A reference to the Service in front of an aggregated server, port defaulted. */
export interface ServiceReference {
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
}

/** How an APIService's requests are handled right now (proxyHandlingInfo). */
export type ProxyHandlingInfo =
  | { readonly local: true }
  | {
      readonly local: false;
      /** The Available condition is True. */
      readonly available: boolean;
      readonly service: ServiceReference;
      readonly transport: BackendTransport;
    };

export interface ProxyHandlerOptions {
  readonly name: string;
  /** Serves local APIServices: the rest of this server's chain. */
  readonly localDelegate: Handler;
  readonly resolver: ServiceResolver;
  /** The backend could not be reached (to re-check its availability without waiting). */
  readonly onUnreachable?: (name: string) => void;
}

/**
 * The handler of one APIService's paths (kube-aggregator's proxyHandler). Local APIServices go
 * to the rest of the chain; service-backed ones are proxied to an endpoint of their service, as
 * the authenticated user, once available; until then, and whenever the service leads nowhere,
 * the answer is 503. The handling info is swapped whole by update(), so a request sees one
 * consistent state.
 */
export class ProxyHandler {
  private info: ProxyHandlingInfo = { local: true };

  constructor(private readonly o: ProxyHandlerOptions) {}

  get handling(): ProxyHandlingInfo {
    return this.info;
  }

  update(info: ProxyHandlingInfo): void {
    this.info = info;
  }

  readonly serve: Handler = async (req: APIRequest, res: APIResponse) => {
    const info = this.info;
    if (info.local) return this.o.localDelegate(req, res);
    const name = this.o.name;
    if (!info.available) return res.writeError(apiServiceUnavailable(name));
    if (info.transport.buildError !== undefined) return res.writeError(transportBuildFailed(name, info.transport.buildError));
    if (req.user === undefined) return res.writeError(newInternalError(new Error('missing user')));
    let endpoint;
    try {
      endpoint = this.o.resolver.resolveEndpoint(info.service.namespace, info.service.name, info.service.port);
    } catch (err) {
      return res.writeError(serviceUnresolvable(name, err));
    }
    const target: ProxyTarget = {
      apiService: name,
      transport: info.transport,
      endpoint,
      user: req.user,
      ...(this.o.onUnreachable !== undefined ? { onUnreachable: () => this.o.onUnreachable?.(name) } : {}),
    };
    return isUpgradeRequest(req) ? proxyUpgrade(req, res, target) : proxyRequest(req, res, target);
  };
}
