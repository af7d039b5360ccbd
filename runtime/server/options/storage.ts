import type { GenericAPIServer } from '../genericapiserver.js';
import type { StorageFactory } from '../../storage/index.js';

/**
 * The storage's health checks (kube's EtcdOptions.addEtcdHealthEndpoint). On etcd: `etcd` on
 * /healthz, /livez and /readyz (a read within --etcd-healthcheck-timeout) and `etcd-readiness`
 * on /readyz (within --etcd-readycheck-timeout), so a hung etcd fails both within their
 * timeouts. The embedded store has one `storage` check on /readyz: kube's `etcd` name would
 * mislead, and a process whose own file fails is not helped by a restart.
 */
export function addStorageHealthChecks(
  server: Pick<GenericAPIServer, 'addHealthChecks' | 'addReadyzChecks'>,
  backend: 'sqlite' | 'etcd3',
  factory: Pick<StorageFactory, 'healthCheck' | 'readinessCheck'>,
): void {
  if (backend === 'etcd3') {
    server.addHealthChecks({ name: 'etcd', check: () => factory.healthCheck() });
    server.addReadyzChecks({ name: 'etcd-readiness', check: () => factory.readinessCheck() });
    return;
  }
  server.addReadyzChecks({ name: 'storage', check: () => factory.readinessCheck() });
}
