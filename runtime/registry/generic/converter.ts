import { ConversionCache, type KindScheme } from '../../apimachinery/scheme/scheme.js';
import { deepFreeze } from '../../apimachinery/object.js';
import type { KubeObject } from '../rest.js';
import type { StorageCodec } from '../types.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';

/**
 * Moves objects between the hub version (what crosses the REST interfaces) and the storage
 * version (what is written). Objects read from storage may be frozen and shared by every
 * reader (watch cache); their hub form is converted once and shared too.
 */
export class HubConverter {
  private readonly cache: ConversionCache;
  /** Hub forms of frozen stored objects, when reading applies defaults. */
  private readonly decoded = new WeakMap<object, KubeObject>();

  /**
   * `readDefaults`, when given, completes every object read from storage, in the storage
   * version before conversion, as kube's storage codec defaults what it decodes (schema
   * defaults added after objects were written). It mutates the private copy it is handed.
   */
  /**
   * `codec`, when given, stores the kind as another resource's objects (a cohabitating
   * resource): writes go through the kind's storage version, then the codec; reads the other way.
   */
  constructor(
    private readonly scheme: KindScheme,
    private readonly readDefaults?: (stored: KubeObject) => void,
    private readonly codec?: StorageCodec,
  ) {
    this.cache = new ConversionCache(scheme);
  }

  get hubVersion(): string {
    return this.scheme.hubVersion;
  }

  /** The storage form of a hub object. The result may share nested values with `hub`. */
  toStorage(hub: KubeObject): KubeObject {
    const own = this.scheme.convert(hub, this.scheme.storageVersion);
    return this.codec === undefined ? own : this.codec.toStorage(own);
  }

  /** The hub form of a stored object; frozen and shared when the input is. Never mutate it. */
  toHub(stored: KubeObject): KubeObject {
    if (this.readDefaults === undefined && this.codec === undefined) return this.cache.convert(stored, this.scheme.hubVersion);
    if (!Object.isFrozen(stored)) return this.toHubCopy(stored);
    let hub = this.decoded.get(stored);
    if (hub === undefined) {
      hub = deepFreeze(this.toHubCopy(stored));
      this.decoded.set(stored, hub);
    }
    return hub;
  }

  /** A private, mutable hub copy of a stored object. */
  toHubCopy(stored: KubeObject): KubeObject {
    const copy = deepCopyJSON(stored);
    this.readDefaults?.(copy);
    // What the conversions share with their input is the private copy's.
    return this.scheme.convert(this.codec === undefined ? copy : this.codec.fromStorage(copy), this.scheme.hubVersion);
  }
}
