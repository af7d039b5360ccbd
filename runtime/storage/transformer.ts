/**
 * Value transformers (k8s.io/apiserver/pkg/storage/value): the hook for encryption at rest.
 * Data passes through `transformToStorage` on every write and `transformFromStorage` on every
 * read, with the physical key as authenticated data. Both are synchronous: they run once per
 * object on list hot paths.
 */
export interface TransformContext {
  /** The physical key (with the backend prefix). */
  readonly key: string;
}

export interface ValueTransformer {
  /** Returns the plain data and whether it was written with an outdated key (then updates rewrite it). Throws when unreadable. */
  transformFromStorage(data: Buffer, ctx: TransformContext): { data: Buffer; stale: boolean };
  transformToStorage(data: Buffer, ctx: TransformContext): Buffer;
  /**
   * Whether what it writes is encrypted. The codec then stores the plain JSON, uncompressed:
   * compressing bytes a client chose together with secret ones leaks them through the length.
   */
  readonly encrypts?: boolean;
}

export const identityTransformer: ValueTransformer = {
  transformFromStorage: (data) => ({ data, stale: false }),
  transformToStorage: (data) => data,
};
