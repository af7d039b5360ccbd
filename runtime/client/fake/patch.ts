import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { newBadRequest, newUnprocessableEntity, newUnsupportedMediaType, StatusError } from '../../apimachinery/errors/index.js';
import { applyJSONPatch, applyMergePatch, applyStrategicMergePatch } from '../../apimachinery/patch/index.js';
import { decodeYAML, YAMLConversionError } from '../../apimachinery/serializer/yaml.js';
import type { KubeObject } from '../../registry/rest.js';
import type { PatchType } from '../types.js';

const PATCH_TYPES: readonly PatchType[] = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

/** A patch document as bytes: raw bytes and strings as they are, anything else as JSON. */
export function patchBytes(patch: unknown): Uint8Array {
  if (patch instanceof Uint8Array) return patch;
  return new TextEncoder().encode(typeof patch === 'string' ? patch : (JSON.stringify(patch) ?? 'null'));
}

/**
 * The patched object, by the server's patch library: JSON patch, JSON merge
 * patch, and strategic merge patch with the kind's structural schema (merge
 * keys and list types; without a schema, lists are replaced as by a merge
 * patch). Server-side apply is no patch of the object alone: it needs the
 * managedFields, so FieldManagedTracker runs it through the field manager.
 */
export function applyPatch(schema: JSONSchemaProps | undefined, current: KubeObject, type: string, patch: Uint8Array): unknown {
  try {
    switch (type) {
      case 'application/json-patch+json':
        return applyJSONPatch(current, patch).value;
      case 'application/merge-patch+json':
        return applyMergePatch(current, patch).value;
      case 'application/strategic-merge-patch+json':
        return applyStrategicMergePatch(current, patch, schema).value;
      case 'application/apply-patch+yaml':
        throw newBadRequest('apply patches are not supported by the ObjectTracker itself: apply through FieldManagedTracker, as the fake clientset does');
      default:
        throw newUnsupportedMediaType(PATCH_TYPES);
    }
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw newUnprocessableEntity(err instanceof Error ? err.message : String(err));
  }
}

/** The configuration of an apply (YAML or JSON) as an object, decoded as the server decodes bodies. */
export function applyConfiguration(patch: Uint8Array): KubeObject {
  let value: unknown;
  try {
    value = decodeYAML(new TextDecoder().decode(patch)).value;
  } catch (err) {
    if (!(err instanceof YAMLConversionError)) throw err;
    throw newBadRequest(`error decoding YAML: ${err.message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw newBadRequest('error decoding YAML: the configuration is not an object');
  return value as KubeObject;
}
