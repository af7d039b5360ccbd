import type { ObjectLookup } from '../../admission/types.js';

/** Where a connection to a Service port goes. */
export interface ServiceEndpoint {
  readonly host: string;
  readonly port: number;
}

/**
 * Resolves a webhook's service reference (webhook.ServiceResolver) to an address to dial. The
 * TLS identity checked stays the service's DNS name (`<name>.<namespace>.svc`) whatever the
 * address. Rejects with the reason the service cannot be reached.
 */
export interface ServiceResolver {
  resolve(namespace: string, name: string, port: number, ctx: { readonly signal: AbortSignal }): Promise<ServiceEndpoint>;
}

interface ServicePortLike {
  name?: string;
  port?: number;
}
interface EndpointSubsetLike {
  addresses?: { ip?: string }[];
  ports?: { name?: string; port?: number }[];
}

const SERVICES = { group: '', resource: 'services' };
const ENDPOINTS = { group: '', resource: 'endpoints' };

/**
 * Resolves through the Service and its Endpoints in this server's own storage, as kube's
 * endpoint service resolver does (ResolveEndpoint): the service port with the requested port
 * number, then the first ready address of the endpoints port with the same name.
 */
export function endpointServiceResolver(lookup: ObjectLookup): ServiceResolver {
  return {
    async resolve(namespace, name, port, ctx) {
      const svc = await lookup.get(SERVICES, namespace, name, ctx);
      if (svc === undefined) throw new Error(`service "${name}" not found`);
      const ports = (svc['spec'] as { ports?: ServicePortLike[] } | undefined)?.ports ?? [];
      const svcPort = ports.find((p) => p.port === port);
      if (svcPort === undefined) throw new Error(`no service port ${port} found for service "${name}"`);
      const eps = await lookup.get(ENDPOINTS, namespace, name, ctx);
      if (eps === undefined) throw new Error(`endpoints "${name}" not found`);
      for (const subset of (eps['subsets'] as EndpointSubsetLike[] | undefined) ?? []) {
        const epPort = (subset.ports ?? []).find((p) => (p.name ?? '') === (svcPort.name ?? ''));
        const address = (subset.addresses ?? []).find((a) => typeof a.ip === 'string' && a.ip !== '');
        if (epPort?.port !== undefined && address?.ip !== undefined) return { host: address.ip, port: epPort.port };
      }
      throw new Error(`no endpoints available for service "${name}"`);
    },
  };
}
