import type { GroupVersionPriority } from './types.js';

/**
 * kube-apiserver's group version priorities (apiVersionPriorities: the generic control plane's
 * DefaultGenericAPIServicePriorities merged with kube-apiserver's own, 1.32), keyed
 * `<group>/<version>` (`/v1` for the core group). The one table both the built-in discovery and
 * the aggregator's local APIServices read: a built-in group added under apis/ gets kube's
 * priority from here, with nothing else to edit.
 */
export const KUBE_API_VERSION_PRIORITIES: ReadonlyMap<string, GroupVersionPriority> = new Map(
  (
    [
      ['', 'v1', 18000, 1],
      ['apps', 'v1', 17800, 15],
      ['events.k8s.io', 'v1', 17750, 15],
      ['events.k8s.io', 'v1beta1', 17750, 5],
      ['authentication.k8s.io', 'v1', 17700, 15],
      ['authentication.k8s.io', 'v1beta1', 17700, 9],
      ['authentication.k8s.io', 'v1alpha1', 17700, 1],
      ['authorization.k8s.io', 'v1', 17600, 15],
      ['autoscaling', 'v1', 17500, 15],
      ['autoscaling', 'v2', 17500, 30],
      ['autoscaling', 'v2beta1', 17500, 9],
      ['autoscaling', 'v2beta2', 17500, 1],
      ['batch', 'v1', 17400, 15],
      ['batch', 'v1beta1', 17400, 9],
      ['batch', 'v2alpha1', 17400, 9],
      ['certificates.k8s.io', 'v1', 17300, 15],
      ['certificates.k8s.io', 'v1beta1', 17300, 9],
      ['certificates.k8s.io', 'v1alpha1', 17300, 1],
      ['networking.k8s.io', 'v1', 17200, 15],
      ['networking.k8s.io', 'v1beta1', 17200, 9],
      ['policy', 'v1', 17100, 15],
      ['policy', 'v1beta1', 17100, 9],
      ['rbac.authorization.k8s.io', 'v1', 17000, 15],
      ['storage.k8s.io', 'v1', 16800, 15],
      ['storage.k8s.io', 'v1beta1', 16800, 9],
      ['storage.k8s.io', 'v1alpha1', 16800, 1],
      ['apiextensions.k8s.io', 'v1', 16700, 15],
      ['admissionregistration.k8s.io', 'v1', 16700, 15],
      ['admissionregistration.k8s.io', 'v1beta1', 16700, 12],
      ['admissionregistration.k8s.io', 'v1alpha1', 16700, 9],
      ['scheduling.k8s.io', 'v1', 16600, 15],
      ['coordination.k8s.io', 'v1', 16500, 15],
      ['coordination.k8s.io', 'v1beta1', 16500, 13],
      ['coordination.k8s.io', 'v1alpha2', 16500, 12],
      ['node.k8s.io', 'v1', 16300, 15],
      ['node.k8s.io', 'v1alpha1', 16300, 1],
      ['node.k8s.io', 'v1beta1', 16300, 9],
      ['discovery.k8s.io', 'v1', 16200, 15],
      ['discovery.k8s.io', 'v1beta1', 16200, 12],
      // kube-apiserver's entries for resource.k8s.io replace the generic control plane's 15900.
      ['resource.k8s.io', 'v1beta1', 16200, 9],
      ['resource.k8s.io', 'v1alpha3', 16200, 1],
      ['flowcontrol.apiserver.k8s.io', 'v1', 16100, 21],
      ['flowcontrol.apiserver.k8s.io', 'v1beta3', 16100, 18],
      ['flowcontrol.apiserver.k8s.io', 'v1beta2', 16100, 15],
      ['flowcontrol.apiserver.k8s.io', 'v1beta1', 16100, 12],
      ['flowcontrol.apiserver.k8s.io', 'v1alpha1', 16100, 9],
      ['internal.apiserver.k8s.io', 'v1alpha1', 16000, 9],
      ['storagemigration.k8s.io', 'v1beta1', 15800, 9],
    ] as const
  ).map(([group, version, groupPriorityMinimum, versionPriority]) => [`${group}/${version}`, { groupPriorityMinimum, versionPriority }]),
);

/** kube's groupPriorityMinimum for a group version nobody gave one (also what sample-apiserver's APIService uses). */
export const DEFAULT_GROUP_PRIORITY_MINIMUM = 1000;

/** Version priority of a group's preferred version when the table has none; each later version gets one less. */
export const PREFERRED_VERSION_PRIORITY = 15;

/**
 * The aggregator's own group (apiregistration.k8s.io) sorts above the 20000 that APIServices may
 * ask for, so it is listed first, as kube-aggregator lists it.
 */
export const AGGREGATOR_GROUP_PRIORITY_MINIMUM = 20001;
const AGGREGATOR_GROUP = 'apiregistration.k8s.io';

/**
 * Where version `index` (0 = preferred) of a group's `versions` sorts: kube's table when it
 * names the group version; else the group's priority from the table's other versions of the
 * group (a version kube's table does not list yet) or DEFAULT_GROUP_PRIORITY_MINIMUM, with
 * PREFERRED_VERSION_PRIORITY counting down by position.
 */
export function builtinGroupVersionPriority(group: string, version: string, index: number): GroupVersionPriority {
  const known = KUBE_API_VERSION_PRIORITIES.get(`${group}/${version}`);
  if (known !== undefined) return known;
  return { groupPriorityMinimum: groupPriorityMinimumOf(group), versionPriority: Math.max(1, PREFERRED_VERSION_PRIORITY - index) };
}

function groupPriorityMinimumOf(group: string): number {
  if (group === AGGREGATOR_GROUP) return AGGREGATOR_GROUP_PRIORITY_MINIMUM;
  const prefix = `${group}/`;
  for (const [gv, p] of KUBE_API_VERSION_PRIORITIES) if (gv.startsWith(prefix)) return p.groupPriorityMinimum;
  return DEFAULT_GROUP_PRIORITY_MINIMUM;
}
