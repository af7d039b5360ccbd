import { checkPreconditions } from '../../storage/kvstore/store.js';
import { KeyExistsError, KeyNotFoundError, type CreateOptions, type DeleteOptions, type GuaranteedUpdateOptions, type Interface } from '../../storage/index.js';
import type { KubeObject } from '../rest.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';

/**
 * storage.Interface writes with a dryRun switch (kube's DryRunnableStorage): with dryRun the
 * same checks run against the current state (existence, preconditions, the update and
 * validation functions) and nothing is written, so no watch event is emitted.
 */
export class DryRunnableStorage {
  constructor(readonly storage: Interface<KubeObject>) {}

  /**
   * Dry run: KeyExists when the key exists; returns obj itself. As kube's, it never reads the
   * resourceVersion: one a client set is not the storage's 500 here, and is answered back.
   */
  async create(key: string, obj: KubeObject, dryRun: boolean, opts: CreateOptions = {}): Promise<KubeObject> {
    if (!dryRun) return this.storage.create(key, obj, opts);
    if ((await this.storage.get(key, { ignoreNotFound: true })) !== undefined) throw new KeyExistsError(key, 0);
    return obj;
  }

  /** Dry run: tryUpdate on a private copy of the current object; its result is returned as computed. */
  async guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions<KubeObject>, dryRun: boolean): Promise<KubeObject> {
    if (!dryRun) return this.storage.guaranteedUpdate(key, opts);
    const current = await this.storage.get(key, { ignoreNotFound: opts.ignoreNotFound ?? false });
    if (opts.preconditions) checkPreconditions(key, opts.preconditions, current);
    const copy = current === undefined ? undefined : deepCopyJSON(current);
    const rev = current === undefined ? 0 : this.storage.versioner.objectResourceVersion(current);
    const result = await opts.tryUpdate(copy, { ttl: 0, resourceVersion: rev });
    return result.object;
  }

  /** Dry run: the current object after the preconditions and validation passed. */
  async delete(key: string, opts: DeleteOptions<KubeObject>, dryRun: boolean): Promise<KubeObject> {
    if (!dryRun) {
      const out = await this.storage.delete(key, opts);
      if (out === undefined) throw new KeyNotFoundError(key, 0);
      return out;
    }
    const current = await this.storage.get(key);
    if (current === undefined) throw new KeyNotFoundError(key, 0);
    if (opts.preconditions) checkPreconditions(key, opts.preconditions, current);
    await opts.validateDeletion?.(deepCopyJSON(current));
    return current;
  }
}
