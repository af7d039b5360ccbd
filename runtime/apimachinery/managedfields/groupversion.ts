/** A group and version (schema.GroupVersion); the core group is ''. */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** A group, version and kind (schema.GroupVersionKind). */
export interface GroupVersionKind extends GroupVersion {
  readonly kind: string;
}

/**
 * Parses an apiVersion as schema.ParseGroupVersion: '' and '/' are the empty GroupVersion,
 * `v1` is the core group's, `g/v` a named group's; more slashes throw Go's error.
 */
export function parseGroupVersion(apiVersion: string): GroupVersion {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** GroupVersion.String(): `g/v`, or `v` alone for the core group. */
export function groupVersionString(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** GroupVersionKind.String(): `g/v, Kind=k` (`/v1, Kind=Pod` for the core group). */
export function groupVersionKindString(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

/**
 * The GroupVersionKind an object's apiVersion and kind name (the unstructured object's
 * GroupVersionKind()): a missing or unparseable apiVersion leaves group and version empty.
 */
export function objectGroupVersionKind(obj: { readonly apiVersion?: unknown; readonly kind?: unknown }): GroupVersionKind {
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  try {
    return { ...parseGroupVersion(apiVersion), kind };
  } catch {
    return { group: '', version: '', kind };
  }
}
