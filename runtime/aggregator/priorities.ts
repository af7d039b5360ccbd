import type { APIService } from '../../apis/apiregistration/v1/types.js';
import type { APIGroupDefinition } from '../registry/types.js';
import { discoveryFromGroupDefinition } from '../server/discovery/index.js';
import { apiServiceName } from './apiservice.js';

/** Where a group version sorts in discovery: its group among groups, then the version within the group. */
export interface APIServicePriority {
  readonly group: number;
  readonly version: number;
}

/**
 * kube-apiserver's APIService priorities (DefaultGenericAPIServicePriorities) for the group
 * versions Kubernetes defines, keyed `<group>/<version>`. A group from apis/ that Kubernetes
 * does not define takes the priorities its discovery document uses.
 */
export const KUBE_API_SERVICE_PRIORITIES: Readonly<Record<string, APIServicePriority>> = {
  '/v1': { group: 18000, version: 1 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'events.k8s.io/v1beta1': { group: 17750, version: 5 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authentication.k8s.io/v1beta1': { group: 17700, version: 9 },
  'authentication.k8s.io/v1alpha1': { group: 17700, version: 1 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'certificates.k8s.io/v1beta1': { group: 17300, version: 9 },
  'certificates.k8s.io/v1alpha1': { group: 17300, version: 1 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1beta1': { group: 16700, version: 12 },
  'admissionregistration.k8s.io/v1alpha1': { group: 16700, version: 9 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'coordination.k8s.io/v1beta1': { group: 16500, version: 13 },
  'coordination.k8s.io/v1alpha2': { group: 16500, version: 12 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'discovery.k8s.io/v1beta1': { group: 16200, version: 12 },
  'flowcontrol.apiserver.k8s.io/v1': { group: 16100, version: 21 },
  'flowcontrol.apiserver.k8s.io/v1beta3': { group: 16100, version: 18 },
  'flowcontrol.apiserver.k8s.io/v1beta2': { group: 16100, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1beta1': { group: 16100, version: 12 },
  'flowcontrol.apiserver.k8s.io/v1alpha1': { group: 16100, version: 9 },
  'internal.apiserver.k8s.io/v1alpha1': { group: 16000, version: 9 },
  'resource.k8s.io/v1alpha3': { group: 15900, version: 9 },
  'storagemigration.k8s.io/v1beta1': { group: 15800, version: 9 },
};

/** kube's priorities of every CRD group version's APIService: CRDs sort low, their versions kube-aware among themselves. */
export const CRD_API_SERVICE_PRIORITY: APIServicePriority = { group: 1000, version: 100 };

/**
 * The local APIServices of the built-in groups (apiServicesToRegister + makeAPIService): one per
 * version of every group given, named `<version>.<group>`, without a service. Pass the groups
 * the servers behind the aggregator serve; the aggregator's own group needs none.
 */
export function builtinAPIServices(groups: readonly APIGroupDefinition[]): APIService[] {
  return groups.flatMap((def) =>
    discoveryFromGroupDefinition(def).map((gv) => {
      const priority = KUBE_API_SERVICE_PRIORITIES[`${gv.group}/${gv.version}`] ?? { group: gv.groupPriorityMinimum, version: gv.versionPriority };
      return localAPIService(gv.group, gv.version, priority);
    }),
  );
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
