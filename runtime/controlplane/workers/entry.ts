import { fileURLToPath } from 'node:url';

/** Where hack/start.mjs leaves the path of the bundle it runs (a global symbol: nothing inherits it). */
export const BUNDLE_ENTRY = Symbol.for('kube-ts-apiserver/bundle-entry');

/**
 * The file a --workers primary forks its workers from, given the URL of the module that calls
 * runControlPlane's primary (run.ts). From sources (tsx) or compiled modules that module is not
 * the entry and process.argv[1] is. In a bundle (hack/start.mjs builds one) it is the bundle
 * itself, whose top level is the entry, while process.argv[1] names the source entry it was
 * bundled from (start.mjs sets it), which node alone cannot run.
 */
export function workerEntry(runModuleURL: string): string {
  // A split bundle (hack/start.mjs) names its entry: the modules that call this live in chunks.
  const bundleEntry = (globalThis as Record<symbol, unknown>)[BUNDLE_ENTRY];
  if (typeof bundleEntry === 'string') return bundleEntry;
  const file = fileURLToPath(runModuleURL);
  if (/[\\/]run\.[cm]?[jt]s$/.test(file) && process.argv[1] !== undefined) return process.argv[1];
  return file;
}
