import type { DeletionPropagation } from '../../../apis/meta/v1/options.js';
import { isConflict, isNotFound, newNotFound } from '../../apimachinery/errors/index.js';
import type { KubeObject, RequestContext, UpdatedObjectInfo } from '../../registry/rest.js';
import type { InstalledResource } from '../../registry/resources.js';
import type { ObjectIdentity } from './graph.js';
import { metadataOf } from './metadata.js';

/** The served resources the collector may read and write; the ResourceRegistry is one. */
export interface ServedResources {
  all(): readonly InstalledResource[];
}

export type ContextFunc = (namespace: string, parent: { readonly signal: AbortSignal }) => RequestContext;

/** The identity's kind is not served (yet): the item is retried, as kube retries a failed REST mapping. */
export class UnresolvableKindError extends Error {
  override readonly name = 'UnresolvableKindError';
}

/**
 * The collector's live calls (operations.go), through the REST storages of the served
 * resources: reads at the latest revision, deletes with a uid precondition, and metadata
 * edits inside the store's optimistic-concurrency loop, so a conflicting write is retried
 * on the newest object rather than failing.
 */
export class Operations {
  constructor(private readonly opts: { readonly resources: ServedResources; readonly context: ContextFunc; readonly signal: AbortSignal }) {}

  /** The served resource of a group and kind, or undefined. */
  resolve(group: string, kind: string): InstalledResource | undefined {
    return this.opts.resources.all().find((r) => r.group === group && r.kind === kind);
  }

  /**
   * The object the identity names, at the latest revision; undefined when absent or when
   * another object (another uid) now has its name.
   */
  async get(id: ObjectIdentity): Promise<KubeObject | undefined> {
    const { resource, namespace } = this.locate(id);
    try {
      const obj = await resource.rest.main.get(this.ctx(namespace), id.name, { resourceVersion: '' });
      return obj.metadata?.uid === id.uid ? obj : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Deletes the object if it is still the one with the identity's uid; absence is success. */
  async delete(id: ObjectIdentity, propagationPolicy: DeletionPropagation): Promise<void> {
    const { resource, namespace } = this.locate(id);
    try {
      await resource.rest.main.delete(this.ctx(namespace), id.name, async () => {}, {
        dryRun: false,
        gracePeriodSeconds: undefined,
        preconditions: { uid: id.uid },
        propagationPolicy,
        orphanDependents: undefined,
      });
    } catch (err) {
      // A uid precondition failure means the object we meant is gone already.
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }

  /** Drops the ownerReferences to `ownerUIDs`; absence is success. */
  removeOwnerReferences(id: ObjectIdentity, ownerUIDs: ReadonlySet<string>): Promise<void> {
    return this.edit(id, (obj) => {
      const refs = metadataOf(obj).metadata.ownerReferences ?? [];
      const kept = refs.filter((r) => !ownerUIDs.has(r.uid));
      if (kept.length === refs.length) return false;
      if (kept.length === 0) delete metaOf(obj).ownerReferences;
      else metaOf(obj).ownerReferences = kept;
      return true;
    });
  }

  /** Sets blockOwnerDeletion false on the references to `ownerUIDs` (kube's unblockOwnerReferences); absence is success. */
  unblockOwnerReferences(id: ObjectIdentity, ownerUIDs: ReadonlySet<string>): Promise<void> {
    return this.edit(id, (obj) => {
      let changed = false;
      metaOf(obj).ownerReferences = (metadataOf(obj).metadata.ownerReferences ?? []).map((r) => {
        if (!ownerUIDs.has(r.uid) || r.blockOwnerDeletion !== true) return r;
        changed = true;
        return { ...r, blockOwnerDeletion: false };
      });
      return changed;
    });
  }

  /**
   * Removes a finalizer; the store deletes the object when it was the last one of an object
   * being deleted. Absence is success.
   */
  removeFinalizer(id: ObjectIdentity, finalizer: string): Promise<void> {
    return this.edit(id, (obj) => {
      const finalizers = metadataOf(obj).metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return false;
      metaOf(obj).finalizers = finalizers.filter((f) => f !== finalizer);
      return true;
    });
  }

  /**
   * Applies `mutate` to the newest object (a copy) and writes it when it reports a change.
   * The store calls updatedObject again after a conflict, so concurrent writers never fail it.
   */
  private async edit(id: ObjectIdentity, mutate: (obj: KubeObject) => boolean): Promise<void> {
    const { resource, namespace } = this.locate(id);
    const current = await this.get(id);
    if (current === undefined || !mutate(structuredClone(current))) return;
    const gr = { group: resource.group, resource: resource.resource };
    const objInfo: UpdatedObjectInfo = {
      preconditions: () => undefined,
      updatedObject: async (_ctx, old) => {
        // Another object with the same name is not ours to edit: treat it as absence.
        if (old === undefined || old.metadata?.uid !== id.uid) throw newNotFound(gr, id.name);
        const next = structuredClone(old);
        mutate(next);
        return next;
      },
    };
    try {
      await resource.rest.main.update(
        this.ctx(namespace),
        id.name,
        objInfo,
        { create: async () => {}, update: async () => {} },
        {
          dryRun: false,
          fieldManager: 'generic-garbage-collector',
          forceAllowCreate: false,
        },
      );
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
  }

  /**
   * The storage and namespace of an identity: cluster-scoped kinds ignore the namespace a
   * dependent gave its owner; a cluster-scoped dependent cannot name a namespaced owner.
   */
  private locate(id: ObjectIdentity): { resource: InstalledResource; namespace: string } {
    const resource = this.resolve(id.group, id.kind);
    if (resource === undefined) throw new UnresolvableKindError(`no served resource has kind ${id.kind}${id.group === '' ? '' : `.${id.group}`}`);
    if (!resource.namespaced) return { resource, namespace: '' };
    if (id.namespace === '') throw new UnresolvableKindError(`a cluster-scoped object cannot have the namespaced owner ${id.kind} ${id.name}`);
    return { resource, namespace: id.namespace };
  }

  private ctx(namespace: string): RequestContext {
    return this.opts.context(namespace, { signal: this.opts.signal });
  }
}

function metaOf(obj: KubeObject): NonNullable<KubeObject['metadata']> {
  obj.metadata ??= {};
  return obj.metadata;
}
