import { newBadRequest } from '../../apimachinery/errors/index.js';

/**
 * Storage keys of one resource (NamespaceKeyFunc / NoNamespaceKeyFunc): `/<group>/<plural>/<ns>/<name>`,
 * `/<plural>/<ns>/<name>` for the core group, without the namespace segment for cluster-scoped
 * resources. The storage backend prepends its own prefix (`/registry`).
 */
export interface KeyFuncs {
  /** The storage prefix to pass to StorageFactory.forResource (ends with `/`). */
  readonly resourcePrefix: string;
  /** The directory listed or watched for a namespace ('' = every namespace). */
  root(namespace: string): string;
  /** The key of one object; throws a 400 Status for a missing or unusable name or namespace. */
  key(namespace: string, name: string): string;
}

/** The storage prefix of a resource, for StorageFactory.forResource({ resourcePrefix }). */
export function storagePrefix(group: string, plural: string): string {
  return group === '' ? `/${plural}/` : `/${group}/${plural}/`;
}

export function newKeyFuncs(opts: { group: string; plural: string; namespaced: boolean }): KeyFuncs {
  const resourcePrefix = storagePrefix(opts.group, opts.plural);
  const base = resourcePrefix.slice(0, -1);
  return {
    resourcePrefix,
    root: (namespace) => (opts.namespaced && namespace !== '' ? `${base}/${namespace}` : base),
    key(namespace, name) {
      if (opts.namespaced && namespace === '') throw newBadRequest('Namespace parameter required.');
      if (name === '') throw newBadRequest('Name parameter required.');
      const problems = validatePathSegmentName(name);
      if (problems.length > 0) throw newBadRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${problems.join(';')}`);
      return opts.namespaced ? `${base}/${namespace}/${name}` : `${base}/${name}`;
    },
  };
}

/** path.IsValidPathSegmentName: what may never appear in a name that becomes a URL path segment. */
export function validatePathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
}
