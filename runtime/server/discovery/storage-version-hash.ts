import { createHash } from 'node:crypto';

/**
 * The opaque storageVersionHash of legacy discovery: base64 of the first 8 bytes of
 * sha256("<group>/<version>/<Kind>") of the storage version (core ConfigMap: `qFsyl6wFWjQ=`).
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}
