import { TOTAL_ANNOTATION_SIZE_LIMIT_B } from '../validation/objectmeta.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { canonicalJSON, isJSONObject, ownField, setField } from '../serializer/jsonvalue.js';
import { goEscapeJSON } from './managedfields.js';

/** kubectl's client-side apply annotation (corev1.LastAppliedConfigAnnotation). */
export const lastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** The annotations of an object (only string values count, as unstructured's GetAnnotations). */
export function objectAnnotations(obj: JSONObject): JSONObject | undefined {
  const meta = ownField(obj, 'metadata');
  const annotations = isJSONObject(meta) ? ownField(meta, 'annotations') : undefined;
  return isJSONObject(annotations) ? annotations : undefined;
}

/** The non-empty last-applied annotation of `obj`, or undefined. */
export function getLastApplied(obj: JSONObject): string | undefined {
  const annotations = objectAnnotations(obj);
  const v = annotations === undefined ? undefined : ownField(annotations, lastAppliedConfigAnnotation);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * `obj` with its last-applied annotation set to `value` (SetLastApplied); when that would
 * make the annotations larger than the API allows, the annotation is dropped instead, so an
 * apply never fails for its bookkeeping.
 */
export function setLastApplied(obj: JSONObject, value: string): JSONObject {
  const annotations: JSONObject = { ...(objectAnnotations(obj) ?? {}) };
  setField(annotations, lastAppliedConfigAnnotation, value);
  if (annotationsSize(annotations) > TOTAL_ANNOTATION_SIZE_LIMIT_B) delete annotations[lastAppliedConfigAnnotation];
  return withAnnotations(obj, annotations);
}

/**
 * The annotation value for an applied configuration (buildLastApplied): its JSON as the
 * unstructured encoder writes it (sorted keys, Go's escaping, a trailing newline), without the
 * annotation itself.
 */
export function buildLastApplied(obj: JSONObject): string {
  const annotations = objectAnnotations(obj);
  let stripped = obj;
  if (annotations !== undefined) {
    const rest: JSONObject = { ...annotations };
    delete rest[lastAppliedConfigAnnotation];
    stripped = withAnnotations(obj, rest);
  }
  return `${goEscapeJSON(canonicalJSON(stripped))}\n`;
}

function annotationsSize(annotations: JSONObject): number {
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(String(v), 'utf8');
  return size;
}

function withAnnotations(obj: JSONObject, annotations: JSONObject): JSONObject {
  const meta = ownField(obj, 'metadata');
  const newMeta: JSONObject = { ...(isJSONObject(meta) ? meta : {}) };
  setField(newMeta, 'annotations', annotations);
  const out: JSONObject = { ...obj };
  setField(out, 'metadata', newMeta);
  return out;
}
