import { networkInterfaces } from 'node:os';
import type { Endpoints, Service, ServicePort } from '../../../apis/core/v1/types.js';
import { isAlreadyExists, isNotFound } from '../../apimachinery/errors/index.js';
import { ResourceClient } from '../../client/resource-client.js';
import type { RESTClient } from '../../client/types.js';
import type { APIServerLeases } from './leases.js';

export interface KubernetesServiceControllerOptions {
  /** The control plane's loopback client: writes are defaulted and admitted as any client's. */
  readonly rest: RESTClient;
  /** Whether the server serves Endpoints. */
  readonly endpoints: boolean;
  /** The API servers' leases: the Endpoints list every server whose lease lives. */
  readonly leases: APIServerLeases;
  /** The first IP of the primary service range. */
  readonly serviceIP: string;
  /** The address other components reach this server on (kube's --advertise-address). */
  readonly publicIP: string;
  readonly securePort: number;
  /** kube's EndpointInterval: 10 s. */
  readonly intervalMs?: number;
}

const NAME = 'kubernetes';
const NAMESPACE = 'default';

/**
 * The controller that keeps the `default/kubernetes` Service (pkg/controlplane/controller/
 * kubernetesservice): a ClusterIP Service on the first IP of the service range, port `https`
 * 443/TCP to the secure port, no selector, labelled `component: apiserver`,
 * `provider: kubernetes`; and its Endpoints naming every API server whose lease lives (kube's
 * lease reconciler), on this server's port. Created at start, then reconciled periodically:
 * ports and type are put back when changed, the Service and Endpoints recreated when deleted.
 * On stop this server's lease is dropped and its IP taken out of the Endpoints (unless it is
 * the last: kube refuses to erase every endpoint).
 */
export class KubernetesServiceController {
  private timer: NodeJS.Timeout | undefined;
  /** Set by stop(): the lease is no longer renewed. */
  private removing = false;
  private readonly stopping = new AbortController();

  constructor(private readonly opts: KubernetesServiceControllerOptions) {}

  /**
   * Reconciles now and then every interval, in the background (kube's controller runs beside
   * the server: readiness does not wait for it). Resolves with the first reconcile; a failure
   * of it is retried by the next round.
   */
  start(): Promise<void> {
    this.timer = setInterval(() => {
      this.reconcile().catch(() => {});
    }, this.opts.intervalMs ?? 10_000);
    this.timer.unref();
    return this.reconcile().catch(() => {});
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (this.removing) return;
    this.removing = true;
    try {
      await this.opts.leases.remove(this.opts.publicIP);
      await this.reconcileEndpoints();
    } catch {
      // Best effort: the lease expires on its own.
    }
    this.stopping.abort();
  }

  private readonly services = (): ResourceClient<Service> =>
    new ResourceClient<Service>(this.opts.rest, { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true }, NAMESPACE);

  private readonly endpoints = (): ResourceClient<Endpoints> =>
    new ResourceClient<Endpoints>(this.opts.rest, { group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', namespaced: true }, NAMESPACE);

  async reconcile(): Promise<void> {
    await this.reconcileService();
    await this.reconcileEndpoints();
  }

  private ports(): ServicePort[] {
    return [{ name: 'https', port: 443, protocol: 'TCP', targetPort: this.opts.securePort }];
  }

  private async reconcileService(): Promise<void> {
    const desired: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: NAME, namespace: NAMESPACE, labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { ports: this.ports(), clusterIP: this.opts.serviceIP, sessionAffinity: 'None', type: 'ClusterIP' },
    };
    await ensure(this.services(), desired, this.stopping.signal, (svc) => {
      const ports = this.ports();
      // getServiceUpdateIfNeeded: only the ports and the type are put back.
      if (JSON.stringify(portsOf(svc)) === JSON.stringify(ports) && svc.spec?.type === 'ClusterIP') return undefined;
      return { ...svc, spec: { ...svc.spec, ports, type: 'ClusterIP' as const } };
    });
  }

  private async reconcileEndpoints(): Promise<void> {
    if (!this.opts.endpoints) return;
    if (!this.removing) await this.opts.leases.renew(this.opts.publicIP);
    const ips = await this.opts.leases.ips();
    if (ips.length === 0) return;
    const subsets = [{ addresses: ips.map((ip) => ({ ip })), ports: [{ name: 'https', port: this.opts.securePort, protocol: 'TCP' as const }] }];
    const desired: Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: NAME, namespace: NAMESPACE, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
      subsets,
    };
    await ensure(this.endpoints(), desired, this.stopping.signal, (ep) => {
      if (JSON.stringify(ep.subsets ?? []) === JSON.stringify(subsets)) return undefined;
      return { ...ep, subsets };
    });
  }
}

/** The Service's ports as compared: the fields this controller sets. */
function portsOf(svc: Service): ServicePort[] {
  return (svc.spec?.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', targetPort: p.targetPort ?? p.port })) as ServicePort[];
}

/** Creates `desired`, or updates the stored object with what `fix` returns (undefined: it is fine). */
async function ensure<T extends { metadata?: { name?: string; namespace?: string } }>(client: ResourceClient<T>, desired: T, signal: AbortSignal, fix: (current: T) => T | undefined): Promise<void> {
  let current: T;
  try {
    current = await client.get(desired.metadata?.name ?? '', { signal });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await client.create(desired, { signal });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    return;
  }
  const updated = fix(current);
  if (updated !== undefined) await client.update(updated, { signal });
}

/**
 * kube's DefaultExternalAddress: the bind address unless it is unspecified or loopback, then
 * the first non-internal address of a host interface (IPv4 first), else the bind address.
 */
export function defaultAdvertiseAddress(bindAddress: string): string {
  const unusable = bindAddress === '0.0.0.0' || bindAddress === '::' || bindAddress.startsWith('127.') || bindAddress === '::1';
  if (!unusable) return bindAddress;
  const addresses = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal && !a.address.startsWith('fe80:'));
  const chosen = addresses.find((a) => a.family === 'IPv4') ?? addresses[0];
  return chosen?.address ?? bindAddress;
}
