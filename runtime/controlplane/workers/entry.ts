import { fileURLToPath } from 'node:url';

/**
 * The file a --workers primary forks its workers from, given the URL of the module that calls
 * runControlPlane's primary (run.ts). From sources (tsx) or compiled modules that module is not
 * the entry and process.argv[1] is. In a bundle (hack/start.mjs builds one) it is the bundle
 * itself, whose top level is the entry, while process.argv[1] names the source entry it was
 * bundled from (start.mjs sets it), which node alone cannot run.
 */
export function workerEntry(runModuleURL: string): string {
  const file = fileURLToPath(runModuleURL);
  if (/[\\/]run\.[cm]?[jt]s$/.test(file) && process.argv[1] !== undefined) return process.argv[1];
  return file;
}
