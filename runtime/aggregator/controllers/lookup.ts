import { ListerNotFoundError } from '../../client/index.js';

/** A lister (or a namespace of one): get throws ListerNotFoundError on absence. */
interface Getter<T> {
  get(name: string): T;
}

/** The cached object named `name`, or undefined when the cache has none. */
export function getCached<T>(lister: Getter<T>, name: string): T | undefined {
  try {
    return lister.get(name);
  } catch (err) {
    if (err instanceof ListerNotFoundError) return undefined;
    throw err;
  }
}

/** Reconcile errors before the retry; default a line on stderr (utilruntime.HandleError). */
export function onErrorOf(onError: ((key: string, err: unknown) => void) | undefined, controller: string): (key: string, err: unknown) => void {
  return onError ?? ((key, err) => process.stderr.write(`${controller}: ${key} failed with: ${err instanceof Error ? err.message : String(err)}\n`));
}
