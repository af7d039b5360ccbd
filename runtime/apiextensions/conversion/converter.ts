import type { MaybePromise } from '../../endpoints/handlers/scope.js';
import type { KubeObject } from '../../registry/rest.js';

/**
 * Converts custom resources between the versions of their CRD (conversion.CRConverter). Each
 * input is in some version of the CRD; objects already in `toVersion` come back unchanged.
 * Inputs are never mutated; outputs are new objects (nested values may be shared with the
 * inputs, so callers copy before mutating). A conversion that fails throws, or rejects, with
 * kube's message; nothing is written then.
 */
export interface CRConverter {
  convert(objs: readonly KubeObject[], toVersion: string): MaybePromise<KubeObject[]>;
  /** Whether convert answers synchronously (no I/O): `None`. */
  readonly synchronous: boolean;
  /** Releases connections; called when the CRD stops being served with this converter. */
  close(): void;
}

/** The `None` strategy: only apiVersion changes (nopConverter). */
export function noneConverter(group: string): CRConverter {
  return {
    synchronous: true,
    convert(objs, toVersion) {
      const apiVersion = `${group}/${toVersion}`;
      return objs.map((o) => (o.apiVersion === apiVersion ? o : { ...o, apiVersion }));
    },
    close() {},
  };
}

/** Go's GroupVersionKind.String(): `example.com/v1, Kind=Widget`. */
export function gvkString(obj: KubeObject): string {
  return `${String(obj.apiVersion ?? '')}, Kind=${String(obj.kind ?? '')}`;
}
