import type { CustomResourceDefinition } from '../../../apis/apiextensions/v1/types.js';
import type { CustomResourceDefinitionInterface } from '../../../generated/clientset/apiextensions/v1/index.js';
import type { CustomResourceDefinitionInformer } from '../../../generated/informers/apiextensions/v1/customresourcedefinition.js';
import { isDeletedFinalStateUnknown, ListerNotFoundError, type DeepReadonly, type DeletedFinalStateUnknown } from '../../client/index.js';

/** What every CRD controller is built from: the CRD informer, the typed client it writes status through, a clock. */
export interface CRDControllerDeps {
  readonly informer: CustomResourceDefinitionInformer;
  readonly crds: CustomResourceDefinitionInterface;
  /** Condition timestamps; default the system clock. */
  readonly now?: () => Date;
  /** Reconcile errors before the retry; default a line on stderr. */
  readonly onError?: (key: string, err: unknown) => void;
}

export type CachedCRD = DeepReadonly<CustomResourceDefinition>;

/** The cached CRD named `name`, or undefined when the informer has none. */
export function getCRD(deps: CRDControllerDeps, name: string): CachedCRD | undefined {
  try {
    return deps.informer.lister().get(name);
  } catch (err) {
    if (err instanceof ListerNotFoundError) return undefined;
    throw err;
  }
}

/** The object of a delete notification, tombstone or not. */
export function deletedCRD(obj: CachedCRD | DeletedFinalStateUnknown<CustomResourceDefinition>): CachedCRD {
  return isDeletedFinalStateUnknown(obj) ? obj.obj : obj;
}

export function onErrorOf(deps: CRDControllerDeps, controller: string): (key: string, err: unknown) => void {
  return deps.onError ?? ((key, err) => process.stderr.write(`${controller}: ${key} failed with: ${err instanceof Error ? err.message : String(err)}\n`));
}
