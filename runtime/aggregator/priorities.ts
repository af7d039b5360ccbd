import type { APIService } from '../../apis/apiregistration/v1/types.js';
import type { APIGroupDefinition } from '../registry/types.js';
import { discoveryFromGroupDefinition } from '../server/discovery/index.js';
import { apiServiceName } from './apiservice.js';

/** Where a group version sorts in discovery: its group among groups, then the version within the group. */
export interface APIServicePriority {
  readonly group: number;
  readonly version: number;
}

/** kube's priorities of every CRD group version's APIService: CRDs sort low, their versions kube-aware among themselves. */
export const CRD_API_SERVICE_PRIORITY: APIServicePriority = { group: 1000, version: 100 };

/**
 * The local APIServices of the built-in groups (apiServicesToRegister + makeAPIService): one per
 * version of every group given, named `<version>.<group>`, without a service, with the priorities
 * its discovery uses (kube's apiVersionPriorities, server/discovery/priorities.ts; a group kube
 * does not define takes the default). Pass the groups the servers behind the aggregator serve;
 * the aggregator's own group needs none.
 */
export function builtinAPIServices(groups: readonly APIGroupDefinition[]): APIService[] {
  return groups.flatMap((def) => discoveryFromGroupDefinition(def).map((gv) => localAPIService(gv.group, gv.version, { group: gv.groupPriorityMinimum, version: gv.versionPriority })));
}

/** A local APIService for `group`/`version` (no service: served by this server's own chain). */
export function localAPIService(group: string, version: string, priority: APIServicePriority): APIService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: apiServiceName(group, version) },
    spec: { group, version, groupPriorityMinimum: priority.group, versionPriority: priority.version },
  };
}
