import { aggregateMessage as aggregate } from '../../apimachinery/errors/aggregate.js';
import type { TransformContext, ValueTransformer } from '../transformer.js';

/**
 * Prefix transformers (k8s.io/apiserver/pkg/storage/value.NewPrefixTransformers): each stored
 * value starts with the prefix of the transformer that wrote it (`k8s:enc:aesgcm:v1:`, then
 * the key's `<name>:`), so one list of transformers reads what any of them wrote. The first one
 * writes; a value read by any other is stale, and the store rewrites it on its next update
 * (key rotation and migration to or from encryption by order alone).
 */
export interface PrefixTransformer {
  /** Empty for identity (unprefixed data). */
  readonly prefix: Buffer;
  readonly transformer: ValueTransformer;
}

/** A value no transformer could read: kube's error text, surfaced as a 500 InternalError by the store. */
export class TransformError extends Error {
  override readonly name = 'TransformError';
}

export class PrefixTransformers implements ValueTransformer {
  /** The first transformer writes: an encrypting provider has a prefix, identity none. */
  readonly encrypts: boolean;

  /** `noMatch`: the error when no prefix matches (kube's "no matching prefix found" for providers). */
  constructor(
    private readonly transformers: readonly PrefixTransformer[],
    private readonly noMatch: string,
  ) {
    if (transformers.length === 0) throw new Error('prefix transformers need at least one transformer');
    const first = transformers[0] as PrefixTransformer;
    this.encrypts = first.prefix.length > 0 || first.transformer.encrypts === true;
  }

  transformFromStorage(data: Buffer, ctx: TransformContext): { data: Buffer; stale: boolean } {
    const errs: Error[] = [];
    for (const [i, t] of this.transformers.entries()) {
      if (!startsWith(data, t.prefix)) continue;
      try {
        const out = t.transformer.transformFromStorage(data.subarray(t.prefix.length), ctx);
        return { data: out.data, stale: out.stale || i !== 0 };
      } catch (e) {
        // identity refuses encrypted data: a later provider may still read it. Other prefixes
        // may overlap (one provider listed twice with different keys): never stop at a failure.
        if (t.prefix.length === 0) continue;
        errs.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    throw new TransformError(errs.length > 0 ? aggregate(errs) : this.noMatch);
  }

  transformToStorage(data: Buffer, ctx: TransformContext): Buffer {
    const first = this.transformers[0] as PrefixTransformer;
    return Buffer.concat([first.prefix, first.transformer.transformToStorage(data, ctx)]);
  }
}

function startsWith(data: Buffer, prefix: Buffer): boolean {
  return data.length >= prefix.length && data.subarray(0, prefix.length).equals(prefix);
}
