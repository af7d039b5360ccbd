import { deepCopyJSON } from '../apimachinery/serializer/jsonvalue.js';

/** The mutable form of a type: what DeepReadonly (cached objects) took away. */
export type DeepMutable<T> = T extends readonly (infer E)[] ? DeepMutable<E>[] : T extends object ? { -readonly [K in keyof T]: DeepMutable<T[K]> } : T;

/**
 * A copy of an API object that the caller owns and may change (runtime.Object's
 * DeepCopy): what a controller does with an object from a lister or an event
 * handler before writing it back, since cached objects are shared and frozen.
 * `deepCopy(lister.get(name))` is typed as the kind itself, ready for update().
 *
 * Objects are JSON values, copied by deepCopyJSON rather than structuredClone:
 * keys such as `__proto__` stay data either way, but structuredClone recurses
 * and overflows the stack on the nesting depths the decoder accepts.
 */
export function deepCopy<T>(obj: T): DeepMutable<T> {
  return deepCopyJSON(obj) as DeepMutable<T>;
}
