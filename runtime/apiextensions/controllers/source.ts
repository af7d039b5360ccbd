import type { CustomResourceDefinition } from '../../../apis/apiextensions/v1/types.js';
import type { CustomResourceDefinitionInformer } from '../../../generated/informers/apiextensions/v1/customresourcedefinition.js';
import type { CRDSource } from '../source.js';
import { deletedCRD, type CachedCRD } from './deps.js';

/**
 * The CRD handler's view of CRDs over the shared CRD informer (kube's CRD lister plus informer
 * handlers), so the handler and the controllers see one cache. Objects are the informer's:
 * frozen and shared.
 */
export function informerCRDSource(informer: CustomResourceDefinitionInformer): CRDSource {
  const shared = informer.informer();
  return {
    get: (name) => {
      const crd = shared.getIndexer().getByKey(name);
      return crd === undefined ? undefined : asCRD(crd);
    },
    list: () => shared.getIndexer().list().map(asCRD),
    onChange: (listener) => {
      const registration = shared.addEventHandler({
        onAdd: (crd) => listener({ type: 'added', crd: asCRD(crd) }),
        onUpdate: (old, crd) => listener({ type: 'updated', crd: asCRD(crd), old: asCRD(old) }),
        onDelete: (crd) => listener({ type: 'deleted', crd: asCRD(deletedCRD(crd)) }),
      });
      return () => registration.remove();
    },
    hasSynced: () => shared.hasSynced(),
  };
}

/** The source's contract says its objects are read-only; the type only loses the readonly marks. */
function asCRD(crd: CachedCRD): CustomResourceDefinition {
  return crd as CustomResourceDefinition;
}
