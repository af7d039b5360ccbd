import type { RESTClient } from '../../client/index.js';
import type { leaderelection } from '../../client/index.js';
import type { GenericAPIServer } from '../../server/genericapiserver.js';
import { ElectedControllers } from './elected.js';
import type { CompletedLeaderElectionOptions } from './options.js';
import { APISERVER_SINGLETONS_LEASE, type SingletonControllers } from './singletons.js';

/**
 * Runs the API servers' singleton controllers (./singletons.ts) under the Lease
 * kube-system/kube-apiserver-singleton-controllers, with kube-controller-manager's
 * --leader-elect-* timings, as the API server itself (the loopback client). Campaigning starts
 * once `ready` resolves (the Lease's namespace exists) and stops when shutdown begins, after the
 * controllers, so the Lease is released for another replica. Undefined when the chain runs
 * them itself (--leader-elect=false).
 */
export function runAPIServerSingletons(
  chain: { singletons: SingletonControllers | undefined; loopback: RESTClient; servers: { core: GenericAPIServer } },
  o: { leaderElection: CompletedLeaderElectionOptions; identity: string; metrics: leaderelection.LeaderMetric; ready: Promise<void> },
): { stop(): Promise<void> } | undefined {
  const singletons = chain.singletons;
  if (singletons === undefined) return undefined;
  const le = o.leaderElection;
  const elected = new ElectedControllers({
    namespace: 'kube-system',
    name: APISERVER_SINGLETONS_LEASE,
    identity: o.identity,
    client: chain.loopback,
    leaseDurationMs: le.leaseDurationMs,
    renewDeadlineMs: le.renewDeadlineMs,
    retryPeriodMs: le.retryPeriodMs,
    component: 'kube-apiserver',
    metrics: o.metrics,
    startTerm: () => singletons.startTerm((name, err) => process.stderr.write(`${APISERVER_SINGLETONS_LEASE}: ${name}: ${err instanceof Error ? err.message : String(err)}\n`)),
  });
  // Not a post-start hook: readiness must not wait for a Lease another replica may hold.
  void o.ready.then(() => elected.start());
  chain.servers.core.addPreShutdownHook('stop-apiserver-singleton-controllers', () => elected.stop());
  return elected;
}
