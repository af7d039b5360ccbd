/**
 * Naming rules shared by the parser and the emitters, so that a resource is
 * spelled the same way in routes, discovery, clients and file names.
 */

/** English plural as Kubernetes' namer forms it (gengo's plural namer). */
export function pluralize(singular: string): string {
  if (/(s|x|z|ch|sh)$/.test(singular)) return `${singular}es`;
  if (/[^aeiou]y$/.test(singular)) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

export function lowerFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toLowerCase() + s.slice(1);
}

export function upperFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** Client accessor stem of a group: its first DNS label, camelCased; `core` for the legacy group. */
export function groupClientName(group: string): string {
  if (group === '') return 'core';
  const first = group.split('.')[0]!;
  return lowerFirst(first.split('-').map(upperFirst).join(''));
}

/** `wardleV1alpha1`: the clientset accessor of a group version. */
export function groupVersionAccessor(clientName: string, version: string): string {
  return `${clientName}${upperFirst(version)}`;
}

/** `apiVersion` as written in objects: `v1` for core, `group/version` otherwise. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

const VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kubernetes version priority (CompareKubeAwareVersionStrings): GA before
 * beta before alpha, higher major first, then higher minor. Negative when
 * `a` has the higher priority.
 */
export function compareVersionPriority(a: string, b: string): number {
  const pa = VERSION.exec(a);
  const pb = VERSION.exec(b);
  if (pa === null || pb === null) return pa === null ? (pb === null ? a.localeCompare(b) : 1) : -1;
  const level = (m: RegExpExecArray): number => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  return level(pb) - level(pa) || Number(pb[1]) - Number(pa[1]) || Number(pb[3] ?? 0) - Number(pa[3] ?? 0);
}
