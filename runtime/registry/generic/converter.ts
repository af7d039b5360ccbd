import { ConversionCache, type KindScheme } from '../../apimachinery/scheme/scheme.js';
import type { KubeObject } from '../rest.js';

/**
 * Moves objects between the hub version (what crosses the REST interfaces) and the storage
 * version (what is written). Objects read from storage may be frozen and shared by every
 * reader (watch cache); their hub form is converted once and shared too.
 */
export class HubConverter {
  private readonly cache: ConversionCache;

  constructor(private readonly scheme: KindScheme) {
    this.cache = new ConversionCache(scheme);
  }

  get hubVersion(): string {
    return this.scheme.hubVersion;
  }

  /** The storage form of a hub object. The result may share nested values with `hub`. */
  toStorage(hub: KubeObject): KubeObject {
    return this.scheme.convert(hub, this.scheme.storageVersion);
  }

  /** The hub form of a stored object; frozen and shared when the input is. Never mutate it. */
  toHub(stored: KubeObject): KubeObject {
    return this.cache.convert(stored, this.scheme.hubVersion);
  }

  /** A private, mutable hub copy of a stored object. */
  toHubCopy(stored: KubeObject): KubeObject {
    return structuredClone(this.scheme.convert(stored, this.scheme.hubVersion));
  }
}
