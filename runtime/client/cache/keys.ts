import { DeletedFinalStateUnknown } from '../cache.js';
import { metaNamespaceKey } from '../lister.js';

/** The metadata fields the cache reads; any object with metadata.name can be cached. */
export interface CachedMeta {
  readonly name: string;
  readonly namespace: string;
  readonly resourceVersion: string;
  readonly annotations: Readonly<Record<string, string>>;
}

/** Raised when an object cannot be keyed (no metadata.name): the cache skips it and reports why. */
export class KeyError extends Error {
  override readonly name = 'KeyError';
}

/** The metadata of `obj` (meta.Accessor); throws KeyError when it has no name. */
export function metaOf(obj: unknown): CachedMeta {
  const m = typeof obj === 'object' && obj !== null ? (obj as { metadata?: unknown }).metadata : undefined;
  const md = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const annotations = typeof md['annotations'] === 'object' && md['annotations'] !== null ? (md['annotations'] as Readonly<Record<string, string>>) : {};
  return { name: str(md['name']), namespace: str(md['namespace']), resourceVersion: str(md['resourceVersion']), annotations };
}

export type KeyFunc = (obj: unknown) => string;

/** `namespace/name`, or `name` for cluster-scoped objects (MetaNamespaceKeyFunc). */
export const metaNamespaceKeyFunc: KeyFunc = (obj) => {
  const m = metaOf(obj);
  if (m.name === '') throw new KeyError(`object has no metadata.name: ${JSON.stringify(obj)?.slice(0, 200)}`);
  return metaNamespaceKey(m.namespace, m.name);
};

/** Like metaNamespaceKeyFunc, but a tombstone is keyed by the key it carries. */
export const deletionHandlingMetaNamespaceKeyFunc: KeyFunc = (obj) => (obj instanceof DeletedFinalStateUnknown ? obj.key : metaNamespaceKeyFunc(obj));

/** The name of the index every informer of a factory has. */
export const NAMESPACE_INDEX = 'namespace';

/** Indexes an object under its namespace ('' for cluster-scoped objects). */
export function metaNamespaceIndexFunc(obj: unknown): readonly string[] {
  return [metaOf(obj).namespace];
}

/** Splits a key into namespace and name ('' namespace for cluster-scoped keys). */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: key };
  if (parts.length === 2) return { namespace: parts[0] ?? '', name: parts[1] ?? '' };
  throw new KeyError(`unexpected key format: ${JSON.stringify(key)}`);
}
