import { setField } from '../apimachinery/serializer/jsonvalue.js';
import { BadRequestError } from './errors.js';
import type { StoredObject } from '../apimachinery/object.js';

/**
 * Versioner moves the backend revision in and out of objects (APIObjectVersioner):
 * resourceVersion is the decimal string of a global revision and is never stored in the value.
 */
export interface Versioner {
  /** Sets metadata.resourceVersion (creating metadata if needed). Mutates obj. */
  updateObject(obj: StoredObject, resourceVersion: number): void;
  /** The object's revision; 0 when unset. Throws BadRequestError when not a revision. */
  objectResourceVersion(obj: StoredObject): number;
  /** Parses a client resourceVersion; "" is 0. Throws BadRequestError when invalid. */
  parseResourceVersion(resourceVersion: string | undefined): number;
  /** The JSON text stored for obj: obj without metadata.resourceVersion and metadata.selfLink. Does not mutate obj. */
  encodeForStorage(obj: StoredObject): string;
}

const decimal = /^\d+$/;

export const apiObjectVersioner: Versioner = {
  updateObject(obj, resourceVersion) {
    const meta = (obj.metadata ??= {});
    if (resourceVersion === 0) delete meta.resourceVersion;
    else meta.resourceVersion = String(resourceVersion);
  },

  objectResourceVersion(obj) {
    return parse(obj.metadata?.resourceVersion);
  },

  parseResourceVersion(resourceVersion) {
    return parse(resourceVersion);
  },

  encodeForStorage(obj) {
    const meta = obj.metadata;
    if (!meta || (meta.resourceVersion === undefined && meta.selfLink === undefined)) return JSON.stringify(obj);
    // Rebuild metadata without the two fields, keeping key order so unchanged objects encode to identical bytes.
    const stripped: Record<string, unknown> = {};
    for (const k of Object.keys(meta)) if (k !== 'resourceVersion' && k !== 'selfLink') setField(stripped, k, meta[k]);
    return JSON.stringify({ ...obj, metadata: stripped });
  },
};

/** The largest uint64, the range of Go's strconv.ParseUint(rv, 10, 64). */
const MAX_UINT64 = '18446744073709551615';

function parse(rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  if (!decimal.test(rv)) throw new BadRequestError(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  const digits = rv.replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_UINT64.length || (digits.length === MAX_UINT64.length && digits > MAX_UINT64)) {
    throw new BadRequestError(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: value out of range`);
  }
  // Revisions beyond 2^53 cannot exist here; they parse to a value larger than any real revision
  // (a consistent read then waits for it and is "Too large resource version", as in kube).
  return Number(digits);
}
