import type { CustomResourceDefinition } from '../../../apis/apiextensions/v1/types.js';
import { ResourceClient, type RESTClient } from '../../client/index.js';
import { servedNames, storageVersionOf } from '../apihelpers.js';

/** The custom resources of one CRD, as the finalizer needs them (kube's ListerCollectionDeleter). */
export interface CustomResourceInstances {
  /** The namespace of every instance ('' for cluster-scoped ones), one entry per instance. */
  listNamespaces(signal: AbortSignal): Promise<string[]>;
  /** Deletes every instance in `namespace` ('' for a cluster-scoped CRD). */
  deleteCollection(namespace: string, signal: AbortSignal): Promise<void>;
}

type CustomResource = { metadata?: { name?: string; namespace?: string } };

/**
 * The instances of a CRD through the REST API (with admission, as kube's comment wishes), over
 * any REST client: the loopback client in the control plane. Reached at the storage version
 * when served, else at the first served version; a CRD serving no version has no REST path to
 * its instances, and both calls fail with a message saying so.
 */
export function restInstances(rest: RESTClient, crd: CustomResourceDefinition): CustomResourceInstances {
  const names = servedNames(crd);
  const storage = storageVersionOf(crd);
  const served = crd.spec.versions.filter((v) => v.served).map((v) => v.name);
  const version = storage !== undefined && served.includes(storage) ? storage : served[0];
  const namespaced = crd.spec.scope === 'Namespaced';
  const client = (namespace: string | undefined): ResourceClient<CustomResource> => {
    if (version === undefined) throw new Error(`${names.plural}.${crd.spec.group} serves no version`);
    return new ResourceClient<CustomResource>(rest, { group: crd.spec.group, version, resource: names.plural, kind: names.kind, namespaced }, namespace);
  };
  return {
    async listNamespaces(signal) {
      const list = await client(undefined).list({ signal });
      return list.items.map((i) => i.metadata?.namespace ?? '');
    },
    async deleteCollection(namespace, signal) {
      await client(namespaced ? namespace : undefined).deleteCollection({}, { signal });
    },
  };
}
