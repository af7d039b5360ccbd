import type { ObjectReference } from './types.js';

/** Names the apiVersion and kind of an object that carries none (client-go looks them up in a scheme). */
export type ObjectKindsFunc = (obj: object) => { readonly apiVersion: string; readonly kind: string } | undefined;

/** Why no reference could be made to an object; the recorder logs it and drops the event. */
export class ObjectReferenceError extends Error {
  override readonly name = 'ObjectReferenceError';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * reference.GetReference: the ObjectReference of an object with apiVersion, kind and metadata
 * (a list gets only its kind, apiVersion and resourceVersion). An ObjectReference, recognised by
 * having no metadata, is returned as it is ("don't make a reference to a reference"). Objects
 * without apiVersion and kind (list items of typed clients) need `objectKinds`.
 */
export function getReference(obj: unknown, objectKinds?: ObjectKindsFunc): ObjectReference {
  if (obj === null || obj === undefined) throw new ObjectReferenceError("can't reference a nil object");
  if (!isRecord(obj)) throw new ObjectReferenceError('object does not implement the Object interfaces');
  const metadata = obj['metadata'];
  if (metadata === undefined) return obj as ObjectReference;
  if (!isRecord(metadata)) throw new ObjectReferenceError('object does not implement the Object interfaces');

  let apiVersion = str(obj['apiVersion']);
  let kind = str(obj['kind']);
  if (apiVersion === '' && kind === '') {
    if (objectKinds === undefined) throw new ObjectReferenceError('scheme is required to look up gvk');
    const gvk = objectKinds(obj);
    if (gvk === undefined || (gvk.apiVersion === '' && gvk.kind === '')) throw new ObjectReferenceError(`unexpected gvks registered for object: ${JSON.stringify(gvk ?? null)}`);
    ({ apiVersion, kind } = gvk);
  }

  // Only list metadata: a list is referenced by kind and resourceVersion alone.
  if (Array.isArray(obj['items'])) return omitEmpty({ kind, apiVersion, resourceVersion: str(metadata['resourceVersion']) });
  return omitEmpty({
    kind,
    apiVersion,
    name: str(metadata['name']),
    namespace: str(metadata['namespace']),
    uid: str(metadata['uid']),
    resourceVersion: str(metadata['resourceVersion']),
  });
}

/** reference.GetPartialReference: getReference with the field path set (`spec.containers{name}`). */
export function getPartialReference(obj: unknown, fieldPath: string, objectKinds?: ObjectKindsFunc): ObjectReference {
  return omitEmpty({ ...getReference(obj, objectKinds), fieldPath });
}

/** Empty fields are left out, as Go's omitempty leaves them out of the JSON. */
function omitEmpty(ref: Partial<Record<keyof ObjectReference, string>>): ObjectReference {
  const out: ObjectReference = {};
  for (const key of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const) {
    const v = ref[key];
    if (v !== undefined && v !== '') out[key] = v;
  }
  return out;
}
