import type { Endpoints } from '../../apis/core/v1/endpoints.js';
import type { Service } from '../../apis/core/v1/service.js';
import type { DeepReadonly } from '../client/types.js';

/** Reads Services and Endpoints (informer caches in the aggregator); undefined when absent. */
export interface ServiceLookup {
  service(namespace: string, name: string): DeepReadonly<Service> | undefined;
  endpoints(namespace: string, name: string): DeepReadonly<Endpoints> | undefined;
}

/** Where to dial: an address of the service's endpoints. */
export interface ResolvedEndpoint {
  readonly host: string;
  readonly port: number;
}

/** Why a service cannot be dialled; the message is kube's (ResolveEndpoint). */
export class ServiceResolutionError extends Error {
  override readonly name = 'ServiceResolutionError';
}

/** Turns a service reference into an address to dial (kube-aggregator's ServiceResolver). */
export interface ServiceResolver {
  resolveEndpoint(namespace: string, name: string, port: number): ResolvedEndpoint;
}

/**
 * kube's endpoint service resolver (proxy.ResolveEndpoint), over Service and Endpoints as this
 * server stores them: the Service must be ClusterIP (the default), NodePort or LoadBalancer and
 * have a port numbered `port`; the address is a ready address of an Endpoints subset whose port
 * has that service port's name, its number being the target port. Ready addresses are taken in
 * turn across calls, so connections spread over the endpoints.
 */
export class EndpointsServiceResolver implements ServiceResolver {
  private next = 0;

  constructor(private readonly lookup: ServiceLookup) {}

  resolveEndpoint(namespace: string, name: string, port: number): ResolvedEndpoint {
    const svc = this.lookup.service(namespace, name);
    if (svc === undefined) throw new ServiceResolutionError(`service "${name}" not found`);
    const type = svc.spec?.type ?? 'ClusterIP';
    if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') throw new ServiceResolutionError(`unsupported service type "${type}"`);
    const svcPort = servicePort(svc, port);
    if (svcPort === undefined) throw new ServiceResolutionError(`no service port ${port} found for service "${name}"`);
    const candidates = readyAddresses(this.lookup.endpoints(namespace, name), svcPort.name ?? '');
    const chosen = candidates[this.next++ % Math.max(1, candidates.length)];
    if (chosen === undefined) throw new ServiceResolutionError(`no endpoints available for service "${name}"`);
    return chosen;
  }
}

/** The service port numbered `port` (findServicePort). */
export function servicePort(svc: DeepReadonly<Service>, port: number): { readonly name?: string } | undefined {
  return svc.spec?.ports?.find((p) => p.port === port);
}

/** Every ready address of the subsets that have a port named `portName`, with that port's number. */
export function readyAddresses(eps: DeepReadonly<Endpoints> | undefined, portName: string): ResolvedEndpoint[] {
  const out: ResolvedEndpoint[] = [];
  for (const subset of eps?.subsets ?? []) {
    const epPort = subset.ports?.find((p) => (p.name ?? '') === portName);
    if (epPort === undefined) continue;
    for (const a of subset.addresses ?? []) if (a.ip !== '') out.push({ host: a.ip, port: epPort.port });
  }
  return out;
}
