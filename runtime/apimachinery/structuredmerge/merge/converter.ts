// The version conversion the Updater needs (SMD merge.Converter). Asynchronous where the caller's
// conversion may be (a conversion webhook), synchronous otherwise.
import type { APIVersion } from '../fieldpath/index.js';
import type { TypedValue } from '../typed/index.js';

export type MaybePromise<T> = T | Promise<T>;

export interface Converter {
  /** The object in `version`; throws when it cannot convert (an error isMissingVersionError may recognise). */
  convert(object: TypedValue, version: APIVersion): MaybePromise<TypedValue>;
  /** Whether `err` says the version is no longer served: sets recorded at it are dropped, not failed on. */
  isMissingVersionError(err: unknown): boolean;
}

/** Converts, answering undefined when the version is missing (the callers then skip that version). */
export async function convertUnlessMissing(converter: Converter, object: TypedValue, version: APIVersion): Promise<TypedValue | undefined> {
  try {
    return await converter.convert(object, version);
  } catch (err) {
    if (converter.isMissingVersionError(err)) return undefined;
    throw err;
  }
}

/** An error whose message is `${context}: ${err's message}`, as Go's fmt.Errorf("…: %v", err). */
export function wrapError(context: string, err: unknown): Error {
  return new Error(`${context}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}
