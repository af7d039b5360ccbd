/**
 * The names a REST mapper works with (apimachinery's runtime/schema): group, version, resource
 * and kind tuples, printed as Go's String methods print them, because kube's error texts embed
 * those strings. GroupResource and GroupKind are the API errors' own (one vocabulary with the server).
 */
export { groupResourceString, type GroupKind, type GroupResource } from '../../apimachinery/errors/catalog.js';

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** `v1` for the core group, `group/version` otherwise (schema.GroupVersion.String). */
export function groupVersionString(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** `group/version, Resource=resource` (schema.GroupVersionResource.String). */
export function gvrString(r: GroupVersionResource): string {
  return `${r.group}/${r.version}, Resource=${r.resource}`;
}

/** `group/version, Kind=kind` (schema.GroupVersionKind.String). */
export function gvkString(k: GroupVersionKind): string {
  return `${k.group}/${k.version}, Kind=${k.kind}`;
}

/**
 * Splits `group/version` or `version` (schema.ParseGroupVersion); an empty string is the empty
 * group version, `v1` alone is the core group. More than one slash is an error.
 */
export function parseGroupVersion(gv: string): GroupVersion {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  throw new Error(`unexpected GroupVersion string: ${gv}`);
}

export function sameGVR(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

export function sameGVK(a: GroupVersionKind, b: GroupVersionKind): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind;
}

export function sameGV(a: GroupVersion, b: GroupVersion): boolean {
  return a.group === b.group && a.version === b.version;
}

/** A Map key for a tuple; NUL cannot occur in a group, version, resource or kind. */
export function tupleKey(...parts: readonly string[]): string {
  return parts.join('\u0000');
}

/** Go's `%v` of a slice of Stringers: `[a b]`. */
export function goSlice(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}
