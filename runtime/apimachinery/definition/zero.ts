import { deepCopyJSON, type JSONObject } from '../serializer/jsonvalue.js';
import type { ResourceDefinition } from './resource.js';

/**
 * A new zero object of a kind in one version (runtime.ObjectCreater.New as the unstructured
 * converter writes it): apiVersion and kind, then the definition's zeroValue, copied so the
 * caller may own it. A definition without one (custom resources) gives `{apiVersion, kind}`.
 */
export function newZeroObject(definition: Pick<ResourceDefinition, 'zeroValue'> | undefined, apiVersion: string, kind: string): JSONObject {
  const zero = definition?.zeroValue;
  return { apiVersion, kind, ...(zero === undefined ? {} : deepCopyJSON(zero)) };
}
