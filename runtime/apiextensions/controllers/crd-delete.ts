import type { CustomResourceDefinition } from '../../../apis/apiextensions/v1/types.js';
import { newNotFound, toStatusError } from '../../apimachinery/errors/index.js';
import { checkDeletePreconditions, formatTime } from '../../registry/generic/index.js';
import { withDelete, type DeleteOptions, type KubeObject, type RequestContext, type ResourceStorage, type ValidateObjectFunc } from '../../registry/rest.js';
import type { Interface as StorageInterface } from '../../storage/index.js';
import { CUSTOM_RESOURCE_CLEANUP_FINALIZER, hasFinalizer, isBeingDeleted, setCondition, TERMINATING } from './conditions.js';

const CRDS = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' } as const;

/**
 * The CRD storage (apiextensions' customresourcedefinition REST): the generic store, except
 * that the first delete of a CRD only marks it: deletionTimestamp, the cleanup finalizer and
 * Terminating=True/InstanceDeletionPending, in one write. The finalizer controller then deletes
 * the custom resources and drops the finalizer, which deletes the CRD. Later deletes go to the
 * generic store (which, with finalizers left, answers with the object). As in kube, the
 * finalizer is added at delete time, not on create.
 */
export function withCRDCleanupOnDelete(generic: ResourceStorage, storage: StorageInterface, now: () => Date = () => new Date()): ResourceStorage {
  const main = generic.main;
  const del = async (ctx: RequestContext, name: string, validate: ValidateObjectFunc, opts: DeleteOptions): Promise<{ object: KubeObject; deleted: boolean }> => {
    const current = await main.get(ctx, name, { resourceVersion: '' });
    checkDeletePreconditions({ group: CRDS.group, kind: 'CustomResourceDefinition' }, current, opts);
    if (isBeingDeleted(current as unknown as CustomResourceDefinition)) return main.delete(ctx, name, validate, opts);
    await validate(current, current);
    if (opts.dryRun) return { object: markForCleanup(structuredClone(current), now()), deleted: false };
    try {
      const stored = await storage.guaranteedUpdate(`/${CRDS.group}/${CRDS.resource}/${name}`, {
        preconditions: { uid: String(current.metadata?.uid ?? ''), ...(opts.preconditions?.resourceVersion !== undefined ? { resourceVersion: opts.preconditions.resourceVersion } : {}) },
        tryUpdate: (input) => {
          if (input === undefined) throw newNotFound(CRDS, name);
          return { object: markForCleanup(input, now()) };
        },
      });
      return { object: stored, deleted: false };
    } catch (err) {
      throw toStatusError(err, { gr: CRDS, name, operation: 'delete' });
    }
  };
  return withDelete(generic, del);
}

/** Mutates and returns `obj` (a private copy): marked deleted, with the finalizer and the pending condition. */
function markForCleanup(obj: KubeObject, at: Date): KubeObject {
  const crd = obj as unknown as CustomResourceDefinition;
  const meta = (crd.metadata ??= {});
  if (!isBeingDeleted(crd)) meta.deletionTimestamp = formatTime(at);
  if (!hasFinalizer(crd, CUSTOM_RESOURCE_CLEANUP_FINALIZER)) meta.finalizers = [...(meta.finalizers ?? []), CUSTOM_RESOURCE_CLEANUP_FINALIZER];
  setCondition(
    crd,
    {
      type: TERMINATING,
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    },
    at,
  );
  return obj;
}
