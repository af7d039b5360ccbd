import { FINALIZER_KUBERNETES } from '../../../apis/core/v1/strategy.js';
import type { Namespace } from '../../../apis/core/v1/types.js';
import { newConflict, newNotFound, toStatusError } from '../../apimachinery/errors/index.js';
import { checkDeletePreconditions, formatTime } from '../../registry/generic/index.js';
import { withDelete, type DeleteOptions, type KubeObject, type RequestContext, type ResourceStorage, type ValidateObjectFunc } from '../../registry/rest.js';
import type { Interface as StorageInterface } from '../../storage/index.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';

const NAMESPACES = { group: '', resource: 'namespaces' } as const;

/** kube's words when a namespace is deleted again before its content is gone. */
const STILL_TERMINATING = 'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.';

/**
 * Namespace storage (pkg/registry/core/namespace/storage): the generic store, except that a
 * delete first moves the namespace to Terminating (deletionTimestamp + status.phase) and only
 * removes it once spec.finalizers is empty; `finalize` is the /finalize subresource the
 * namespace controller uses to drop its finalizer.
 */
export class NamespaceStorage {
  readonly storages: ResourceStorage;

  constructor(
    generic: ResourceStorage,
    private readonly storage: StorageInterface,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.generic = generic.main;
    this.storages = withDelete(generic, (ctx, name, validate, opts) => this.delete(ctx, name, validate, opts));
  }

  private readonly generic: ResourceStorage['main'];

  async delete(ctx: RequestContext, name: string, validate: ValidateObjectFunc, opts: DeleteOptions): Promise<{ object: KubeObject; deleted: boolean }> {
    const current = (await this.generic.get(ctx, name, { resourceVersion: '' })) as Namespace;
    const meta = current.metadata ?? {};
    checkDeletePreconditions({ group: '', kind: 'Namespace' }, asObject(current), opts);
    if (meta.deletionTimestamp === undefined || meta.deletionTimestamp === null) {
      await validate(asObject(current), asObject(current));
      const marked = this.markTerminating(current);
      if (opts.dryRun) return { object: asObject(marked), deleted: false };
      const stored = await this.update(name, (ns) => (ns.metadata?.deletionTimestamp ? ns : this.markTerminating(ns)));
      return { object: asObject(stored), deleted: false };
    }
    if ((current.spec?.finalizers?.length ?? 0) > 0) throw newConflict(NAMESPACES, name, STILL_TERMINATING);
    return this.generic.delete(ctx, name, validate, opts);
  }

  /** Replaces spec.finalizers (the /finalize subresource). */
  async finalize(name: string, finalizers: readonly string[]): Promise<Namespace> {
    return this.update(name, (ns) => ({ ...ns, spec: { ...ns.spec, finalizers: [...finalizers] } }));
  }

  /** Drops the `kubernetes` finalizer once the controller has removed the namespace's content. */
  removeKubernetesFinalizer(name: string): Promise<Namespace> {
    return this.update(name, (ns) => ({ ...ns, spec: { ...ns.spec, finalizers: (ns.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_KUBERNETES) } }));
  }

  /**
   * Writes the deletion conditions the controller computed (kube's UpdateStatus after
   * deleteAllContent); no write when they are already as computed. Returns the namespace.
   */
  setDeletionConditions(name: string, merge: (current: Namespace) => Namespace['status'] | undefined): Promise<Namespace> {
    return this.update(name, (ns) => {
      const status = merge(ns);
      return status === undefined ? ns : { ...ns, status };
    });
  }

  private markTerminating(ns: Namespace): Namespace {
    const timestamp = formatTime(this.now());
    return {
      ...ns,
      metadata: { ...ns.metadata, deletionTimestamp: timestamp, deletionGracePeriodSeconds: 0 },
      status: { ...ns.status, phase: 'Terminating' },
    };
  }

  private async update(name: string, fn: (ns: Namespace) => Namespace): Promise<Namespace> {
    try {
      const stored = await this.storage.guaranteedUpdate(`/namespaces/${name}`, {
        tryUpdate: (input) => {
          if (input === undefined) throw newNotFound(NAMESPACES, name);
          return { object: asObject(fn(deepCopyJSON(input) as Namespace)) };
        },
      });
      return stored as Namespace;
    } catch (err) {
      throw toStatusError(err, { gr: NAMESPACES, name, operation: 'update' });
    }
  }
}

/** Typed API objects are plain JSON objects; the storage and REST interfaces see them untyped. */
function asObject(ns: Namespace): KubeObject {
  return ns as unknown as KubeObject;
}
