import { Counter, Gauge, type Registry } from 'prom-client';
import type { LeaderMetric } from '../../client/leaderelection/index.js';

/**
 * component-base's leader election metrics on a server's registry: `leader_election_master_status`
 * (1 while this process leads the lease `name`, else 0) and `leader_election_slowpath_total`,
 * both labelled by the election's name, as every kube component reports them. One instance per
 * registry, shared by all the elections of the process (kube's are process-global).
 */
export function newLeaderElectionMetrics(registry: Registry): LeaderMetric {
  const registers = [registry];
  const status = new Gauge({
    name: 'leader_election_master_status',
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
    labelNames: ['name'],
    registers,
  });
  const slowpath = new Counter({
    name: 'leader_election_slowpath_total',
    help: "Total number of slow path exercised in renewing leader leases. 'name' is the string used to identify the lease. Please make sure to group by name.",
    labelNames: ['name'],
    registers,
  });
  return {
    on: (name) => status.set({ name }, 1),
    off: (name) => status.set({ name }, 0),
    slowpathExercised: (name) => slowpath.inc({ name }),
  };
}
