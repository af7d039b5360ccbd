import type { ResourceDefinition } from '../definition/resource.js';
import { newInternalError } from '../errors/catalog.js';
import { handleError } from '../errors/handle.js';
import { StatusError } from '../errors/status-error.js';
import type { StoredObject } from '../object.js';

/**
 * What a scheme reads of a group: its name, hub and storage versions, and the kinds each version
 * serves. The registry's APIGroupDefinition is one; declared here so this layer needs nothing above.
 */
export interface SchemeGroup {
  readonly name: string;
  readonly hubVersion: string;
  readonly storageVersion: string;
  readonly versions: readonly { readonly name: string; readonly resources: readonly ResourceDefinition[] }[];
}

/**
 * The versions of one kind and the conversions between them (runtime.Scheme for a single
 * group-kind). Conversions go through the hub: the group's hub version when the kind
 * exists there, else its storage version. Every method leaves its input untouched and
 * returns a new object whose apiVersion and kind name the target version.
 */
export class KindScheme {
  readonly group: string;
  readonly kind: string;
  /** Versions serving this kind, in the group's priority order (first = preferred). */
  readonly versions: readonly string[];
  readonly hubVersion: string;
  readonly storageVersion: string;
  private readonly byVersion: ReadonlyMap<string, ResourceDefinition>;

  constructor(group: SchemeGroup, kind: string) {
    this.group = group.name;
    this.kind = kind;
    const byVersion = new Map<string, ResourceDefinition>();
    for (const v of group.versions) {
      const r = v.resources.find((x) => x.kind === kind);
      if (r !== undefined) byVersion.set(v.name, r);
    }
    if (byVersion.size === 0) throw new Error(`kind ${kind} is not served by group ${group.name || 'core'}`);
    this.byVersion = byVersion;
    this.versions = [...byVersion.keys()];
    if (!byVersion.has(group.storageVersion)) throw new Error(`kind ${kind} has no storage version ${group.storageVersion} in ${group.name || 'core'}`);
    this.storageVersion = group.storageVersion;
    this.hubVersion = byVersion.has(group.hubVersion) ? group.hubVersion : group.storageVersion;
  }

  apiVersion(version: string): string {
    return this.group === '' ? version : `${this.group}/${version}`;
  }

  /** The version named by an apiVersion string of this group, if it serves the kind. */
  versionOf(apiVersion: string): string | undefined {
    const prefix = this.group === '' ? '' : `${this.group}/`;
    if (!apiVersion.startsWith(prefix)) return undefined;
    const v = apiVersion.slice(prefix.length);
    return this.byVersion.has(v) ? v : undefined;
  }

  resource(version: string): ResourceDefinition {
    const r = this.byVersion.get(version);
    if (r === undefined) throw new Error(`${this.kind} is not served in ${this.apiVersion(version)}`);
    return r;
  }

  /** Converts obj (in the version its apiVersion names) to `toVersion`. */
  convert<T extends StoredObject>(obj: T, toVersion: string): T {
    const from = typeof obj.apiVersion === 'string' ? this.versionOf(obj.apiVersion) : undefined;
    if (from === undefined) throw new Error(`cannot convert ${String(obj.apiVersion)}, Kind=${this.kind}: not a version of this kind`);
    if (from === toVersion) return { ...obj, apiVersion: this.apiVersion(toVersion), kind: this.kind };
    const hub = from === this.hubVersion ? obj : this.toHub(obj, from);
    const out = toVersion === this.hubVersion ? { ...hub } : this.fromHub(hub, toVersion);
    return { ...out, apiVersion: this.apiVersion(toVersion), kind: this.kind } as T;
  }

  /** Runs the version's hand-written defaulter on obj in place (schema defaults are applied before, by the decoder). */
  defaultInPlace(obj: StoredObject, version: string): void {
    const defaults = this.resource(version).defaults as ((o: StoredObject) => void) | undefined;
    defaults?.(obj);
  }

  private toHub<T extends StoredObject>(obj: T, from: string): T {
    const conversion = this.resource(from).conversion;
    const out = conversion === undefined ? { ...obj } : this.run(() => conversion.toHub(obj) as T, obj, from, this.hubVersion);
    return { ...out, apiVersion: this.apiVersion(this.hubVersion), kind: this.kind };
  }

  private fromHub<T extends StoredObject>(hub: T, to: string): T {
    const conversion = this.resource(to).conversion;
    return conversion === undefined ? { ...hub } : this.run(() => conversion.fromHub(hub) as T, hub, this.hubVersion, to);
  }

  /**
   * Runs a hand-written conversion. One that throws is the server's fault, not the request's:
   * the client gets kube's 500 InternalError naming the conversion (as `conversion webhook for
   * <gvk> failed: …` names a custom resource's), and the error with its stack goes to the log.
   */
  private run<T>(convert: () => T, obj: StoredObject, from: string, to: string): T {
    try {
      return convert();
    } catch (err) {
      // A conversion may refuse with a Status of its own (a 400 for a value it cannot map).
      if (err instanceof StatusError) throw err;
      const meta = obj.metadata;
      handleError('conversion failed', {
        kind: this.kind,
        namespace: meta?.namespace,
        name: meta?.name,
        from: this.apiVersion(from),
        to: this.apiVersion(to),
        err,
      });
      throw newInternalError(`conversion of ${this.apiVersion(from)}, Kind=${this.kind} to ${this.apiVersion(to)} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** Converts shared (frozen) objects once per target version: watch fan-out and cached lists reuse the result. */
export class ConversionCache {
  private readonly cache = new WeakMap<object, Map<string, StoredObject>>();

  constructor(private readonly scheme: KindScheme) {}

  convert<T extends StoredObject>(obj: T, toVersion: string): T {
    if (!Object.isFrozen(obj)) return this.scheme.convert(obj, toVersion);
    let byVersion = this.cache.get(obj);
    if (byVersion === undefined) {
      byVersion = new Map();
      this.cache.set(obj, byVersion);
    }
    let out = byVersion.get(toVersion);
    if (out === undefined) {
      out = Object.freeze(this.scheme.convert(obj, toVersion));
      byVersion.set(toVersion, out);
    }
    return out as T;
  }
}
