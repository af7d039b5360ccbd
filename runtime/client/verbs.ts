import type { Scale } from '../../apis/autoscaling/v1/types.js';
import type { ApplyConfiguration, ApplyConfigurationBase, ApplyOptions, CreateOptions, DeleteOptions, GetOptions, List, ListOptions, PatchOptions, PatchType, UpdateOptions, Watch } from './types.js';

/**
 * Capability interfaces, one per verb. A generated client interface is the
 * intersection of exactly the verbs the server registers for the resource,
 * so `updateStatus` exists on a client exactly when the server serves
 * `/status` (the drift client-gen's guess allows is impossible here).
 */
export interface Getter<T> {
  get(name: string, options?: GetOptions): Promise<T>;
}

export interface Lister<T> {
  list(options?: ListOptions): Promise<List<T>>;
}

export interface Watcher<T> {
  watch(options?: ListOptions): Promise<Watch<T>>;
}

export interface Creater<T> {
  create(obj: T, options?: CreateOptions): Promise<T>;
}

export interface Updater<T> {
  update(obj: T, options?: UpdateOptions): Promise<T>;
}

/**
 * `A` is the kind's apply configuration (generated/applyconfigurations); it
 * defaults to a deep partial of the object for hand-declared resources.
 */
export interface Patcher<T, A extends ApplyConfigurationBase = ApplyConfiguration<T>> {
  /** `body` is the patch document: an array for JSON patch, an object otherwise. */
  patch(name: string, type: PatchType, body: unknown, options?: PatchOptions): Promise<T>;
  /** Server-side apply of a partial object (works against any Kubernetes API server). */
  apply(config: A, options: ApplyOptions): Promise<T>;
}

export interface Deleter {
  delete(name: string, options?: DeleteOptions): Promise<void>;
}

export interface CollectionDeleter {
  deleteCollection(options?: DeleteOptions, listOptions?: ListOptions): Promise<void>;
}

export interface StatusUpdater<T> {
  updateStatus(obj: T, options?: UpdateOptions): Promise<T>;
}

export interface StatusPatcher<T, A extends ApplyConfigurationBase = ApplyConfiguration<T>> {
  patchStatus(name: string, type: PatchType, body: unknown, options?: PatchOptions): Promise<T>;
  applyStatus(config: A, options: ApplyOptions): Promise<T>;
}

export interface Scaler {
  getScale(name: string, options?: GetOptions): Promise<Scale>;
  updateScale(name: string, scale: Scale, options?: UpdateOptions): Promise<Scale>;
}
