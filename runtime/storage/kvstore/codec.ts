import { CorruptObjError, InternalError } from '../errors.js';
import type { KeyValue } from '../kv.js';
import type { StoredObject } from '../../apimachinery/object.js';
import type { ValueTransformer } from '../transformer.js';
import type { Versioner } from '../versioner.js';
import { encodeManagedFieldsFrame, parseStoredObject } from './managedfields-frame.js';

/**
 * Thrown by a value transformer (or raised for undecodable JSON) when stored data is corrupt:
 * such objects can only be removed with an unsafe delete, and lists may aggregate them.
 */
export class CorruptDataError extends Error {
  override readonly name = 'CorruptDataError';
}

/** Decorates a transformer so every read failure counts as corrupt data (kube's corruptObjErrorInterpretingTransformer). */
export function interpretCorruptData(t: ValueTransformer): ValueTransformer {
  return {
    transformFromStorage(data, ctx) {
      try {
        return t.transformFromStorage(data, ctx);
      } catch (e) {
        if (e instanceof CorruptDataError) throw e;
        throw new CorruptDataError(`data from the storage is not transformable: ${(e as Error).message}`, { cause: e });
      }
    },
    transformToStorage: (data, ctx) => t.transformToStorage(data, ctx),
    ...(t.encrypts === true ? { encrypts: true } : {}),
  };
}

/** What the store knows about one key: the object, its raw (untransformed) data and revision. */
export interface ObjState<T> {
  /** Undefined when the key is absent or its data unreadable. */
  obj: T | undefined;
  /** The codec's bytes as stored (after transformFromStorage); undefined when absent or unreadable. */
  data: Buffer | undefined;
  rev: number;
  /** The transformer asked for the value to be rewritten (e.g. old encryption key). */
  stale: boolean;
  ttl: number;
}

const storageKeys = new WeakMap<object, string>();

/** The physical key an object was decoded from (for caches that index what a store returned). */
export function storageKeyOf(obj: object): string | undefined {
  return storageKeys.get(obj);
}

/**
 * Codec turns stored bytes into objects and back, applying the transformer and versioner. An
 * object is stored as its JSON, with its managedFields deflated in a frame
 * (managedfields-frame.ts) unless the resource's transformer encrypts; both forms read back.
 */
export class Codec<T extends StoredObject> {
  constructor(
    private readonly versioner: Versioner,
    private readonly getTransformer: () => ValueTransformer,
  ) {}

  encode(obj: T): Buffer {
    if (this.getTransformer().encrypts === true) return Buffer.from(this.versioner.encodeForStorage(obj));
    return encodeManagedFieldsFrame(obj, (o) => this.versioner.encodeForStorage(o));
  }

  /** A fresh object of the codec's bytes (without resourceVersion). Throws CorruptObjError. */
  parse(data: Buffer, rev: number, key: string): T {
    let obj: unknown;
    try {
      obj = parseStoredObject(data);
    } catch (e) {
      throw new CorruptObjError(key, `object not decodable revision=${rev}: ${(e as Error).message}`, { cause: new CorruptDataError((e as Error).message) });
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      throw new CorruptObjError(key, `object not decodable revision=${rev}: not a JSON object`, { cause: new CorruptDataError('not a JSON object') });
    }
    return obj as T;
  }

  toStorage(data: Buffer, key: string): Buffer {
    try {
      return this.getTransformer().transformToStorage(data, { key });
    } catch (e) {
      throw new InternalError((e as Error).message, { cause: e });
    }
  }

  /** Undoes the transformer; throws what the transformer threw (callers classify). */
  fromStorage(value: Buffer, key: string): { data: Buffer; stale: boolean } {
    return this.getTransformer().transformFromStorage(value, { key });
  }

  /** Decodes the codec's bytes into a fresh object carrying resourceVersion rev. Throws CorruptObjError. */
  decode(data: Buffer, rev: number, key: string): T {
    const obj = this.parse(data, rev, key);
    this.versioner.updateObject(obj, rev);
    storageKeys.set(obj, key);
    return obj;
  }

  /**
   * Reads a KeyValue fully: transform then decode. Transformer failures become InternalError.
   * `heldAt` may name an object already decoded from this key at the KeyValue's revision (the
   * same bytes): it is the answer instead of a second decode, after the transform all the same,
   * so a value the transformer can no longer read fails as it would without it.
   */
  read(kv: KeyValue, heldAt?: (revision: number) => object | undefined): { obj: T; data: Buffer; stale: boolean } {
    let plain: { data: Buffer; stale: boolean };
    try {
      plain = this.fromStorage(kv.value, kv.key);
    } catch (e) {
      throw new InternalError((e as Error).message, { cause: e });
    }
    const held = heldAt?.(kv.modRevision) as T | undefined;
    return { obj: held ?? this.decode(plain.data, kv.modRevision, kv.key), data: plain.data, stale: plain.stale };
  }
}
