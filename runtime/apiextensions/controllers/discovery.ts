import type { CustomResourceDefinition } from '../../../apis/apiextensions/v1/types.js';
import type { DiscoveryRegistry, ResourceDescription, SubresourceDescription } from '../../server/discovery/index.js';
import { storageVersionHash } from '../../server/discovery/index.js';
import { servedNames, storageVersionOf } from '../apihelpers.js';
import { ESTABLISHED, isConditionTrue, TERMINATING } from './conditions.js';
import type { CRDControllerDeps } from './deps.js';
import { GroupVersionController } from './groupversion.js';

/** kube's priorities for every CRD group version in aggregated discovery. */
export const CRD_GROUP_PRIORITY_MINIMUM = 1000;
export const CRD_VERSION_PRIORITY = 100;

const VERBS: readonly string[] = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
/** No new objects while a CRD's resources are being deleted. */
const TERMINATING_VERBS: readonly string[] = ['delete', 'deletecollection', 'get', 'list', 'watch'];
const SUBRESOURCE_VERBS: readonly string[] = ['get', 'patch', 'update'];

export interface DiscoveryControllerOptions extends CRDControllerDeps {
  /** Where CRD group versions are published (the discovery manager's `crd` source). */
  readonly discovery: DiscoveryRegistry;
}

/**
 * The CRD discovery controller (apiextensions' DiscoveryController): publishes, per group
 * version, the resources of every Established CRD serving it, under their accepted names, and
 * removes a group version once no Established CRD serves it. The discovery manager rebuilds the
 * documents (and their ETags) on every change, so a CRD appears the moment it is established.
 */
export class DiscoveryController {
  private readonly loop: GroupVersionController;

  constructor(private readonly o: DiscoveryControllerOptions) {
    this.loop = new GroupVersionController(o, 'DiscoveryController', (group, version) => this.sync(group, version));
  }

  /** Publishes every group version, then reconciles changes until `signal` aborts; `synced` once the first publication is complete. */
  run(signal: AbortSignal, synced?: () => void): Promise<void> {
    return this.loop.run(signal, synced);
  }

  /** The description of `group`/`version` as the cache now has it. */
  private sync(group: string, version: string): void {
    const resources: ResourceDescription[] = [];
    for (const cached of this.o.informer.lister().list()) {
      const crd = cached as CustomResourceDefinition;
      if (crd.spec.group !== group || !isConditionTrue(cached, ESTABLISHED)) continue;
      const v = crd.spec.versions.find((x) => x.name === version);
      if (v === undefined || !v.served) continue;
      resources.push(resourceDescription(crd, v, isConditionTrue(cached, TERMINATING)));
    }
    if (resources.length === 0) {
      this.o.discovery.removeGroupVersion(group, version);
      return;
    }
    resources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.o.discovery.setGroupVersion(group, version, resources, { groupPriorityMinimum: CRD_GROUP_PRIORITY_MINIMUM, versionPriority: CRD_VERSION_PRIORITY });
  }
}

function resourceDescription(crd: CustomResourceDefinition, v: CustomResourceDefinition['spec']['versions'][number], terminating: boolean): ResourceDescription {
  const names = servedNames(crd);
  const storage = storageVersionOf(crd);
  const subresources: SubresourceDescription[] = [];
  if (v.subresources?.status !== undefined) subresources.push({ name: 'status', verbs: SUBRESOURCE_VERBS });
  if (v.subresources?.scale !== undefined) subresources.push({ name: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUBRESOURCE_VERBS });
  return {
    name: names.plural,
    singularName: names.singular,
    namespaced: crd.spec.scope === 'Namespaced',
    kind: names.kind,
    verbs: terminating ? TERMINATING_VERBS : VERBS,
    shortNames: names.shortNames,
    categories: names.categories,
    // Of the storage version, under the kind the spec names (as kube computes it).
    ...(storage !== undefined ? { storageVersionHash: storageVersionHash(crd.spec.group, storage, crd.spec.names.kind) } : {}),
    subresources,
  };
}
