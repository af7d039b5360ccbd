// What the tests of failing storage calls share: an object to write, and the error a call fails with.
import assert from 'node:assert/strict';
import type { StoredObject } from '../../runtime/storage/index.js';

/** A ConfigMap `name` in namespace `d`. */
export function configMap(name: string): StoredObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'd' } } as StoredObject;
}

/** The error `p` rejects with; fails the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  assert.fail('expected the call to fail');
}
