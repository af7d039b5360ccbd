import { InvalidKeyError } from './errors.js';

/**
 * PrepareKey validates a key the REST layer built and, for recursive requests, turns it into a
 * directory prefix (`/a` → `/a/`, so `/ab` is not included). Keys may not be empty, `/`, or
 * contain `.`/`..` segments, and must lie under the store's resource prefix.
 */
export function prepareKey(resourcePrefix: string, key: string, recursive: boolean): string {
  if (key === '..' || key.startsWith('../') || key.endsWith('/..') || key.includes('/../')) {
    throw new InvalidKeyError(`invalid key: ${JSON.stringify(key)}`);
  }
  if (key === '.' || key.startsWith('./') || key.endsWith('/.') || key.includes('/./')) {
    throw new InvalidKeyError(`invalid key: ${JSON.stringify(key)}`);
  }
  if (key === '' || key === '/') throw new InvalidKeyError(`empty key: ${JSON.stringify(key)}`);
  const k = recursive && !key.endsWith('/') ? `${key}/` : key;
  if (!k.startsWith(resourcePrefix)) {
    throw new InvalidKeyError(`invalid key: ${JSON.stringify(k)} lacks resource prefix: ${JSON.stringify(resourcePrefix)}`);
  }
  return k;
}

/** The end of the range of keys starting with prefix (etcd's GetPrefixRangeEnd). */
export function prefixRangeEnd(prefix: string): string {
  // Keys are compared as UTF-16 code units here and as bytes by the backends; both agree on the
  // ASCII keys the REST layer builds (names are DNS subdomains).
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xffff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return '\0';
}

/** Normalizes a backend prefix to '' or '/x/…/' form. */
export function normalizePathPrefix(prefix: string | undefined): string {
  if (!prefix || prefix === '/') return '/';
  let p = prefix.startsWith('/') ? prefix : `/${prefix}`;
  if (!p.endsWith('/')) p += '/';
  return p;
}
