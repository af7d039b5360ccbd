import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';

/**
 * What a CRD source reports: the CRD as it now is, and for updates the one it replaced. Deleted
 * CRDs are reported with their last known state.
 */
export type CRDEvent =
  | { readonly type: 'added'; readonly crd: CustomResourceDefinition }
  | { readonly type: 'updated'; readonly crd: CustomResourceDefinition; readonly old: CustomResourceDefinition }
  | { readonly type: 'deleted'; readonly crd: CustomResourceDefinition };

/**
 * Where the CRD handler learns which CRDs exist (kube's CRD lister plus informer handlers). The
 * controllers adapt a SharedIndexInformer to it; storageCRDSource watches the CRD storage
 * directly. Objects handed out are shared: never mutate them.
 */
export interface CRDSource {
  /** The CRD named `<plural>.<group>` as last observed; undefined when absent. */
  get(name: string): CustomResourceDefinition | undefined;
  list(): readonly CustomResourceDefinition[];
  /** Calls `listener` after every change; returns its unsubscribe. Listeners must not throw. */
  onChange(listener: (event: CRDEvent) => void): () => void;
  /** True once the first complete list has been observed (cache.HasSynced). */
  hasSynced(): boolean;
}
